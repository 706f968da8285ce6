// The README is part of the product: its events table is generated from the catalogue, and its first
// lines are the two set-up commands.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { eventsTable } from '../scripts/events-table.ts';
import { ROOT } from './helpers/cli.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

test('the README holds the events table generated from src/events.ts', () => {
  assert.ok(
    readme.includes(eventsTable()),
    'run `node scripts/events-table.ts` and paste its output into the Events section',
  );
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
