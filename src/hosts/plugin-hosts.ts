// opencode and Amp run only in-process plugins: the plugin install generates hands each call to
// `peri-hooks fire --host <name>` as JSON and reads this answer. Before a tool: `{action: "deny" | "allow",
// message?, args?}` (Amp: `reject-and-continue` for deny), exit 2 on a deny too. After a tool: `{action: "block",
// message}` for a block (the plugin shows the model its reason) and `{context}`.

import type { HostModule } from './module.ts';
import { answer, type RenderContext, reasonOf } from './module.ts';
import { hostToolInput } from './normalise.ts';
import type { HostAnswer } from './types.ts';

export function pluginAnswer(denyAction: string) {
  return ({ host, def, verdict, hostTool }: RenderContext): HostAnswer => {
    // A fail-closed reason names no command line (reduce.ts): the model may read it.
    const reason = reasonOf(verdict);
    if (def.event === 'PreToolUse') {
      if (verdict.blocked) return answer({ action: denyAction, message: reason }, 2, reasonOf(verdict));
      return answer({
        action: 'allow',
        ...(verdict.updatedInput ? { args: hostToolInput(host, hostTool, verdict.updatedInput) } : {}),
      });
    }
    const context = verdict.context !== undefined ? { context: verdict.context } : {};
    if (verdict.blocked) return answer({ action: 'block', message: reason, ...context }, 2, reasonOf(verdict));
    return answer(context);
  };
}

export const amp: HostModule = { render: pluginAnswer('reject-and-continue') };
