// Gemini CLI: its own event names; `decision: "deny"` with `reason` refuses (a tool call, a prompt, the end of
// a turn, which it then retries), a rewrite is `hookSpecificOutput.tool_input` in Gemini's argument names.
// MCP tools are named mcp_<server>_<tool>; the payload's mcp_context names the server and the tool apart.
// AfterTool's tool_response is `{llmContent, returnDisplay}` (as Qwen Code's, its fork): Claude Code's shape is
// built for the tools that have one, the original kept in peri_hooks_host.tool_response.
// Gemini reads a hook's stdout JSON before its stderr, and the model sees the `reason`: under --fail-closed that
// reason says only that the policy could not be enforced (the failed hook's command line and error stay on stderr).
import { geminiCanAsk } from './gemini-headless.ts';
import { answer, type HostContext, type HostModule, type RenderContext, reasonOf } from './module.ts';
import { claudeInput, hostToolInput } from './normalise.ts';
import { claudeResponse } from './qwen.ts';
import type { ClaudeCall, HostAnswer } from './types.ts';

export const gemini: HostModule = {
  calls({ host, hostEvent, def, payload }: HostContext): ClaudeCall[] {
    const mcp = payload.mcp_context as { server_name?: unknown; tool_name?: unknown } | undefined;
    const input = claudeInput(host, hostEvent, def, payload);
    if (mcp && typeof mcp.server_name === 'string' && typeof mcp.tool_name === 'string')
      input.tool_name = `mcp__${mcp.server_name}__${mcp.tool_name}`;
    const response = payload.tool_response as { error?: unknown } | undefined;
    // AfterTool reports a failed call too: that is Claude Code's PostToolUseFailure.
    if (def.event === 'PostToolUse' && response && response.error !== undefined && response.error !== null) {
      const { tool_response: _response, ...rest } = input;
      return [
        {
          event: 'PostToolUseFailure',
          input: { ...rest, hook_event_name: 'PostToolUseFailure', error: errorText(response.error) },
        },
      ];
    }
    if (def.event === 'PostToolUse') {
      const tool = input.tool_name as string;
      const toolInput = input.tool_input as Record<string, unknown>;
      input.tool_response = tool === 'Bash' ? shellResponse(response) : claudeResponse(tool, toolInput, response);
      input.peri_hooks_host = { ...(input.peri_hooks_host as object), tool_response: response ?? {} };
    }
    return [{ event: def.event, input }];
  },
  render({ host, hostEvent, verdict, hostTool }: RenderContext): HostAnswer {
    const common = {
      ...(verdict.stop
        ? { continue: false, ...(verdict.stop.reason !== undefined ? { stopReason: verdict.stop.reason } : {}) }
        : {}),
      ...(verdict.systemMessage !== undefined ? { systemMessage: verdict.systemMessage } : {}),
    };
    const specific = {
      ...(verdict.updatedInput ? { tool_input: hostToolInput(host, hostTool, verdict.updatedInput) } : {}),
      ...(verdict.context !== undefined ? { additionalContext: verdict.context } : {}),
    };
    const withSpecific =
      Object.keys(specific).length > 0 ? { hookSpecificOutput: { hookEventName: hostEvent, ...specific } } : {};
    if (verdict.blocked) {
      const reason = verdict.failClosed ? FAIL_CLOSED_REASON : reasonOf(verdict);
      return answer({ ...common, decision: 'deny', reason, ...withSpecific }, 2, reasonOf(verdict));
    }
    const decision =
      verdict.permission === 'ask' || verdict.permission === 'allow'
        ? { decision: verdict.permission, ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}) }
        : {};
    const output = { ...common, ...decision, ...withSpecific };
    return answer(Object.keys(output).length > 0 ? output : undefined);
  },
  stops: () => true,
  cannotAsk: () =>
    geminiCanAsk()
      ? undefined
      : 'Gemini CLI runs headless (-p, CI or no terminal) and would wait for an answer forever',
};

/** What the model reads when --fail-closed blocks: no command line, no error text, no stack. */
export const FAIL_CLOSED_REASON =
  'peri-hooks could not enforce the policy (a hook failed or did not run); blocked because of --fail-closed';

/** Gemini's tool error is `{message, type}`; Claude Code's `error` is the message text. */
function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}

/** Sections run_shell_command puts after `Output: …`, one line each, in this order. */
const SHELL_TRAILERS = /\n(?:Exit Code|Signal|Background PIDs|Process Group PGID): [^\n]*$/;

/**
 * Claude Code's Bash response from Gemini's shell text (`Output: <stdout and stderr together>` then `Error: …`,
 * `Exit Code: …`, `Process Group PGID: …`, in <untrusted_context> since 0.61). A cancelled or backgrounded
 * command's text has no `Output: `: it is the whole stdout, and a cancel is `interrupted`.
 */
function shellResponse(response: unknown): Record<string, unknown> {
  const content = (response as { llmContent?: unknown } | undefined)?.llmContent;
  let text = typeof content === 'string' ? content : '';
  const wrapped = /^<untrusted_context>\n([\s\S]*)\n<\/untrusted_context>$/.exec(text);
  if (wrapped) text = wrapped[1]!.replaceAll('&lt;/untrusted_context&gt;', '</untrusted_context>');
  while (SHELL_TRAILERS.test(text)) text = text.replace(SHELL_TRAILERS, '');
  const output = text.startsWith('Output: ') ? text.slice('Output: '.length) : undefined;
  return {
    stdout: output === undefined ? text : output === '(empty)' ? '' : output,
    stderr: '',
    interrupted: output === undefined && /^Command was (automatically )?cancelled/.test(text),
    isImage: false,
  };
}
