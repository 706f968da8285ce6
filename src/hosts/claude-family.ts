// Factory Droid and Antigravity CLI: Claude Code's event names, payload and output; only the tool
// names differ, which the table maps.
import { renderClaudeLike } from './claude-like.ts';
import type { HostModule } from './module.ts';

export const claudeFamily: HostModule = {
  render: (context) => renderClaudeLike(context),
  stops: () => true,
};
