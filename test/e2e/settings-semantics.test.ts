// Settings semantics end to end: what loads decides what runs (spec §1, §5).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

test('an empty command (shell or exec form) on PreToolUse loads like Claude Code: the sibling deny still decides', async () => {
  const deny = project.write(
    'hooks/deny.sh',
    `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'\n`,
  );
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: '' },
            { type: 'command', command: '', args: [] },
            { type: 'command', command: deny },
          ],
        },
      ],
    },
  });
  const result = await runCli(['fire', 'PreToolUse'], {
    stdin: project.input('PreToolUse.tool_name-Bash'),
    env: project.env(),
  });
  assert.equal(result.code, 2, result.stderr);
  assert.equal(JSON.parse(result.stdout).hookSpecificOutput.permissionDecision, 'deny');
});
