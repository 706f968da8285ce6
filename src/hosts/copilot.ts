// GitHub Copilot CLI: two payload dialects chosen by the event key (camelCase key: camelCase fields, toolArgs
// possibly JSON text, permissionRequest's toolInput; PascalCase key: snake_case fields, Claude Code's tool names
// with Copilot's argument names), one answer form for both, at the top level (`permissionDecision`,
// `modifiedArgs`, `behavior`, `decision`, `additionalContext`). Copilot shows the model a preToolUse deny's
// reason only from JSON (an exit 2 reads "hook exited with code 2"), so a block is JSON on exit 0.
import { answer, type HostModule, type RenderContext, reasonOf } from './module.ts';
import { hostToolInput } from './normalise.ts';
import type { HostAnswer, Verdict } from './types.ts';

export const copilot: HostModule = {
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
