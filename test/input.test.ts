// Hook input validation: every real Claude Code 2.1.332 payload validates, broken ones are named precisely.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseInput } from '../src/input.ts';
import { EVENT_NAMES, isEventName } from '../src/events.ts';
import { PeriHooksError } from '../src/errors.ts';
import { ROOT } from './helpers/cli.ts';

const dir = join(ROOT, 'fixtures/claude-code-2.1.332/inputs');
const files = readdirSync(dir).filter((file) => file.endsWith('.json'));

test('the fixtures cover 31 of the 34 events', () => {
  const events = new Set(files.map((file) => file.split('.')[0]));
  assert.equal(events.size, 31);
  assert.deepEqual(EVENT_NAMES.filter((event) => !events.has(event)).sort(), ['DirectoryAdded', 'Notification', 'TeammateIdle']);
});

for (const file of files) {
  test(`real payload ${file} validates and passes through untouched`, () => {
    const text = readFileSync(join(dir, file), 'utf8');
    const event = file.split('.')[0]!;
    assert.ok(isEventName(event));
    const parsed = parseInput(event, text);
    assert.equal(JSON.stringify(parsed), JSON.stringify(JSON.parse(text)));
  });
}

function errorOf(fn: () => unknown): PeriHooksError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof PeriHooksError);
    return error;
  }
  assert.fail('expected an error');
}

test('a missing required field is named with its JSON path', () => {
  const input = JSON.parse(readFileSync(join(dir, 'PreToolUse.json'), 'utf8'));
  delete input.tool_use_id;
  const error = errorOf(() => parseInput('PreToolUse', JSON.stringify(input)));
  assert.equal(error.code, 'invalid-input');
  assert.match(error.message, /\$\.tool_use_id/);
  assert.match(error.fix ?? '', /add \$\.tool_use_id/);
});

test('a mistyped field is named with the expected type', () => {
  const input = JSON.parse(readFileSync(join(dir, 'Stop.json'), 'utf8'));
  input.stop_hook_active = 'yes';
  const error = errorOf(() => parseInput('Stop', JSON.stringify(input)));
  assert.match(error.message, /\$\.stop_hook_active/);
  assert.match(error.fix ?? '', /boolean/);
});

test('inputs for the three uncaptured events validate from their documented shape', () => {
  const common = { session_id: 's', transcript_path: '/t.jsonl', cwd: '/p' };
  parseInput('Notification', JSON.stringify({ ...common, hook_event_name: 'Notification', message: 'm', notification_type: 'idle_prompt' }));
  parseInput('TeammateIdle', JSON.stringify({ ...common, hook_event_name: 'TeammateIdle', teammate_name: 't' }));
  parseInput('DirectoryAdded', JSON.stringify({ ...common, hook_event_name: 'DirectoryAdded', directory: '/d', source: 'slash_command' }));
});

test('empty, invalid, non-object and mismatched inputs get their own codes', () => {
  assert.equal(errorOf(() => parseInput('Stop', '  \n')).code, 'empty-input');
  assert.equal(errorOf(() => parseInput('Stop', '{')).code, 'invalid-json');
  assert.equal(errorOf(() => parseInput('Stop', 'null')).code, 'invalid-input');
  assert.equal(errorOf(() => parseInput('Stop', '{"hook_event_name":"PreToolUse"}')).code, 'event-mismatch');
});
