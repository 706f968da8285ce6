// GitHub Copilot CLI: two payload dialects chosen by the event key (camelCase key: camelCase fields, toolArgs
// possibly JSON text; PascalCase key: snake_case fields), answers at the top level (`permissionDecision`,
// `modifiedArgs`, `behavior`, `decision`). A failing hook is logged and skipped there, so a block is JSON on
// exit 0, never exit 2.
import { answer, reasonOf, type HostModule, type RenderContext } from './module.ts';
import { hostToolInput } from './normalise.ts';
import type { HostAnswer } from './types.ts';

export const copilot: HostModule = {
  render({ host, def, verdict, hostTool }: RenderContext): HostAnswer {
    switch (def.event) {
      case 'PreToolUse':
        if (verdict.blocked) return answer({ permissionDecision: 'deny', permissionDecisionReason: reasonOf(verdict) });
        return answer(orNothing({
          ...(verdict.permission === 'allow' || verdict.permission === 'ask' ? { permissionDecision: verdict.permission } : {}),
          ...(verdict.reason !== undefined && verdict.permission !== 'defer' ? { permissionDecisionReason: verdict.reason } : {}),
          ...(verdict.updatedInput ? { modifiedArgs: hostToolInput(host, hostTool, verdict.updatedInput) } : {}),
        }));
      case 'PermissionRequest': {
        const decision = verdict.permissionRequest;
        if (!decision) return answer(undefined);
        return answer({ behavior: decision.behavior, ...(decision.message !== undefined ? { message: decision.message } : {}), ...(decision.behavior === 'deny' && verdict.stop ? { interrupt: true } : {}) });
      }
      case 'Stop':
      case 'SubagentStop':
        return answer(verdict.blocked ? { decision: 'block', reason: reasonOf(verdict) } : undefined);
      default:
        return answer(verdict.context !== undefined ? { additionalContext: verdict.context } : undefined);
    }
  },
  stops: (def) => def.event === 'PermissionRequest',
};

function orNothing(value: Record<string, unknown>): Record<string, unknown> | undefined {
  return Object.keys(value).length > 0 ? value : undefined;
}
