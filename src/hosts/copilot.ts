// GitHub Copilot CLI: two payload dialects chosen by the event key (camelCase key: camelCase fields, toolArgs
// possibly JSON text, permissionRequest's toolInput; PascalCase key: snake_case fields, Claude Code's tool names
// with Copilot's argument names), one answer form for both, at the top level (`permissionDecision`,
// `modifiedArgs`, `behavior`, `decision`, `additionalContext`). Copilot shows the model a preToolUse deny's
// reason only from JSON (an exit 2 reads "hook exited with code 2"), so a block is JSON on exit 0.
// A tool result (`{resultType, textResultForLlm}`) becomes Claude Code's tool_response for Bash and the file tools,
// the original kept under peri_hooks_host.tool_response; a glob or grep of several `paths` is one call per path.
import { answer, type HostContext, type HostModule, type RenderContext, reasonOf } from './module.ts';
import { claudeInput, hostToolInput } from './normalise.ts';
import { bashResponse, editResponse, readResponse, writeResponse } from './tool-response.ts';
import type { ClaudeCall, HostAnswer, Verdict } from './types.ts';

export const copilot: HostModule = {
  calls({ host, hostEvent, def, payload }: HostContext): ClaudeCall[] {
    const input = withResponse(claudeInput(host, hostEvent, def, payload));
    const toolInput = input.tool_input as Record<string, unknown> | undefined;
    const paths = toolInput?.path;
    if (!Array.isArray(paths) || paths.length === 0) return [{ event: def.event, input }];
    return paths.map((one) => ({ event: def.event, input: { ...input, tool_input: { ...toolInput, path: one } } }));
  },
  render({ host, def, verdict, hostTool }: RenderContext): HostAnswer {
    switch (def.event) {
      case 'PreToolUse':
        if (verdict.blocked) return answer({ permissionDecision: 'deny', permissionDecisionReason: reasonOf(verdict) });
        return answer(
          orNothing({
            ...(verdict.permission === 'allow' || verdict.permission === 'ask'
              ? { permissionDecision: verdict.permission }
              : {}),
            ...(verdict.reason !== undefined && verdict.permission !== 'defer'
              ? { permissionDecisionReason: verdict.reason }
              : {}),
            ...(verdict.updatedInput ? { modifiedArgs: hostToolInput(host, hostTool, verdict.updatedInput) } : {}),
            ...context(verdict),
          }),
        );
      case 'PermissionRequest': {
        const decision = verdict.permissionRequest;
        if (!decision) return answer(undefined);
        return answer({
          behavior: decision.behavior,
          ...(decision.message !== undefined ? { message: decision.message } : {}),
          ...(decision.behavior === 'deny' && verdict.stop ? { interrupt: true } : {}),
        });
      }
      default:
        return answer(
          orNothing({
            ...(verdict.blocked ? { decision: 'block', reason: reasonOf(verdict) } : {}),
            ...context(verdict),
          }),
        );
    }
  },
  stops: (def) => def.event === 'PermissionRequest',
};

function context(verdict: Verdict): Record<string, unknown> {
  return verdict.context !== undefined ? { additionalContext: verdict.context } : {};
}

function orNothing(value: Record<string, unknown>): Record<string, unknown> | undefined {
  return Object.keys(value).length > 0 ? value : undefined;
}

type Shaper = (input: Record<string, unknown>, text: string) => Record<string, unknown>;

/** Claude Code's tool_response per tool, from the text Copilot gives the model. */
const SHAPES: Readonly<Record<string, Shaper>> = {
  // Copilot's shell merges stderr into the output and ends it with the exit code's line.
  Bash: (_input, text) => bashResponse(text.replace(SHELL_END, ''), ''),
  Read: (input, text) => readResponse(input, text),
  // create only creates; Copilot's text says no more than "Created file …" or "File … updated with changes."
  Write: (input) => writeResponse(input),
  Edit: (input) => editResponse(input),
};

/** The line Copilot's shell tool ends its result with (its own pattern, 1.0.102). */
const SHELL_END = /\n?<(?:detached command with )?shellId: [^\r\n]+ completed with exit code -?\d+>[ \t]*$/;

function withResponse(input: Record<string, unknown>): Record<string, unknown> {
  const result = input.tool_response as Record<string, unknown> | undefined;
  const shape = SHAPES[input.tool_name as string];
  const text = result?.textResultForLlm ?? result?.text_result_for_llm;
  if (input.hook_event_name !== 'PostToolUse' || shape === undefined || typeof text !== 'string') return input;
  return {
    ...input,
    tool_response: shape(input.tool_input as Record<string, unknown>, text),
    peri_hooks_host: { ...(input.peri_hooks_host as object), tool_response: result },
  };
}
