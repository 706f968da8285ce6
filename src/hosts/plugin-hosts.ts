// opencode and Amp run only in-process plugins: the plugin install generates hands each call to
// `peri-hooks fire --host <name>` as JSON and reads this answer: `{action: "deny" | "allow", message?, args?,
// context?}` (Amp: `reject-and-continue` for deny), exit 2 on a deny too.
import { answer, reasonOf, type HostModule, type RenderContext } from './module.ts';
import { hostToolInput } from './normalise.ts';
import type { HostAnswer } from './types.ts';

function pluginAnswer(denyAction: string) {
  return ({ host, def, verdict, hostTool }: RenderContext): HostAnswer => {
    if (def.event === 'PreToolUse') {
      if (verdict.blocked) return answer({ action: denyAction, message: reasonOf(verdict) }, 2, reasonOf(verdict));
      return answer({ action: 'allow', ...(verdict.updatedInput ? { args: hostToolInput(host, hostTool, verdict.updatedInput) } : {}) });
    }
    return answer(verdict.context !== undefined ? { context: verdict.context } : {});
  };
}

export const opencode: HostModule = { render: pluginAnswer('deny') };
export const amp: HostModule = { render: pluginAnswer('reject-and-continue') };
