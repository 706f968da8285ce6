import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventName } from '../../src/events.ts';
import { verdictOutcome } from '../../src/runners/raw-outcome.ts';

const style = (continueOnBlock: boolean) => ({ continueOnBlock, message: (reason: string) => `[p]: ${reason}` });
const endsTurn = (event: EventName, continueOnBlock: boolean): boolean | undefined => {
  const outcome = verdictOutcome(event, { ok: false, reason: 'r' }, style(continueOnBlock));
  if (outcome.exitCode !== 2) return undefined;
  return outcome.stdout !== '';
};

test('ok:false per event: exit code and continue:false', () => {
  const table: Array<[EventName, boolean | undefined, boolean | undefined]> = [
    // event, ends the turn by default, with continueOnBlock (undefined: no block at all)
    ['PreToolUse', true, false],
    ['PostToolUse', true, false],
    ['TeammateIdle', true, false],
    ['TaskCompleted', true, false],
    ['UserPromptSubmit', true, true],
    ['UserPromptExpansion', true, true],
    ['PostToolBatch', true, true],
    ['PostToolUseFailure', false, false],
    ['TaskCreated', false, false],
    ['Stop', false, false],
    ['SubagentStop', false, false],
    ['PermissionRequest', undefined, undefined],
    ['PermissionDenied', undefined, undefined],
  ];
  for (const [event, byDefault, withContinue] of table) {
    assert.deepEqual([event, endsTurn(event, false), endsTurn(event, true)], [event, byDefault, withContinue]);
  }
});

test('the block message, stopReason, and an empty reason', () => {
  assert.deepEqual(verdictOutcome('PreToolUse', { ok: false, reason: ' why ' }, style(false)), {
    exitCode: 2,
    stdout: '{"continue":false,"stopReason":"why"}',
    stderr: '[p]: why',
    timedOut: false,
  });
  assert.equal(verdictOutcome('Stop', { ok: false }, style(false)).stderr, '[p]: (no reason given)');
  assert.equal(verdictOutcome('Stop', { ok: false, impossible: true }, style(false)).exitCode, 0);
  assert.equal(verdictOutcome('PreToolUse', { ok: false, impossible: true }, style(false)).exitCode, 2);
});
