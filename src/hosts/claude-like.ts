// The answer for hosts that read Claude Code's own output (Codex CLI, Qwen Code, Factory Droid, VS Code,
// Antigravity): hookSpecificOutput and the top-level fields, exit 2 with the reason on stderr for a block.
import { answer, type RenderContext, reasonOf } from './module.ts';
import { hostToolInput } from './normalise.ts';
import type { HostAnswer } from './types.ts';

export interface ClaudeLikeOptions {
  /** The host reads Stop's block from hookSpecificOutput.decision (VS Code) as well as the top level. */
  stopDecisionInSpecific?: boolean;
}

export function renderClaudeLike(
  { host, def, verdict, hostTool }: RenderContext,
  options: ClaudeLikeOptions = {},
): HostAnswer {
  const event = def.event;
  const common: Record<string, unknown> = {
    ...(verdict.stop
      ? { continue: false, ...(verdict.stop.reason !== undefined ? { stopReason: verdict.stop.reason } : {}) }
      : {}),
    ...(verdict.systemMessage !== undefined ? { systemMessage: verdict.systemMessage } : {}),
  };
  const specific = (fields: Record<string, unknown>) =>
    Object.keys(fields).length > 0 ? { hookSpecificOutput: { hookEventName: event, ...fields } } : {};
  const context = verdict.context !== undefined ? { additionalContext: verdict.context } : {};
  if (event === 'PermissionRequest') {
    const decision = verdict.permissionRequest;
    return answer(
      nonEmpty({
        ...common,
        ...specific(
          decision
            ? {
                decision: {
                  behavior: decision.behavior,
                  ...(decision.message !== undefined ? { message: decision.message } : {}),
                },
              }
            : {},
        ),
      }),
    );
  }
  if (event === 'PreToolUse') {
    if (verdict.blocked)
      return answer(
        { ...common, ...specific({ permissionDecision: 'deny', permissionDecisionReason: reasonOf(verdict) }) },
        2,
        reasonOf(verdict),
      );
    return answer(
      nonEmpty({
        ...common,
        ...specific({
          ...(verdict.permission && verdict.permission !== 'defer' ? { permissionDecision: verdict.permission } : {}),
          ...(verdict.reason !== undefined && verdict.permission !== 'defer'
            ? { permissionDecisionReason: verdict.reason }
            : {}),
          ...(verdict.updatedInput ? { updatedInput: hostToolInput(host, hostTool, verdict.updatedInput) } : {}),
          ...context,
        }),
      }),
    );
  }
  if (verdict.blocked) {
    const stopInSpecific =
      options.stopDecisionInSpecific && event === 'Stop' ? { decision: 'block', reason: reasonOf(verdict) } : {};
    return answer(
      { ...common, decision: 'block', reason: reasonOf(verdict), ...specific({ ...stopInSpecific, ...context }) },
      2,
      reasonOf(verdict),
    );
  }
  return answer(nonEmpty({ ...common, ...specific(context) }));
}

function nonEmpty(value: Record<string, unknown>): Record<string, unknown> | undefined {
  return Object.keys(value).length > 0 ? value : undefined;
}
