// The session's part of a firing's decision as row tables: previous count x reduced result -> final decision,
// claims x how the hooks ended -> once entries, stored results x event -> deliveries. Then `settle` on a real
// state folder: the lock is taken only when the session has a say.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { EventName } from '../../src/events.ts';
import type { Reduced } from '../../src/reduce.ts';
import { type OnceSettlement, onceKey } from '../../src/session/once.ts';
import { type AsyncResult, emptyState, type OnceEntry, type SessionState } from '../../src/session/schema.ts';
import { type DecideContext, decide, HOST_CAP, settle } from '../../src/session/settle.ts';
import { openSession, readSession, sessionFile } from '../../src/session/store.ts';
import type { LoadedHook } from '../../src/types.ts';

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
const endTurn: Reduced = { ...block, output: { ...block.output, continue: false } };
const REDUCED = { block, allow, context, endTurn };

const PID = 4242;
const NOW = '2026-01-01T00:00:00.000Z';
const state = (changes: Partial<SessionState> = {}): SessionState => ({ ...emptyState('s'), ...changes });
const ctx = (changes: Partial<DecideContext> = {}): DecideContext => ({
  input: {},
  once: [],
  cap: 8,
  pid: PID,
  now: NOW,
  ...changes,
});

test('Stop guard: previous count x reduced result -> final decision and stored count', () => {
  // Inside a subagent, inputs carry its agent_id.
  const A1 = { agent_id: 'a1' };
  type Row = [
    event: EventName,
    before: Record<string, number>,
    reduced: keyof typeof REDUCED,
    cap: DecideContext['cap'],
    blocked: boolean,
    count: number | undefined,
    overridden: boolean,
    after: Record<string, number>,
    input?: Record<string, unknown>,
  ];
  const rows: Row[] = [
    ['Stop', {}, 'block', 8, true, 1, false, { main: 1 }],
    ['Stop', { main: 7 }, 'block', 8, true, 8, false, { main: 8 }],
    ['Stop', { main: 8 }, 'block', 8, false, 0, true, {}],
    ['Stop', { main: 5 }, 'allow', 8, false, 0, false, {}],
    ['Stop', { main: 3 }, 'context', 8, false, 4, false, { main: 4 }],
    ['Stop', { main: 1 }, 'context', 1, false, 0, true, {}],
    ['Stop', { main: 3 }, 'endTurn', 8, true, 0, false, {}],
    ['Stop', { main: 1000 }, 'block', 0, true, 1001, false, { main: 1001 }],
    ['SubagentStop', { main: 5, 'agent:a1': 2 }, 'block', 8, true, 3, false, { main: 5, 'agent:a1': 3 }, A1],
    ['SubagentStop', { 'agent:a1': 2, 'agent:b2': 1 }, 'allow', 8, false, 0, false, { 'agent:b2': 1 }, A1],
    // Any other firing of the agent (a tool call between two stops) starts its count again.
    ['PreToolUse', { main: 5 }, 'block', 8, true, undefined, false, {}],
    ['UserPromptSubmit', { main: 5, 'agent:a1': 2 }, 'allow', 8, false, undefined, false, { 'agent:a1': 2 }],
    ['PostToolUse', { main: 5, 'agent:a1': 2 }, 'allow', 8, false, undefined, false, { main: 5 }, A1],
    ['PreToolUse', { 'agent:b2': 1 }, 'allow', 8, false, undefined, false, { 'agent:b2': 1 }, A1],
    // A host that caps Stop loops itself: every block passes, nothing is counted or reset.
    ['Stop', { main: 8 }, 'block', HOST_CAP, true, undefined, false, { main: 8 }],
    ['SubagentStop', { 'agent:a1': 100 }, 'context', HOST_CAP, false, undefined, false, { 'agent:a1': 100 }, A1],
    ['PreToolUse', { main: 5 }, 'allow', HOST_CAP, false, undefined, false, { main: 5 }],
  ];
  for (const [event, before, reduced, cap, blocked, count, overridden, afterCounts, input = {}] of rows) {
    const row = JSON.stringify([event, before, reduced, cap, input]);
    const decision = decide(event, REDUCED[reduced], state({ stopBlocks: before }), ctx({ input, cap }));
    assert.equal(decision.reduced.blocked, blocked, row);
    assert.equal(decision.guard?.count, count, row);
    assert.equal(decision.guard?.overridden ?? false, overridden, row);
    assert.deepEqual(decision.state.stopBlocks, afterCounts, row);
  }
});

test('an overridden block says why, keeps the other output and drops the decision', () => {
  const decision = decide(
    'Stop',
    { ...block, output: { ...block.output, systemMessage: 'from the hook' } },
    state({ stopBlocks: { main: 8 } }),
    ctx(),
  );
  assert.deepEqual(decision.reduced, {
    blocked: false,
    deciders: [],
    errors: [],
    output: { systemMessage: `from the hook\n${decision.guard!.message}` },
  });
  assert.match(decision.guard!.message!, /9 consecutive times; CLAUDE_CODE_STOP_HOOK_BLOCK_CAP is 8/);
});

const hook = (command: string): LoadedHook => ({
  id: `project:s.json#/${command}`,
  event: 'Stop',
  handler: { type: 'command', command, once: true },
  provenance: { layer: 'project', file: 's.json', pointer: `/${command}` },
});

test('once: the claim before x how the hook ended -> the entry after', () => {
  const ours: OnceEntry = { status: 'running', pid: PID, label: 'h', at: 'then' };
  type Row = [claim: OnceEntry | undefined, ended: 'success' | 'failure' | 'supervisor', after: OnceEntry | undefined];
  const rows: Row[] = [
    [ours, 'success', { status: 'done', label: 'h', at: NOW }],
    [ours, 'failure', undefined],
    [ours, 'supervisor', { ...ours, pid: 77 }],
    [{ ...ours, pid: 99 }, 'success', { ...ours, pid: 99 }],
    [{ ...ours, pid: 99 }, 'failure', { ...ours, pid: 99 }],
    [{ status: 'done', label: 'h', at: 'then' }, 'failure', { status: 'done', label: 'h', at: 'then' }],
    [undefined, 'success', undefined],
  ];
  const theHook = hook('h');
  const key = onceKey(theHook);
  for (const [claim, ended, expected] of rows) {
    const settlement: OnceSettlement =
      ended === 'supervisor' ? { hook: theHook, supervisorPid: 77 } : { hook: theHook, success: ended === 'success' };
    const before = state({ once: claim ? { [key]: claim } : {} });
    const decision = decide('PreToolUse', allow, before, ctx({ once: [settlement] }));
    assert.deepEqual(decision.state.once[key], expected, JSON.stringify([claim, ended]));
  }
});

const result = (jobId: string, fields: Partial<AsyncResult>): AsyncResult => ({
  jobId,
  hookId: 'h',
  label: 'h',
  event: 'PostToolUse',
  finishedAt: 'then',
  ...fields,
});

test('deliveries: stored results x event -> delivered, kept and the output they join', () => {
  const message = result('m', { systemMessage: 'tests passed' });
  const withContext = result('c', { additionalContext: 'lint: 2 warnings' });
  const rewake = result('r', { rewake: 'Stop hook blocking error from command "x": failed' });
  // Results join in the order they were stored.
  type Row = [
    event: EventName,
    reduced: Reduced,
    delivered: string[],
    kept: string[],
    output: Record<string, unknown> | undefined,
  ];
  const rows: Row[] = [
    [
      'PostToolUse',
      allow,
      ['m', 'c', 'r'],
      [],
      {
        systemMessage: 'tests passed',
        hookSpecificOutput: {
          hookEventName: 'PostToolUse',
          additionalContext: 'lint: 2 warnings\n\nStop hook blocking error from command "x": failed',
        },
      },
    ],
    // SessionEnd cannot carry additionalContext: those results wait for a firing that can.
    ['SessionEnd', allow, ['m'], ['c', 'r'], { systemMessage: 'tests passed' }],
    [
      'Stop',
      { ...allow, output: { systemMessage: 'own' } },
      ['m', 'c', 'r'],
      [],
      {
        systemMessage: 'own\ntests passed',
        hookSpecificOutput: {
          hookEventName: 'Stop',
          additionalContext: 'lint: 2 warnings\n\nStop hook blocking error from command "x": failed',
        },
      },
    ],
  ];
  for (const [event, reduced, delivered, kept, output] of rows) {
    const decision = decide(event, reduced, state({ results: [message, withContext, rewake] }), ctx());
    assert.deepEqual(
      decision.delivered.map((entry) => entry.jobId),
      delivered,
      event,
    );
    assert.deepEqual(
      decision.state.results.map((entry) => entry.jobId),
      kept,
      event,
    );
    assert.deepEqual(decision.reduced.output, output, event);
  }
});

test('decide is pure: the state it is given stays as it was', () => {
  const theHook = hook('h');
  const before = state({
    stopBlocks: { main: 2 },
    once: { [onceKey(theHook)]: { status: 'running', pid: PID, label: 'h', at: 'then' } },
    results: [result('m', { systemMessage: 'hi' })],
  });
  const copy = structuredClone(before);
  decide('Stop', block, before, ctx({ once: [{ hook: theHook, success: true }] }));
  assert.deepEqual(before, copy);
});

const folder = mkdtempSync(path.join(tmpdir(), 'peri-hooks-settle-'));
after(() => rmSync(folder, { recursive: true, force: true }));

test('settle takes the lock and writes only when the session has a say', async () => {
  const options = { env: {}, home: folder, stateDir: folder, deadline: Date.now() + 60_000 };
  const quiet = (await openSession('quiet', options)).session!;
  const settled = await settle(quiet, 'PreToolUse', { session_id: 'quiet' }, allow, [], {});
  assert.deepEqual(settled, { reduced: allow, delivered: [], warnings: [] });
  assert.equal(existsSync(sessionFile(quiet.ref)), false);
  assert.equal(existsSync(`${sessionFile(quiet.ref)}.lock`), false);

  const stop = (await openSession('stop', options)).session!;
  const counted = await settle(stop, 'Stop', { session_id: 'stop' }, block, [], {});
  assert.deepEqual(counted.guard, { count: 1, cap: 8, overridden: false });
  assert.equal(existsSync(sessionFile(stop.ref)), true);

  // A tool call after the block resets the count, written under the lock.
  const toolCall = (await openSession('stop', options)).session!;
  await settle(toolCall, 'PreToolUse', { session_id: 'stop' }, allow, [], {});
  assert.deepEqual((await readSession(toolCall.ref)).state.stopBlocks, {});

  // With the host capping Stop loops, a block is neither counted nor written.
  const hosted = (await openSession('hosted', options)).session!;
  const passed = await settle(hosted, 'Stop', { session_id: 'hosted' }, block, [], {}, false);
  assert.deepEqual(passed, { reduced: block, delivered: [], warnings: [] });
  assert.equal(existsSync(sessionFile(hosted.ref)), false);
});

test('without a session the guard counts as in a new session, and a bad cap is a warning', async () => {
  const settled = await settle(undefined, 'Stop', {}, block, [], { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: 'many' });
  assert.deepEqual(settled.guard, { count: 1, cap: 8, overridden: false });
  assert.match(settled.warnings[0]!, /is not a whole number >= 0; the cap stays 8/);
});
