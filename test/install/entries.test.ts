// The registration group of one event, in process: what Claude Code reads from the group itself (not only from
// peri-hooks' answer) is carried over from the policy, so that the registration acts as the policy registered directly.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventName } from '../../src/events.ts';
import { registrationGroup, serveGroup } from '../../src/install/entries.ts';
import type { LoadedHook } from '../../src/types.ts';

const hook = (event: EventName, matcher?: string): LoadedHook => ({
  id: `policy#/hooks/${event}/0/hooks/0`,
  event,
  ...(matcher !== undefined ? { matcher } : {}),
  handler: { type: 'command', command: 'true' },
  provenance: { layer: 'flag', file: '/p/policy.json', pointer: `/hooks/${event}/0/hooks/0` },
});
const OPTIONS = { launch: { runner: ['peri-hooks'] }, policies: ['/p/policy.json'], failClosed: true };

const rows: Array<[what: string, hooks: LoadedHook[], event: EventName, matcher: string | undefined]> = [
  [
    'FileChanged: every file the policy watches, once each',
    [hook('FileChanged', '.envrc|.env'), hook('FileChanged', '.env|package.json'), hook('PreToolUse', 'Bash')],
    'FileChanged',
    '.envrc|.env|package.json',
  ],
  [
    'FileChanged without a matcher watches nothing: no matcher',
    [hook('FileChanged'), hook('FileChanged', '*')],
    'FileChanged',
    undefined,
  ],
  ['PreToolUse: no matcher, peri-hooks matches', [hook('PreToolUse', 'Bash')], 'PreToolUse', undefined],
  ['CwdChanged: no matcher field', [hook('CwdChanged')], 'CwdChanged', undefined],
];

for (const [what, hooks, event, matcher] of rows) {
  test(`registration group: ${what}`, () => {
    for (const group of [
      registrationGroup(event, hooks, OPTIONS),
      serveGroup(event, 'http://127.0.0.1:1', hooks, '/p'),
    ]) {
      assert.equal(group.matcher, matcher);
      assert.equal(group.hooks.length, 1);
    }
  });
}
