// Gemini CLI's, Qwen Code's, Copilot CLI's and opencode's tool calls as the Claude Code tool and tool_input a policy expects, in process: the
// real agents' argument names (Gemini CLI 0.61's tool declarations, opencode 1.18's tools) → Claude Code's.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { claudeInput, hostToolInput, type Payload } from '../../src/hosts/normalise.ts';
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

describe("Gemini CLI's read_file line range as Read's offset and limit", () => {
  const host = HOSTS.gemini;
  const def = host.events.BeforeTool!;
  const call = (toolInput: Payload) => claudeInput(host, 'BeforeTool', def, gemini('read_file', toolInput));
  const file = { file_path: 'a.ts' };

  // [Gemini's arguments (1-based, end_line inclusive), Claude Code's Read (offset: the first line, limit: how many)]
  const rows: Array<[Payload, Payload]> = [
    [
      { start_line: 10, end_line: 14 },
      { offset: 10, limit: 5 },
    ],
    [
      { start_line: 7, end_line: 7 },
      { offset: 7, limit: 1 },
    ],
    [
      { start_line: 1, end_line: 3 },
      { offset: 1, limit: 3 },
    ],
    // Gemini reads from line 1 to end_line, and from start_line to its own default length.
    [{ end_line: 20 }, { limit: 20 }],
    [{ start_line: 30 }, { offset: 30 }],
    // The same range under Claude Code's names beside Gemini's is one read.
    [
      { start_line: 10, end_line: 14, offset: 10, limit: 5 },
      { offset: 10, limit: 5 },
    ],
  ];
  for (const [range, read] of rows) {
    test(`${JSON.stringify(range)} is ${JSON.stringify(read)}, Gemini's arguments kept, and a rewrite goes back`, () => {
      const input = call({ ...file, ...range });
      assert.equal(input.tool_name, 'Read');
      assert.deepEqual(input.tool_input, { file_path: `${CWD}/a.ts`, ...read });
      assert.deepEqual((input.peri_hooks_host as Payload).tool_input, { ...file, ...range });
      const { offset: _offset, limit: _limit, ...geminiRange } = range;
      assert.deepEqual(hostToolInput(host, 'read_file', { file_path: 'a.ts', ...read }), { ...file, ...geminiRange });
    });
  }

  test('a read without a range is the same read, nothing kept', () => {
    const input = call(file);
    assert.deepEqual(input.tool_input, { file_path: `${CWD}/a.ts` });
    assert.equal('tool_input' in (input.peri_hooks_host as Payload), false);
  });

  // A hook's rewrite in Claude Code's terms [updatedInput, what Gemini gets].
  const rewrites: Array<[Payload, Payload]> = [
    [
      { offset: 1, limit: 50 },
      { start_line: 1, end_line: 50 },
    ],
    [
      { offset: 0, limit: 50 },
      { start_line: 1, end_line: 50 },
    ],
    [{ offset: 0 }, { start_line: 1 }],
    [{ limit: 50 }, { end_line: 50 }],
  ];
  for (const [updated, rewritten] of rewrites) {
    test(`a rewrite to ${JSON.stringify(updated)} reaches Gemini as ${JSON.stringify(rewritten)}`, () => {
      assert.deepEqual(hostToolInput(host, 'read_file', { ...file, ...updated }), { ...file, ...rewritten });
    });
  }

  // [Gemini's arguments, the refusal: a range Read cannot say is not guessed at]
  const refusals: Array<[Payload, RegExp]> = [
    [{ start_line: 10, end_line: 4 }, /has end_line 4 before start_line 10 for its read_file call/],
    [{ start_line: 0 }, /has a start_line that is not a line number \(0\) for its read_file call/],
    [{ end_line: '5' }, /has an end_line that is not a line number \("5"\) for its read_file call/],
    [{ start_line: 2.5 }, /has a start_line that is not a line number \(2\.5\) for its read_file call/],
    [
      { start_line: 10, offset: 1 },
      /gives read_file both start_line \(10\), which Gemini CLI acts on, and offset \(1\)/,
    ],
    [{ end_line: 5, limit: 50 }, /gives read_file both end_line \(5\), which Gemini CLI acts on, and limit \(50\)/],
  ];
  for (const [range, refusal] of refusals) {
    test(`${JSON.stringify(range)} is refused, naming the field`, () => {
      assert.throws(
        () => call({ ...file, ...range }),
        (error: Error) => {
          assert.match(error.message, /^the Gemini CLI BeforeTool payload /);
          assert.match(error.message, refusal);
          assert.match(error.message, /at \$\.tool_input/);
          return true;
        },
      );
    });
  }
});

describe("Qwen Code's read_file offset (0-based) as Read's offset (1-based)", () => {
  const host = HOSTS.qwen;
  const def = host.events.PreToolUse!;
  const call = (toolInput: Payload) =>
    claudeInput(host, 'PreToolUse', def, {
      hook_event_name: 'PreToolUse',
      session_id: 's',
      cwd: CWD,
      tool_name: 'read_file',
      tool_input: toolInput,
    });
  const file = { file_path: 'a.ts' };

  // [Qwen's arguments (offset: lines skipped, limit: how many), Claude Code's Read (offset: the first line)]
  const rows: Array<[Payload, Payload]> = [
    [{ offset: 0 }, { offset: 1 }],
    [
      { offset: 1, limit: 2 },
      { offset: 2, limit: 2 },
    ],
    [
      { offset: 99, limit: 1 },
      { offset: 100, limit: 1 },
    ],
    // Qwen reads a null offset or limit as not given (the real Qwen sends the model's null as it came).
    [{ offset: null, limit: 1 }, { limit: 1 }],
    [{ offset: 3, limit: null }, { offset: 4 }],
  ];
  for (const [qwen, read] of rows) {
    test(`${JSON.stringify(qwen)} is ${JSON.stringify(read)}, Qwen's arguments kept, and a rewrite goes back`, () => {
      const input = call({ ...file, ...qwen });
      assert.equal(input.tool_name, 'Read');
      assert.deepEqual(input.tool_input, { file_path: `${CWD}/a.ts`, ...read });
      assert.deepEqual((input.peri_hooks_host as Payload).tool_input, { ...file, ...qwen });
      const given = Object.fromEntries(Object.entries(qwen).filter(([, value]) => value !== null));
      assert.deepEqual(hostToolInput(host, 'read_file', { ...file, ...read }), { ...file, ...given });
    });
  }

  test('a read without an offset is the same read, nothing kept: limit counts lines in both', () => {
    const input = call({ ...file, limit: 20 });
    assert.deepEqual(input.tool_input, { file_path: `${CWD}/a.ts`, limit: 20 });
    assert.equal('tool_input' in (input.peri_hooks_host as Payload), false);
    assert.deepEqual(hostToolInput(host, 'read_file', { ...file, limit: 20 }), { ...file, limit: 20 });
  });

  // Claude Code's offset 0 and 1 are both the first line, Qwen's 0.
  for (const offset of [0, 1]) {
    test(`a rewrite to offset ${offset} reaches Qwen as offset 0`, () => {
      assert.deepEqual(hostToolInput(host, 'read_file', { ...file, offset, limit: 5 }), {
        ...file,
        offset: 0,
        limit: 5,
      });
    });
  }

  for (const [offset, shown] of [
    [-1, '-1'],
    [1.5, '1\\.5'],
    ['3', '"3"'],
  ] as const) {
    test(`offset ${JSON.stringify(offset)} is refused, naming the field`, () => {
      assert.throws(
        () => call({ ...file, offset }),
        new RegExp(
          `the Qwen Code PreToolUse payload .*has an offset that is not a line number \\(${shown}\\) for its read_file call`,
        ),
      );
    });
  }
});

describe("Copilot CLI's view_range as Read's offset and limit", () => {
  const host = HOSTS.copilot;
  const call = (toolArgs: Payload) =>
    claudeCall('copilot', 'preToolUse', { sessionId: 's', timestamp: 1, cwd: CWD, toolName: 'view', toolArgs });
  const file = { path: 'a.ts' };

  // [Copilot's view_range (1-based, the last line included, -1 to the end), Claude Code's Read, what a rewrite to it gives]
  const rows: Array<[unknown[], Payload, unknown[] | undefined]> = [
    [[2, 2], { offset: 2, limit: 1 }, [2, 2]],
    [[10, 14], { offset: 10, limit: 5 }, [10, 14]],
    [[3, -1], { offset: 3 }, [3, -1]],
    [[3], { offset: 3 }, [3, -1]],
    [[], {}, undefined],
  ];
  for (const [range, read, back] of rows) {
    test(`${JSON.stringify(range)} is ${JSON.stringify(read)}, and back ${JSON.stringify(back)}`, () => {
      const [tool, input] = call({ ...file, view_range: range });
      assert.equal(tool, 'Read');
      assert.deepEqual(input, { file_path: `${CWD}/a.ts`, ...read });
      assert.deepEqual(hostToolInput(host, 'view', { file_path: 'a.ts', ...read }), {
        ...file,
        ...(back ? { view_range: back } : {}),
      });
    });
  }

  test("Copilot's own arguments are kept in peri_hooks_host.tool_input", () => {
    const payload = {
      sessionId: 's',
      timestamp: 1,
      cwd: CWD,
      toolName: 'view',
      toolArgs: { ...file, view_range: [2, 3] },
    };
    const [claude] = MODULES.copilot.calls!({ host, hostEvent: 'preToolUse', def: host.events.preToolUse!, payload });
    assert.deepEqual((claude!.input.peri_hooks_host as Payload).tool_input, { ...file, view_range: [2, 3] });
  });

  // A hook's rewrite in Claude Code's terms [updatedInput, Copilot's view_range]: offset 0 is line 1, as in Claude Code.
  const rewrites: Array<[Payload, unknown[]]> = [
    [{ offset: 0, limit: 5 }, [1, 5]],
    [{ limit: 5 }, [1, 5]],
    [{ offset: 4 }, [4, -1]],
  ];
  for (const [updated, range] of rewrites) {
    test(`a rewrite to ${JSON.stringify(updated)} reaches Copilot as view_range ${JSON.stringify(range)}`, () => {
      assert.deepEqual(hostToolInput(host, 'view', { file_path: 'a.ts', ...updated }), { ...file, view_range: range });
    });
  }

  const refusals: Array<[Payload, RegExp]> = [
    [{ view_range: [0, 2] }, /has a view_range that is not a line range \(\[0,2\]\) for its view call/],
    [{ view_range: [3, 2] }, /has a view_range that is not a line range \(\[3,2\]\)/],
    [{ view_range: [1, 2, 3] }, /has a view_range that is not a line range \(\[1,2,3\]\)/],
    [{ view_range: [1.5, 2] }, /has a view_range that is not a line range \(\[1\.5,2\]\)/],
    [{ view_range: '1-2' }, /has a view_range that is not a line range \("1-2"\)/],
    [
      { view_range: [2, 2], offset: 5 },
      /gives view both view_range \(\[2,2\]\), which GitHub Copilot CLI acts on, and offset \(5\)/,
    ],
    [
      { view_range: [2, -1], limit: 5 },
      /gives view both view_range \(\[2,-1\]\), which GitHub Copilot CLI acts on, and limit \(5\)/,
    ],
  ];
  for (const [args, refusal] of refusals) {
    test(`${JSON.stringify(args)} is refused, naming the field`, () => {
      assert.throws(
        () => call({ ...file, ...args }),
        (error: Error) => {
          assert.match(error.message, refusal);
          assert.match(error.message, /at \$\.toolArgs/);
          return true;
        },
      );
    });
  }
});
