// The suite's timing reporter on a stream of events as node:test sends them: each file once, by its own
// duration, slowest first, every file over 5 s and at least ten; the tests inside a file are not files.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestEvent } from 'node:test/reporters';
import durations from './durations.ts';

const cwd = process.cwd();
const fileDone = (name: string, ms: number): TestEvent =>
  ({
    type: 'test:complete',
    data: { name, nesting: 0, file: `${cwd}/${name}`, details: { duration_ms: ms, passed: true } },
  }) as unknown as TestEvent;
const testDone = (name: string, file: string, ms: number): TestEvent =>
  ({
    type: 'test:complete',
    data: { name, nesting: 0, file: `${cwd}/${file}`, details: { duration_ms: ms, passed: true } },
  }) as unknown as TestEvent;

async function report(events: TestEvent[]): Promise<string[]> {
  async function* source() {
    yield* events;
  }
  let text = '';
  for await (const chunk of durations(source())) text += chunk;
  return text.trim().split('\n');
}

test('durations names the files slowest first, every one over 5 s and at least ten, after the suite line', async () => {
  const files = Array.from({ length: 14 }, (_, index) => fileDone(`test/f${index}.test.ts`, 1000 * index));
  const lines = await report([
    ...files,
    // A test inside a file, however long, is not a file.
    testDone('a long test', 'test/f1.test.ts', 60_000),
  ]);
  assert.match(lines[0]!, /^suite: 14 files in \d+\.\d s; slowest files:$/);
  for (const line of lines.slice(1)) assert.match(line, / {2}\(ended at \d+ s\)$/, 'when in the run each file ended');
  assert.deepEqual(
    lines.slice(1).map((line) => line.trim().replace(/ {2}\(ended at \d+ s\)$/, '')),
    [13, 12, 11, 10, 9, 8, 7, 6, 5, 4].map((index) => `${index}.0 s  test/f${index}.test.ts`),
  );
  // Over 5 s: named even past the first ten.
  const many = Array.from({ length: 12 }, (_, index) => fileDone(`test/g${index}.test.ts`, 6000 + index));
  assert.equal((await report(many)).length, 1 + 12);
});

test('a file named by its whole path (as scripts/test.ts gives it to run()) is a file too', async () => {
  const whole = (name: string, ms: number): TestEvent =>
    ({
      type: 'test:complete',
      data: { name: `${cwd}/${name}`, nesting: 0, file: `${cwd}/${name}`, details: { duration_ms: ms, passed: true } },
    }) as unknown as TestEvent;
  const lines = await report([whole('test/a.test.ts', 7000), whole('test/b.test.ts', 1000)]);
  assert.match(lines[0]!, /^suite: 2 files in /);
  assert.match(lines[1]!, /^ {5}7\.0 s {2}test\/a\.test\.ts {2}\(ended at \d+ s\)$/);
});
