// Fields of a hook's JSON output that Claude Code ignores where they stand: each named, with where it belongs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventName } from '../../src/events.ts';
import { misplacedOutputFields } from '../../src/output/fields.ts';
import { makeProject, runCli } from '../helpers/cli.ts';

const ROWS: Array<[event: EventName, stdout: string, expected: string[]]> = [
  [
    'PreToolUse',
    '{"permissionDecision":"deny","permissionDecisionReason":"no"}',
    [
      '"permissionDecision" at the top level of the output is ignored: it belongs in "hookSpecificOutput" with "hookEventName": "PreToolUse"',
      '"permissionDecisionReason" at the top level of the output is ignored: it belongs in "hookSpecificOutput" with "hookEventName": "PreToolUse"',
    ],
  ],
  [
    'PreToolUse',
    '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","systemMessage":"x","sessionTitle":"t"}}',
    [
      '"hookSpecificOutput.systemMessage" is ignored: "systemMessage" belongs at the top level of the output',
      '"hookSpecificOutput.sessionTitle" is not a field of PreToolUse: it is ignored (PreToolUse reads permissionDecision, permissionDecisionReason, updatedInput, additionalContext); it is a hookSpecificOutput field of UserPromptSubmit, SessionStart',
    ],
  ],
  ['Stop', '{"decison":"block"}', ['"decison" is not a field of Stop\'s output: it is ignored']],
  [
    'Stop',
    '{"additionalContext":"x"}',
    [
      '"additionalContext" at the top level of the output is ignored: it belongs in "hookSpecificOutput" with "hookEventName": "Stop"',
    ],
  ],
  // Right as written, not JSON, or another event's nested output (said elsewhere): nothing here.
  [
    'PreToolUse',
    '{"continue":true,"systemMessage":"m","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}',
    [],
  ],
  ['PreToolUse', 'plain text {"permissionDecision":"deny"}', []],
  ['PreToolUse', '{"permissionDecision":', []],
  ['PreToolUse', '["permissionDecision"]', []],
  ['PreToolUse', '{"hookSpecificOutput":{"hookEventName":"Stop","foo":1}}', []],
];

test('misplaced and unknown output fields, row by row', () => {
  for (const [event, stdout, expected] of ROWS)
    assert.deepEqual(misplacedOutputFields(event, stdout), expected, stdout);
});

test('fire says it: a top-level permissionDecision lets the call through, with a warning naming the field', async () => {
  const project = makeProject();
  try {
    const settings = JSON.stringify({
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo \'{"permissionDecision":"deny"}\'' }] }] },
    });
    const result = await runCli(['fire', 'PreToolUse', '--setting-sources', '', '--settings', settings], {
      cwd: project.dir,
      env: project.env(),
      stdin: project.input('PreToolUse.tool_name-Bash'),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /warning: --settings \(\/hooks\/PreToolUse\/0\/hooks\/0\): \[echo .*\]: "permissionDecision" at the top level of the output is ignored: it belongs in "hookSpecificOutput" with "hookEventName": "PreToolUse"/,
    );
  } finally {
    project.cleanup();
  }
});
