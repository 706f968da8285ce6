// The Stop loop guard as a pure function: counting, the cap, the override, the reset.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Reduced } from '../../src/reduce.ts';
import { guardStop, stopCap, stopGuardKey } from '../../src/session/stop-guard.ts';

const block: Reduced = {
  blocked: true,
  reason: 'keep going',
  deciders: [0],
  errors: [],
  output: { decision: 'block', reason: 'keep going' },
};
const allow: Reduced = { blocked: false, deciders: [], errors: [] };
const context: Reduced = {
  blocked: false,
  deciders: [],
  errors: [],
  output: { hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'one more thing' } },
};

test('blocks count up to the cap; the one past it is overridden and the count resets', () => {
  let count = 0;
  for (let i = 1; i <= 8; i++) {
    const { reduced, guard } = guardStop('Stop', block, count, 8);
    assert.equal(reduced.blocked, true);
    assert.deepEqual(guard, { count: i, cap: 8, overridden: false });
    count = guard.count;
  }
  const ninth = guardStop('Stop', block, count, 8);
  assert.equal(ninth.reduced.blocked, false);
  assert.equal(ninth.reduced.reason, undefined);
  assert.equal(ninth.guard.overridden, true);
  assert.equal(ninth.guard.count, 0);
  assert.match(
    ninth.reduced.output!.systemMessage as string,
    /9 consecutive times; CLAUDE_CODE_STOP_HOOK_BLOCK_CAP is 8/,
  );
  assert.equal(ninth.reduced.output!.decision, undefined);
});

test('a non-blocking result resets the count; cap 0 never overrides', () => {
  assert.deepEqual(guardStop('Stop', allow, 5, 8).guard, { count: 0, cap: 8, overridden: false });
  assert.deepEqual(guardStop('Stop', block, 1000, 0).guard, { count: 1001, cap: 0, overridden: false });
});

test('additionalContext continues the turn and counts; continue: false ends it and does not', () => {
  assert.equal(guardStop('Stop', context, 0, 8).guard.count, 1);
  const overridden = guardStop('Stop', context, 1, 1);
  assert.equal(overridden.guard.overridden, true);
  assert.equal(overridden.reduced.output!.hookSpecificOutput, undefined);
  const stop: Reduced = { ...block, output: { ...block.output, continue: false } };
  assert.equal(guardStop('Stop', stop, 3, 8).guard.count, 0);
});

test('the cap comes from CLAUDE_CODE_STOP_HOOK_BLOCK_CAP; a bad value keeps 8 with a note', () => {
  assert.deepEqual(stopCap({}), { cap: 8 });
  assert.deepEqual(stopCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' }), { cap: 0 });
  assert.deepEqual(stopCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' }), { cap: 3 });
  assert.equal(stopCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: 'many' }).cap, 8);
  assert.match(stopCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '-1' }).invalid!, /whole number/);
});

test('Stop counts per session, SubagentStop per agent; other events are not counted', () => {
  assert.equal(stopGuardKey('Stop', {}), 'main');
  assert.equal(stopGuardKey('SubagentStop', { agent_id: 'a1' }), 'agent:a1');
  assert.equal(stopGuardKey('PreToolUse', {}), undefined);
});
