// VS Code agent hooks: Claude Code's output; its payload has camelCase common fields and the tools' own
// camelCase arguments (filePath), which the table renames. Stop reads its block from hookSpecificOutput.
import { renderClaudeLike } from './claude-like.ts';
import type { HostModule } from './module.ts';

export const vscode: HostModule = {
  render: (context) => renderClaudeLike(context, { stopDecisionInSpecific: true }),
  stops: () => true,
};
