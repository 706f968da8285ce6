// Host payloads whose tool call names its target twice or not at all: the field the agent acts on decides (a
// Claude Code name beside it with another value is refused), and a call without the field its tool acts on is
// refused naming the agent, the event and the field — exit 1, or a block in the agent's form under --fail-closed.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PeriHooksError } from '../../src/errors.ts';
import { claudeInput, type Payload } from '../../src/hosts/normalise.ts';
import { MODULES } from '../../src/hosts/registry.ts';
import { HOSTS } from '../../src/hosts/table.ts';
import type { HostName } from '../../src/hosts/types.ts';
import { type HostBench, hostBench, json } from './harness.ts';

/** The Claude Code calls of a payload, as `fire --host` builds them. */
function calls(hostName: HostName, hostEvent: string, payload: Payload): Array<Record<string, unknown>> {
  const host = HOSTS[hostName];
  const def = host.events[hostEvent]!;
  const module = MODULES[hostName];
  return module.calls
    ? module.calls({ host, hostEvent, def, payload }).map((call) => call.input)
    : [claudeInput(host, hostEvent, def, payload)];
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof PeriHooksError, String(error));
    assert.equal(error.code, 'invalid-input');
    return error.message;
  }
  assert.fail('the payload was accepted');
}

const CWD = '/work/project';
const base = { session_id: 's', cwd: CWD };

describe("both the agent's field and Claude Code's", () => {
  // [agent, event, payload, the agent's field and value]
  const rows: Array<[HostName, string, Payload, string]> = [
    [
      'kiro',
      'preToolUse',
      {
        ...base,
        hook_event_name: 'preToolUse',
        tool_name: 'fs_write',
        tool_input: { command: 'create', path: '.env', file_path: 'notes.txt', file_text: 'x' },
      },
      'path (".env")',
    ],
    [
      'copilot',
      'preToolUse',
      {
        sessionId: 's',
        cwd: CWD,
        toolName: 'create',
        toolArgs: { path: '.env', file_path: 'notes.txt', file_text: 'x' },
      },
      'path (".env")',
    ],
    [
      'copilot',
      'preToolUse',
      {
        sessionId: 's',
        cwd: CWD,
        toolName: 'edit',
        toolArgs: { path: '.env', file_path: 'notes.txt', old_str: 'a', new_str: 'b' },
      },
      'path (".env")',
    ],
    [
      'cline',
      'PreToolUse',
      {
        clineVersion: '3.36.0',
        hookName: 'PreToolUse',
        workspaceRoots: [CWD],
        preToolUse: { toolName: 'write_to_file', parameters: { path: '.env', file_path: 'notes.txt', content: 'x' } },
      },
      'path (".env")',
    ],
    [
      'vscode',
      'PreToolUse',
      {
        ...base,
        hookEventName: 'PreToolUse',
        tool_name: 'create_file',
        tool_input: { filePath: '.env', file_path: 'notes.txt', content: 'x' },
      },
      'filePath (".env")',
    ],
    [
      'opencode',
      'tool.execute.before',
      {
        hook_event_name: 'tool.execute.before',
        tool: 'write',
        sessionID: 's',
        args: { filePath: '.env', file_path: 'notes.txt', content: 'x' },
        directory: CWD,
      },
      'filePath (".env")',
    ],
    [
      'amp',
      'tool.call',
      {
        hook_event_name: 'tool.call',
        tool: 'create_file',
        input: { path: '.env', file_path: 'notes.txt', content: 'x' },
        directory: CWD,
      },
      'path (".env")',
    ],
    [
      'amp',
      'tool.call',
      { hook_event_name: 'tool.call', tool: 'Bash', input: { cmd: 'git push --force', command: 'ls' }, directory: CWD },
      'cmd ("git push --force")',
    ],
    [
      'antigravity',
      'PreToolUse',
      {
        ...base,
        hook_event_name: 'PreToolUse',
        tool_name: 'run_command',
        tool_input: { CommandLine: 'rm -rf /', command: 'ls' },
      },
      'CommandLine ("rm -rf /")',
    ],
    [
      'antigravity',
      'PreToolUse',
      {
        ...base,
        hook_event_name: 'PreToolUse',
        tool_name: 'write_to_file',
        tool_input: { TargetFile: '.env', file_path: 'notes.txt', CodeContent: 'x' },
      },
      'TargetFile (".env")',
    ],
  ];
  for (const [host, event, payload, field] of rows) {
    test(`${host} ${event}: refused when they differ, the agent's field judged when they agree`, () => {
      const message = refusal(() => calls(host, event, payload));
      const quoted = (text: string) => text.replace(/[.()]/g, '\\$&');
      const title = quoted(HOSTS[host].title);
      assert.match(
        message,
        new RegExp(
          `^the ${title} ${quoted(event)} payload gives \\S+ both ${quoted(field)}, which ${title} acts on, and (file_path|command) \\(`,
        ),
      );
      // The same value under both names is one call, judged on the agent's value.
      const [agentName, agentValue] = /^(\S+) \((.+)\)$/.exec(field)!.slice(1) as [string, string];
      const claudeName = /and (file_path|command) \(/.exec(message)![1]!;
      const agreeing = JSON.parse(JSON.stringify(payload).replace(/"(notes\.txt|ls)"/, agentValue)) as Payload;
      const [input] = calls(host, event, agreeing);
      const toolInput = input!.tool_input as Record<string, unknown>;
      const value = JSON.parse(agentValue) as string;
      assert.equal(toolInput[claudeName], claudeName === 'file_path' ? `${CWD}/${value}` : value, agentName);
      assert.equal(agentName in toolInput, false);
    });
  }
});

describe('the field a tool acts on, missing or mistyped', () => {
  // [agent, event, payload, where, problem]
  const rows: Array<[HostName, string, Payload, string, string]> = [
    [
      'windsurf',
      'pre_run_command',
      { agent_action_name: 'pre_run_command', trajectory_id: 't', tool_info: { cwd: CWD } },
      '$.tool_info.command_line',
      'has no command for its Bash call',
    ],
    [
      'windsurf',
      'pre_run_command',
      {
        agent_action_name: 'pre_run_command',
        trajectory_id: 't',
        tool_info: { command_line: ['rm', '-rf', '/'], cwd: CWD },
      },
      '$.tool_info.command_line',
      'has a command that is not a string (["rm","-rf","/"]) for its Bash call',
    ],
    [
      'cursor',
      'beforeShellExecution',
      { hook_event_name: 'beforeShellExecution', cursor_version: '2.0.77', cwd: CWD },
      '$.command',
      'has no command for its Bash call',
    ],
    [
      'cursor',
      'beforeReadFile',
      { hook_event_name: 'beforeReadFile', cursor_version: '2.0.77', cwd: CWD, content: 'x' },
      '$.file_path',
      'has no file_path for its Read call',
    ],
    [
      'gemini',
      'BeforeTool',
      { ...base, hook_event_name: 'BeforeTool', tool_name: 'write_file', tool_input: { content: 'x' } },
      '$.tool_input.file_path',
      'has no file_path for its Write call',
    ],
    [
      'kiro',
      'preToolUse',
      {
        ...base,
        hook_event_name: 'preToolUse',
        tool_name: 'fs_write',
        tool_input: { command: 'create', file_text: 'x' },
      },
      '$.tool_input.path',
      'has no path for its Write call',
    ],
    [
      'codex',
      'PreToolUse',
      { ...base, hook_event_name: 'PreToolUse', turn_id: 't', tool_name: 'Bash', tool_input: {} },
      '$.tool_input.command',
      'has no command for its Bash call',
    ],
    [
      'codex',
      'PreToolUse',
      { ...base, hook_event_name: 'PreToolUse', turn_id: 't', tool_name: 'Bash', tool_input: { command: '' } },
      '$.tool_input.command',
      'has no command for its Bash call',
    ],
  ];
  for (const [host, event, payload, where, problem] of rows) {
    test(`${host} ${event}: ${problem} at ${where}`, () => {
      assert.equal(
        refusal(() => calls(host, event, payload)),
        `the ${HOSTS[host].title} ${event} payload ${problem} at ${where}`,
      );
    });
  }

  test('a tool whose field is there is not refused; a tool with no declared field (an MCP tool) is not either', () => {
    assert.equal(
      calls('codex', 'PreToolUse', {
        ...base,
        hook_event_name: 'PreToolUse',
        turn_id: 't',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
      }).length,
      1,
    );
    assert.equal(
      calls('codex', 'PreToolUse', {
        ...base,
        hook_event_name: 'PreToolUse',
        turn_id: 't',
        tool_name: 'mcp__x__y',
        tool_input: {},
      }).length,
      1,
    );
  });
});

describe('through the CLI', () => {
  let bench: HostBench;
  before(() => {
    bench = hostBench();
    bench.policy({ PreToolUse: [{ hooks: ['true'] }] });
  });
  after(() => bench.cleanup());

  test("exit 1 naming the agent, event and field; under --fail-closed a block in the agent's own form", async () => {
    const payload = JSON.stringify({
      hook_event_name: 'beforeShellExecution',
      cursor_version: '2.0.77',
      cwd: bench.project.dir,
    });
    const open = await bench.fire('cursor', 'beforeShellExecution', payload);
    assert.equal(open.code, 1, open.stderr);
    assert.match(
      open.stderr,
      /^peri-hooks: the Cursor beforeShellExecution payload has no command for its Bash call at \$\.command\n/,
    );
    const closed = await bench.fire('cursor', 'beforeShellExecution', payload, ['--fail-closed']);
    assert.equal(closed.code, 2, closed.stderr);
    assert.equal((json(closed) as { permission: string }).permission, 'deny');
    const windsurf = await bench.fire(
      'windsurf',
      'pre_run_command',
      JSON.stringify({ agent_action_name: 'pre_run_command', trajectory_id: 't', tool_info: { command_line: ['rm'] } }),
      ['--fail-closed'],
    );
    assert.equal(windsurf.code, 2);
    assert.match(
      windsurf.stderr,
      /has a command that is not a string \(\["rm"\]\) for its Bash call at \$\.tool_info\.command_line \(blocking because of --fail-closed\)/,
    );
  });
});
