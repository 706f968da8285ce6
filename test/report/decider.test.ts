// One rule for the hook whose answer is the block, read by the Claude form (report/claude.ts) and by the http
// answer of serve and the MCP server (serve/http-answer.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventName } from '../../src/events.ts';
import { decidingHook } from '../../src/report/claude.ts';
import type { FireReport } from '../../src/report/types.ts';

const report = (event: EventName, deciders: string[]) =>
  ({ event, deciders, hooks: ['a', 'b', 'c'].map((id) => ({ id, label: id })) }) as unknown as FireReport;

const ROWS: ReadonlyArray<[event: EventName, deciders: string[], hook: string | undefined, alone?: boolean]> = [
  ['PreToolUse', ['a'], 'a', true],
  // A permission question shows one deny: the last in configuration order, whatever else denied.
  ['PreToolUse', ['a', 'c'], 'c', true],
  ['PreModelSwitch', ['a', 'b'], 'b', true],
  // Elsewhere the first, alone only when no other hook blocked.
  ['Stop', ['b'], 'b', true],
  ['Stop', ['b', 'c'], 'b', false],
  ['UserPromptSubmit', ['a', 'b'], 'a', false],
  ['PreToolUse', [], undefined],
  ['Stop', [], undefined],
];

for (const [event, deciders, hook, alone] of ROWS) {
  test(`${event} decided by [${deciders.join(', ')}]: ${hook ?? 'no hook'}${alone === false ? ', not alone' : ''}`, () => {
    const decided = decidingHook(report(event, deciders));
    assert.deepEqual(decided && { hook: decided.hook.id, alone: decided.alone }, hook && { hook, alone });
  });
}
