// `${dot.path}` in an mcp_tool hook's input: the rows of spec §20.4.5, what Claude Code 2.1.332 sent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { substituteInput } from '../../src/runners/mcp-input.ts';

const toolInput = {
  command: 'touch MARKER && echo "ran"',
  timeout: 120000,
  description: 'touch marker',
  run_in_background: false,
};
const input = {
  cwd: '/work',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  permission_mode: 'bypassPermissions',
  tool_input: toolInput,
  stop_hook_active: false,
};

const rows: Array<[unknown, unknown]> = [
  ['${tool_input.command}', 'touch MARKER && echo "ran"'],
  ['${cwd}', '/work'],
  ['x=${tool_input.description}!', 'x=touch marker!'],
  ['${hook_event_name}|${tool_name}', 'PreToolUse|Bash'],
  ['${tool_input.nope}', ''],
  ['${nope}', ''],
  ['${tool_response}', ''],
  ['${tool_input.command.length}', ''],
  ['${tool_input.timeout}', '120000'],
  ['${tool_input.run_in_background}', 'false'],
  ['${stop_hook_active}', 'false'],
  ['${tool_input}', JSON.stringify(toolInput)],
  [
    { a: '${tool_name}', arr: ['${tool_input.timeout}', 1, true, null, { b: '${permission_mode}' }] },
    { a: 'Bash', arr: ['120000', 1, true, null, { b: 'bypassPermissions' }] },
  ],
  [5, 5],
  [false, false],
  [null, null],
  ['${ tool_name }', '${ tool_name }'],
  ['$tool_name', '$tool_name'],
  ['${}', '${}'],
  ['\\${tool_name}', '\\Bash'],
  [{ '${tool_name}': 'k' }, { '${tool_name}': 'k' }],
];

for (const [value, expected] of rows) {
  test(`${JSON.stringify(value)} -> ${JSON.stringify(expected)}`, () => {
    assert.deepEqual(substituteInput(value, input), expected);
  });
}
