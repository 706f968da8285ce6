// The terminal summary: one line per firing and per hook that ran; plain without colour.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { humanSummary } from '../../src/report/human.ts';
import type { FireReport } from '../../src/report/types.ts';

const report: FireReport = {
  event: 'PreToolUse',
  matcherValue: 'Bash',
  projectDir: '/p',
  blocked: true,
  reason: 'no',
  exitCode: 2,
  hooks: [
    {
      id: 'a',
      type: 'command',
      layer: 'project',
      file: '/p/.claude/settings.json',
      pointer: '/hooks/PreToolUse/0/hooks/0',
      label: './deny.sh',
      status: 'ran',
      outcome: 'blocking',
      exitCode: 2,
      timedOut: false,
      durationMs: 12,
    },
    {
      id: 'b',
      type: 'command',
      layer: 'user',
      file: '/h/.claude/settings.json',
      pointer: '/hooks/PreToolUse/0/hooks/0',
      label: './slow.sh',
      status: 'ran',
      outcome: 'cancelled',
      exitCode: null,
      timedOut: true,
      durationMs: 1000,
    },
    {
      id: 'c',
      type: 'command',
      layer: 'user',
      file: '/h/.claude/settings.json',
      pointer: '/hooks/PreToolUse/1/hooks/0',
      label: './edit.sh',
      status: 'skipped',
      skipReason: 'matcher',
      skipDetail: '',
    },
  ],
  deciders: ['a'],
  errors: [],
  warnings: [{ severity: 'warning', code: 'x', message: 'a warning' }],
};

test('the summary names the event, the verdict and each hook that ran, without colour codes', () => {
  assert.equal(
    humanSummary(report, false),
    [
      'peri-hooks PreToolUse(Bash): 2 ran, 1 skipped -> blocked',
      '  x ./deny.sh (exit 2, 12 ms, project)',
      '  ! ./slow.sh (timed out, 1000 ms, user)',
      '  warning a warning',
      '',
    ].join('\n'),
  );
});

test('with colour, the same text wrapped in ANSI codes', () => {
  const coloured = humanSummary(report, true);
  assert.match(coloured, /\u001b\[/);
  assert.equal(coloured.replace(/\u001b\[[0-9;]*m/g, ''), humanSummary(report, false));
});
