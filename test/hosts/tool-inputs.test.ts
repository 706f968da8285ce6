// Gemini CLI's and opencode's tool calls as the Claude Code tool and tool_input a policy expects, in process: the
// real agents' argument names (Gemini CLI 0.61's tool declarations, opencode 1.18's tools) → Claude Code's.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { claudeInput, type Payload } from '../../src/hosts/normalise.ts';
import { MODULES } from '../../src/hosts/registry.ts';
import { HOSTS } from '../../src/hosts/table.ts';
import type { HostName } from '../../src/hosts/types.ts';

const CWD = '/work/project';

/** The Claude Code tool and tool_input of one PreToolUse call. */
function claudeCall(hostName: HostName, hostEvent: string, payload: Payload): [unknown, unknown] {
  const host = HOSTS[hostName];
  const def = host.events[hostEvent]!;
  const module = MODULES[hostName];
  const [input] = module.calls
    ? module.calls({ host, hostEvent, def, payload }).map((call) => call.input)
    : [claudeInput(host, hostEvent, def, payload)];
  return [input!.tool_name, input!.tool_input];
}

const gemini = (tool_name: string, tool_input: Payload): Payload => ({
  hook_event_name: 'BeforeTool',
  session_id: 's',
  cwd: CWD,
  tool_name,
  tool_input,
});
const opencode = (tool: string, args: Payload): Payload => ({
  hook_event_name: 'tool.execute.before',
  sessionID: 's',
  callID: 'c',
  directory: CWD,
  tool,
  args,
});

describe('tool calls as Claude Code tool inputs', () => {
  // [agent, event, payload, Claude Code tool, Claude Code tool_input]
  const rows: Array<[HostName, string, Payload, string, Payload]> = [
    [
      'gemini',
      'BeforeTool',
      gemini('grep_search', { pattern: 'TODO', dir_path: 'src', include_pattern: '*.ts' }),
      'Grep',
      { pattern: 'TODO', path: `${CWD}/src`, glob: '*.ts' },
    ],
    [
      'gemini',
      'BeforeTool',
      gemini('glob', { pattern: '**/*.md', dir_path: 'docs' }),
      'Glob',
      { pattern: '**/*.md', path: `${CWD}/docs` },
    ],
    [
      'gemini',
      'BeforeTool',
      gemini('run_shell_command', { command: 'npm run dev', is_background: true }),
      'Bash',
      { command: 'npm run dev', run_in_background: true },
    ],
    [
      'gemini',
      'BeforeTool',
      gemini('write_file', { file_path: '.env', content: 'A=1\n' }),
      'Write',
      { file_path: `${CWD}/.env`, content: 'A=1\n' },
    ],
    [
      'gemini',
      'BeforeTool',
      gemini('replace', { file_path: 'a.ts', old_string: 'x', new_string: 'y', allow_multiple: true }),
      'Edit',
      { file_path: `${CWD}/a.ts`, old_string: 'x', new_string: 'y', replace_all: true },
    ],
    [
      'opencode',
      'tool.execute.before',
      opencode('grep', { pattern: 'TODO', path: 'src', include: '*.ts' }),
      'Grep',
      { pattern: 'TODO', path: `${CWD}/src`, glob: '*.ts' },
    ],
    [
      'opencode',
      'tool.execute.before',
      opencode('read', { filePath: 'a.ts', offset: 10, limit: 5 }),
      'Read',
      { file_path: `${CWD}/a.ts`, offset: 10, limit: 5 },
    ],
  ];
  for (const [host, event, payload, tool, input] of rows) {
    test(`${host} ${JSON.stringify(payload.tool_name ?? payload.tool)} ${JSON.stringify(payload.tool_input ?? payload.args)}`, () => {
      assert.deepEqual(claudeCall(host, event, payload), [tool, input]);
    });
  }
});
