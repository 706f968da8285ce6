// Hook input validation: every real Claude Code 2.1.332 payload validates, broken ones are named precisely.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PeriHooksError } from '../../src/errors.ts';
import { EVENT_NAMES, EVENTS, type EventName, isEventName, isToolEvent } from '../../src/events.ts';
import { buildInput } from '../../src/input/build.ts';
import { parseInput } from '../../src/input/parse.ts';
import { ROOT } from '../helpers/cli.ts';

const dir = join(ROOT, 'fixtures/claude-code-2.1.332/inputs');
const files = readdirSync(dir).filter((file) => file.endsWith('.json'));

test('the fixtures cover 31 of the 34 events', () => {
  const events = new Set(files.map((file) => file.split('.')[0]));
  assert.equal(events.size, 31);
  assert.deepEqual(EVENT_NAMES.filter((event) => !events.has(event)).sort(), [
    'DirectoryAdded',
    'Notification',
    'TeammateIdle',
  ]);
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
  const rows: Array<[event: EventName, fields: Record<string, unknown>]> = [
    ['Notification', { message: 'm', notification_type: 'idle_prompt' }],
    ['TeammateIdle', { teammate_name: 't' }],
    ['DirectoryAdded', { directory: '/d', source: 'slash_command' }],
  ];
  for (const [event, fields] of rows) {
    const input = parseInput(event, JSON.stringify({ ...common, hook_event_name: event, ...fields }));
    // Parsed, and kept: the event's own fields reach the hooks as given.
    assert.deepEqual(
      Object.fromEntries(Object.keys(fields).map((key) => [key, (input as Record<string, unknown>)[key]])),
      fields,
      event,
    );
    assert.equal(input.hook_event_name, event);
  }
});

test('empty, invalid, non-object and mismatched inputs get their own codes', () => {
  assert.equal(errorOf(() => parseInput('Stop', '  \n')).code, 'empty-input');
  assert.equal(errorOf(() => parseInput('Stop', '{')).code, 'invalid-json');
  assert.equal(errorOf(() => parseInput('Stop', 'null')).code, 'invalid-input');
  assert.equal(errorOf(() => parseInput('Stop', '{"hook_event_name":"PreToolUse"}')).code, 'event-mismatch');
});

/** Events whose captured payloads have no permission_mode although the catalogue (after spec §3) says they carry one. */
const PERMISSION_MODE_DISAGREES = ['Elicitation', 'ElicitationResult', 'TaskCompleted', 'TaskCreated'];

for (const file of files) {
  test(`a synthetic input shaped after ${file} has its permission_mode, tool_use_id, mcp_server and tool result fields`, () => {
    const real = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    const event = file.split('.')[0] as EventName;
    const built = buildInput({
      event,
      sessionId: String(real.session_id),
      transcriptPath: String(real.transcript_path),
      cwd: String(real.cwd),
      permissionMode: 'default',
      ...(isToolEvent(event)
        ? {
            tool: { name: String(real.tool_name), input: real.tool_input as Record<string, unknown>, useId: 'toolu_x' },
          }
        : {}),
    });
    // `error` is the tool's error text on tool events only (StopFailure has its own).
    const fields = [
      'tool_name',
      'tool_input',
      'tool_use_id',
      'mcp_server',
      'tool_response',
      ...(isToolEvent(event) ? ['error'] : []),
    ];
    for (const field of fields) assert.equal(field in built, field in real, field);
    assert.equal(
      'permission_mode' in built,
      'permission_mode' in real !== PERMISSION_MODE_DISAGREES.includes(event),
      'permission_mode',
    );
    for (const field of Object.keys(EVENTS[event].requiredFields ?? {})) assert.ok(field in real, field);
  });
}

test("a synthetic input: the seed's own fields, the event's fixed fields, and the tool result in the event's field", () => {
  const seed = { sessionId: 's', transcriptPath: '/t.jsonl', cwd: '/p', permissionMode: 'plan', agentId: 'a1' };
  const tool = { name: 'mcp__demo__echo', input: { text: 'hi' }, useId: 'toolu_1' };
  assert.deepEqual(buildInput({ ...seed, event: 'PostToolUse', tool, toolResponse: { ok: true } }), {
    session_id: 's',
    transcript_path: '/t.jsonl',
    cwd: '/p',
    permission_mode: 'plan',
    agent_id: 'a1',
    hook_event_name: 'PostToolUse',
    tool_name: 'mcp__demo__echo',
    tool_input: { text: 'hi' },
    tool_use_id: 'toolu_1',
    mcp_server: { name: 'demo' },
    tool_response: { ok: true },
  });
  assert.deepEqual(buildInput({ ...seed, event: 'PostToolUse', tool }).tool_response, {});
  assert.equal(buildInput({ ...seed, event: 'PostToolUseFailure', tool, toolResponse: 'boom' }).error, 'boom');
  assert.equal(
    buildInput({ ...seed, event: 'PostToolUseFailure', tool, toolResponse: { not: 'text' } }).error,
    'Error',
  );
  assert.equal('tool_use_id' in buildInput({ ...seed, event: 'PermissionRequest', tool }), false);
  assert.equal('tool_name' in buildInput({ ...seed, event: 'Stop', tool }), false);
  assert.deepEqual(buildInput({ ...seed, event: 'Stop' }), {
    session_id: 's',
    transcript_path: '/t.jsonl',
    cwd: '/p',
    permission_mode: 'plan',
    agent_id: 'a1',
    hook_event_name: 'Stop',
    stop_hook_active: false,
  });
  assert.equal('permission_mode' in buildInput({ ...seed, event: 'SessionStart' }), false);
  const skill = buildInput({
    ...seed,
    event: 'PreSkillShellCommand',
    tool: { name: 'Bash', input: { command: 'ls' }, useId: 'toolu_2' },
  });
  assert.doesNotThrow(() => parseInput('PreSkillShellCommand', JSON.stringify(skill)));
});
