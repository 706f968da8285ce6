// The README and docs/ are part of the product: the events table of docs/reference/events.md is generated from the
// catalogue, the README's first lines are the two set-up commands, it stays short, and the bench writes its tables
// into docs/performance.md.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BENCH_DOC, BENCH_MARKERS } from '../scripts/bench/report.ts';
import { EVENTS_DOC, eventsTable, withEventsTable } from '../scripts/events-table.ts';
import { ROOT } from './helpers/cli.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

test('docs/reference/events.md holds the events table generated from src/events.ts', () => {
  const page = readFileSync(EVENTS_DOC, 'utf8');
  assert.ok(page.includes(eventsTable()), 'run `node scripts/events-table.ts --write`');
  assert.equal(withEventsTable(page), page);
});

test('the README is at most 300 lines: the rest is in docs/', () => {
  assert.ok(readme.split('\n').length <= 300, `${readme.split('\n').length} lines`);
});

test('docs/performance.md has the markers of every table the bench writes, the README none', () => {
  const page = readFileSync(join(ROOT, BENCH_DOC), 'utf8');
  for (const marker of Object.values(BENCH_MARKERS)) {
    const [start, end] = [page.indexOf(`<!-- ${marker}:start -->`), page.indexOf(`<!-- ${marker}:end -->`)];
    assert.ok(start >= 0 && end > start, marker);
    assert.ok(!readme.includes(`<!-- ${marker}:`), marker);
  }
});

test('the README starts with the two set-up commands', () => {
  const commands = readme
    .split('\n')
    .slice(0, 8)
    .filter((line) => line.startsWith('npm ci'));
  assert.equal(commands.length, 2);
  assert.match(commands[0]!, /npx peri-hooks fire PreToolUse .*fixtures\//);
  assert.match(commands[1]!, /npm test/);
});
