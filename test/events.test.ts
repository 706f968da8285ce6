// The catalogue's columns agree with each other: a row that breaks one of these facts is a typo in the data.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENT_NAMES, EVENTS, isStopEvent, isToolEvent } from '../src/events.ts';

const rows = EVENT_NAMES.map((name) => EVENTS[name]);

test('permissionDecisions is set exactly where hookSpecificOutput has permissionDecision', () => {
  for (const def of rows) {
    assert.equal(def.permissionDecisions !== undefined, def.specificFields.includes('permissionDecision'), def.name);
  }
  assert.deepEqual(EVENTS.PreModelSwitch.permissionDecisions, ['allow', 'deny', 'ask']);
});

test('tool-call columns sit on tool events only', () => {
  for (const def of rows.filter((row) => !isToolEvent(row.name))) {
    assert.equal(def.toolResponseField, undefined, def.name);
    assert.equal(def.withoutToolUseId, undefined, def.name);
    assert.equal(def.approveMeansAllow, undefined, def.name);
  }
});

test('stop-like events block by "decision", keep working on a model block and count in their own guard counter', () => {
  const stopLike = rows.filter((row) => isStopEvent(row.name));
  assert.deepEqual(
    stopLike.map((row) => [row.name, row.stopLike!.guardCounter, row.stopLike!.ends]),
    [
      ['Stop', 'main', 'turn'],
      ['SubagentStop', 'perAgent', 'subagent'],
    ],
  );
  for (const def of stopLike) {
    assert.equal(def.family, 'decision', def.name);
    assert.equal(def.modelVerdictOnBlock, 'keepWorking', def.name);
  }
  assert.deepEqual(
    rows.filter((row) => row.modelVerdictOnBlock === 'keepWorking').map((row) => row.name),
    stopLike.map((row) => row.name),
  );
});

test('columns that change how an event blocks sit on events that can block', () => {
  for (const def of rows.filter(
    (row) => row.unblockableSources !== undefined || row.askDeferOrRewriteBlocks || row.brokenEntryVoidsSource,
  )) {
    assert.notEqual(def.family, 'observe', def.name);
  }
});

test('a model verdict column is only set where prompt or agent hooks run', () => {
  for (const def of rows.filter((row) => row.modelVerdictOnBlock !== undefined)) {
    assert.ok(def.hookTypes.includes('prompt') || def.hookTypes.includes('agent'), def.name);
  }
});

test('a shared timeout budget is a sane range whose floor is the event default', () => {
  const shared = rows.filter((row) => row.sharedTimeoutBudget !== undefined);
  assert.deepEqual(
    shared.map((row) => row.name),
    ['SessionEnd'],
  );
  for (const def of shared) {
    assert.ok(def.sharedTimeoutBudget!.minS <= def.sharedTimeoutBudget!.maxS, def.name);
    assert.equal(def.sharedTimeoutBudget!.minS, def.timeoutS, def.name);
  }
});
