// Codex CLI: Claude Code's payload and output, but apply_patch carries a patch envelope in tool_input.command,
// which becomes one Claude Code Edit or Write per file (and a rewrite of it a patch again), and tool_response is
// the text the model read, which becomes the Claude Code tool's own response shape.
import { type FileCall, patchCalls, patchOf } from './apply-patch.ts';
import { renderClaudeLike } from './claude-like.ts';
import type { HostContext, HostModule, RenderContext } from './module.ts';
import { claudeInput, field, malformed, type Payload } from './normalise.ts';
import type { HostDef } from './table.ts';
import { bashResponse, editResponse, writeResponse } from './tool-response.ts';
import type { ClaudeCall } from './types.ts';

export const codex: HostModule = {
  calls({ host, hostEvent, def, payload }: HostContext): ClaudeCall[] {
    const single = claudeInput(host, hostEvent, def, payload);
    if (field(host, payload, 'tool_name') !== 'apply_patch')
      return [{ event: def.event, input: withResponse(single, payload) }];
    const files = patchFiles(host, hostEvent, payload, single.cwd as string);
    return files.map((file) => ({
      event: def.event,
      input: withResponse(
        claudeInput(host, hostEvent, def, payload, { name: file.tool, input: file.input, hostName: 'apply_patch' }),
        payload,
      ),
    }));
  },
  render(context: RenderContext) {
    const { verdict, hostTool, host, hostEvent, payload } = context;
    // Codex refuses a PreToolUse allow without updatedInput ("unsupported permissionDecision:allow") and then drops
    // the whole answer, context included; it runs the call without one just the same.
    if (verdict.event === 'PreToolUse' && verdict.permission === 'allow' && !verdict.updatedInput) {
      const { permission: _, reason: __, ...rest } = verdict;
      return renderClaudeLike({ ...context, verdict: rest });
    }
    // With exit 2 Codex reads stderr alone; a PostToolUse block that carries context goes as JSON on exit 0,
    // where Codex takes both.
    if (verdict.event === 'PostToolUse' && verdict.blocked && verdict.context !== undefined) {
      const rendered = renderClaudeLike(context);
      return { ...rendered, stderr: '', exitCode: 0 };
    }
    if (hostTool !== 'apply_patch' || !verdict.updatedInput) return renderClaudeLike(context);
    // Codex takes a rewrite of apply_patch only as a patch in `command`; one file call was fired (several are
    // refused before rendering), so its kind is the patch's first file's.
    const cwd = (field(host, payload, 'cwd') as string | undefined) ?? process.cwd();
    const [file] = patchFiles(host, hostEvent, payload, cwd);
    const command = patchOf(verdict.updatedInput, file!.kind, cwd);
    if (command === undefined)
      throw malformed(
        host,
        hostEvent,
        "the policy's updatedInput",
        'is not a Claude Code Write ({file_path, content}) or Edit ({file_path, old_string, new_string}) that an apply_patch can carry',
      );
    return renderClaudeLike({ ...context, verdict: { ...verdict, updatedInput: { command } } });
  },
  // Codex marks a PreToolUse or PermissionRequest hook that stops the agent as failed, and the call proceeds.
  stops: (def) => def.event !== 'PreToolUse' && def.event !== 'PermissionRequest',
};

function patchFiles(host: HostDef, hostEvent: string, payload: Payload, cwd: string): FileCall[] {
  const toolInput = (payload.tool_input ?? {}) as Record<string, unknown>;
  const patch = toolInput.command ?? toolInput.input ?? toolInput.patch;
  if (typeof patch !== 'string') throw malformed(host, hostEvent, '$.tool_input.command', 'has no apply_patch text');
  const parsed = patchCalls(patch, cwd);
  if ('error' in parsed) throw malformed(host, hostEvent, '$.tool_input.command', parsed.error);
  return parsed.calls;
}

/**
 * Codex's tool_response is the text the model read; Claude Code's is the tool's structured response. Bash gets
 * it as its stdout, a file tool the fields Claude Code's Write or Edit answer with, and the text stays under
 * peri_hooks_host.tool_response; other tools (MCP) keep the text.
 */
function withResponse(input: Record<string, unknown>, payload: Payload): Record<string, unknown> {
  const text = payload.tool_response;
  if (typeof text !== 'string' || !('tool_response' in input)) return input;
  const shaped = SHAPES[input.tool_name as string]?.(input.tool_input as Record<string, unknown>, text);
  if (shaped === undefined) return input;
  return {
    ...input,
    tool_response: shaped,
    peri_hooks_host: { ...(input.peri_hooks_host as object), tool_response: text },
  };
}

const SHAPES: Readonly<Record<string, (call: Record<string, unknown>, text: string) => Record<string, unknown>>> = {
  Bash: (_call, text) => bashResponse(text, ''),
  Write: (call) => writeResponse(call),
  Edit: (call) => editResponse(call),
};
