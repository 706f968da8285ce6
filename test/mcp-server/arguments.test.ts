// The fire tool's arguments, as Claude Code substitutes an mcp_tool hook's input (spec §20.4 item 5), read back
// into the typed hook input the event's schema describes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PeriHooksError } from '../../src/errors.ts';
import { inputFromArguments, inputTemplate } from '../../src/mcp-server/arguments.ts';

const COMMON = { session_id: 's1', transcript_path: '/t.jsonl', cwd: '/p' };

const rows: Array<[what: string, args: Record<string, unknown>, input: Record<string, unknown>]> = [
  [
    'tool_input arrives as compact JSON text',
    {
      hook_event_name: 'PreToolUse',
      ...COMMON,
      tool_name: 'Bash',
      tool_input: '{"command":"git push -f","timeout":120000}',
      tool_use_id: 'toolu_1',
    },
    {
      hook_event_name: 'PreToolUse',
      ...COMMON,
      tool_name: 'Bash',
      tool_input: { command: 'git push -f', timeout: 120000 },
      tool_use_id: 'toolu_1',
    },
  ],
  [
    'booleans and numbers arrive as text; optional fields absent arrive as ""',
    {
      hook_event_name: 'Stop',
      ...COMMON,
      permission_mode: 'default',
      stop_hook_active: 'true',
      last_assistant_message: '',
      agent_id: '',
    },
    { hook_event_name: 'Stop', ...COMMON, permission_mode: 'default', stop_hook_active: true },
  ],
  [
    'a tool response that is JSON is read as it; plain text stays text; duration_ms is a number',
    {
      hook_event_name: 'PostToolUse',
      ...COMMON,
      tool_name: 'Bash',
      tool_input: '{}',
      tool_use_id: 't',
      tool_response: '{"stdout":"ok"}',
      duration_ms: '12',
    },
    {
      hook_event_name: 'PostToolUse',
      ...COMMON,
      tool_name: 'Bash',
      tool_input: {},
      tool_use_id: 't',
      tool_response: { stdout: 'ok' },
      duration_ms: 12,
    },
  ],
  [
    'a plain-text tool response',
    {
      hook_event_name: 'PostToolUse',
      ...COMMON,
      tool_name: 'mcp__x__y',
      tool_input: '{}',
      tool_use_id: 't',
      tool_response: 'just text',
    },
    {
      hook_event_name: 'PostToolUse',
      ...COMMON,
      tool_name: 'mcp__x__y',
      tool_input: {},
      tool_use_id: 't',
      tool_response: 'just text',
    },
  ],
  [
    "values already typed pass as they are (Codex keeps a whole placeholder's type); unknown fields too",
    {
      hook_event_name: 'PreToolUse',
      ...COMMON,
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 't',
      turn_id: 'x',
    },
    {
      hook_event_name: 'PreToolUse',
      ...COMMON,
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 't',
      turn_id: 'x',
    },
  ],
  [
    'FileChanged keeps its own "event" field',
    { hook_event_name: 'FileChanged', ...COMMON, file_path: '/p/.envrc', event: 'change' },
    { hook_event_name: 'FileChanged', ...COMMON, file_path: '/p/.envrc', event: 'change' },
  ],
];

for (const [what, args, input] of rows) {
  test(`fire tool arguments: ${what}`, () => {
    const parsed = inputFromArguments(args);
    assert.equal(parsed.event, args.hook_event_name);
    assert.deepEqual(parsed.input, input);
  });
}

const errors: Array<[what: string, args: Record<string, unknown> | undefined, message: RegExp]> = [
  ['no arguments', undefined, /name no hook event \(\$\.hook_event_name is null\)/],
  ['an unknown event', { hook_event_name: 'PreToolUze' }, /\$\.hook_event_name is "PreToolUze"/],
  [
    'tool_input that is not JSON',
    { hook_event_name: 'PreToolUse', ...COMMON, tool_name: 'Bash', tool_input: '{command', tool_use_id: 't' },
    /argument \$\.tool_input is not JSON \(PreToolUse\)/,
  ],
  [
    'a boolean that is neither',
    { hook_event_name: 'Stop', ...COMMON, stop_hook_active: 'yes' },
    /argument \$\.stop_hook_active is not true or false/,
  ],
];

for (const [what, args, message] of errors) {
  test(`fire tool arguments: ${what} is an invalid-input error naming the field`, () => {
    assert.throws(
      () => inputFromArguments(args),
      (error: unknown) =>
        error instanceof PeriHooksError && error.code === 'invalid-input' && message.test(error.message),
    );
  });
}

test('the input template names every field of the event, as placeholders', () => {
  const template = inputTemplate('PostToolUse');
  for (const field of [
    'hook_event_name',
    'session_id',
    'cwd',
    'tool_name',
    'tool_input',
    'tool_use_id',
    'tool_response',
    'permission_mode',
  ]) {
    assert.equal(template[field], `\${${field}}`, field);
  }
});
