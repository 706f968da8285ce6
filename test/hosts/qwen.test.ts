// Qwen Code: the payloads the real Qwen Code 0.24.4 sent (fixtures/hosts/qwen) through a policy of real command
// hooks; what the real agent then does with each answer is test/hosts/real/qwen.real.ts.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { claudeResponse } from '../../src/hosts/qwen.ts';
import { json, preToolUse, useBench } from './harness.ts';

const bench = useBench();

describe('qwen', () => {
  test('UserPromptSubmit fires for what the user submitted, with its host-only fields; a continuation after tool results fires nothing', async () => {
    bench().policy({
      UserPromptSubmit: [
        { hooks: [bench().hook('prompt', { stdout: { decision: 'block', reason: 'no prompts today' } })] },
      ],
    });
    const submitted = await bench().fire('qwen', undefined, bench().payload('qwen', 'UserPromptSubmit'));
    assert.equal(submitted.code, 2);
    assert.equal(submitted.stderr, 'no prompts today\n');
    const [seen] = bench().seen('prompt');
    assert.equal(seen!.prompt, 'Do the task.');
    assert.deepEqual(seen!.peri_hooks_host, {
      name: 'qwen',
      event: 'UserPromptSubmit',
      fields: {
        permission_mode: 'yolo',
        prompt_id: '22a7b3d4-8160-4fa1-ab73-96cca07a80d6########0',
        submitted_prompt: 'Do the task.',
      },
    });
    const continuation = await bench().fire(
      'qwen',
      undefined,
      bench().payload('qwen', 'UserPromptSubmit.continuation'),
    );
    assert.deepEqual([continuation.code, continuation.stdout, continuation.stderr], [0, '', '']);
    assert.equal(bench().seen('prompt').length, 1);
    // Text without submitted_prompt (a Stop block's continuation, a channel's prompt) is still guarded.
    const unmarked = await bench().fire(
      'qwen',
      undefined,
      bench().payload('qwen', 'UserPromptSubmit.continuation', { prompt: 'write the tests' }),
    );
    assert.equal(unmarked.code, 2);
    const [, second] = bench().seen('prompt');
    assert.equal(second!.prompt, 'write the tests');
    assert.equal((second!.peri_hooks_host as { fields: Record<string, unknown> }).fields.submitted_prompt, undefined);
  });

  test("read_file's offset (0-based) reaches the policy as Read's (1-based): offset 1 is line 2", async () => {
    bench().policy({ PreToolUse: [{ matcher: 'Read', hooks: [bench().hook('read', { exit: 0 })] }] });
    const result = await bench().fire('qwen', 'PreToolUse', bench().payload('qwen', 'PreToolUse.read_file'));
    assert.equal(result.code, 0, result.stderr);
    const [seen] = bench().seen('read');
    const file = `${bench().project.dir}/lines.txt`;
    assert.deepEqual(seen!.tool_input, { file_path: file, offset: 2, limit: 2 });
    assert.deepEqual((seen!.peri_hooks_host as { tool_input: unknown }).tool_input, {
      file_path: file,
      offset: 1,
      limit: 2,
    });
  });

  test('a rewrite, which Qwen Code does not apply, refuses the call with the reason; only that reason is on stderr', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            bench().hook(
              'rewrite',
              preToolUse({
                permissionDecision: 'allow',
                updatedInput: { command: 'echo safe' },
                additionalContext: 'ran through the policy',
              }),
            ),
          ],
        },
      ],
    });
    const result = await bench().fire('qwen', 'PreToolUse', bench().payload('qwen', 'PreToolUse.run_shell_command'));
    assert.equal(result.code, 2);
    const reason =
      'the policy rewrites this call, which Qwen Code cannot apply; it is refused rather than run unchanged';
    assert.equal(result.stderr, `${reason}\n`);
    assert.deepEqual(json(result), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
    });
    const [seen] = bench().seen('rewrite');
    assert.equal(seen!.tool_name, 'Bash');
    assert.equal(seen!.tool_use_id, 'toolu_1796286075470_bowbnt7yx');
    assert.deepEqual((seen!.peri_hooks_host as { fields: unknown }).fields, {
      prompt_id: '22a7b3d4-8160-4fa1-ab73-96cca07a80d6########0',
      tool_call_id: 'call_1',
      permission_mode: 'yolo',
    });
    assert.equal(seen!.permission_mode, 'bypassPermissions');
  });

  test('context before a tool is unsupported (said on stderr, exit 0); an allow stays an allow', async () => {
    bench().policy({
      PreToolUse: [
        {
          hooks: [
            bench().hook('context', preToolUse({ permissionDecision: 'allow', additionalContext: 'mind the tests' })),
          ],
        },
      ],
    });
    const result = await bench().fire('qwen', 'PreToolUse', bench().payload('qwen', 'PreToolUse.write_file'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
    });
    assert.match(result.stderr, /unsupported on Qwen Code PreToolUse: adding model context/);
  });

  test("PostToolUse: tool_response in Claude Code's shape for Bash and Write; a block is continue: false on exit 0, its context after the reason", async () => {
    bench().policy({
      PostToolUse: [
        {
          hooks: [
            bench().hook('post', {
              stdout: {
                decision: 'block',
                reason: 'look again',
                hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'checked' },
              },
            }),
          ],
        },
      ],
    });
    const shell = await bench().fire('qwen', 'PostToolUse', bench().payload('qwen', 'PostToolUse.run_shell_command'));
    assert.equal(shell.code, 0);
    assert.deepEqual(json(shell), { continue: false, stopReason: 'look again\n\nchecked' });
    const write = await bench().fire('qwen', 'PostToolUse', bench().payload('qwen', 'PostToolUse.write_file'));
    assert.equal(write.code, 0);
    const [bash, file] = bench().seen('post');
    assert.deepEqual(bash!.tool_response, { stdout: 'captured', stderr: '', interrupted: false, isImage: false });
    assert.deepEqual(file!.tool_response, {
      type: 'create',
      filePath: `${bench().project.dir}/captured.txt`,
      content: 'captured\n',
      structuredPatch: [],
      originalFile: null,
    });
    assert.equal(file!.tool_name, 'Write');
  });

  test("continue: false refuses the call before a tool (Qwen goes on after it), its reason alone on stderr; after a tool it is Qwen's own", async () => {
    bench().policy({
      PreToolUse: [{ hooks: [bench().hook('halt', { stdout: { continue: false, stopReason: 'halt' } })] }],
      PostToolUse: [
        {
          hooks: [bench().hook('halt-after', { stdout: { context: 'x', continue: false, stopReason: 'halt after' } })],
        },
      ],
    });
    const before = await bench().fire('qwen', 'PreToolUse', bench().payload('qwen', 'PreToolUse.run_shell_command'));
    assert.equal(before.code, 2);
    assert.deepEqual(json(before), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'halt' },
    });
    assert.equal(before.stderr, 'halt\n');
    const after = await bench().fire('qwen', 'PostToolUse', bench().payload('qwen', 'PostToolUse.run_shell_command'));
    assert.deepEqual([after.code, json(after)], [0, { continue: false, stopReason: 'halt after' }]);
  });

  test('--fail-closed: the block reason names no hook command line, and stderr is that reason alone', async () => {
    const crash = bench().hook('crash', { stderr: 'secret-token-in-args', exit: 1 });
    bench().policy({ PreToolUse: [{ hooks: [`${crash} --token hunter2`] }] });
    const result = await bench().fire('qwen', 'PreToolUse', bench().payload('qwen', 'PreToolUse.run_shell_command'), [
      '--fail-closed',
    ]);
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'a policy hook failed (blocking because of --fail-closed)\n');
    assert.doesNotMatch(result.stdout, /hunter2|crash/);
  });
});

describe("qwen tool_response → Claude Code's shape", () => {
  const rows: Array<[string, string, Record<string, unknown>, unknown, unknown]> = [
    [
      'Bash: Output and Error sections, "(empty)" and "(none)" are nothing',
      'Bash',
      { command: 'ls' },
      {
        llmContent:
          'Command: ls\nDirectory: (root)\nOutput: a\nb\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)',
        returnDisplay: 'a\nb',
      },
      { stdout: 'a\nb', stderr: '', interrupted: false, isImage: false },
    ],
    [
      'Bash: stderr, and an Error: line inside the output stays output',
      'Bash',
      { command: 'x' },
      {
        llmContent:
          'Command: x\nDirectory: (root)\nOutput: see\nError: inside\nError: boom\nExit Code: 1\nSignal: (none)',
        returnDisplay: '',
      },
      { stdout: 'see\nError: inside', stderr: 'boom', interrupted: false, isImage: false },
    ],
    [
      'Bash: text of another form is stdout as shown',
      'Bash',
      { command: 'x' },
      { llmContent: 'Command was cancelled', returnDisplay: 'cancelled' },
      { stdout: 'cancelled', stderr: '', interrupted: false, isImage: false },
    ],
    [
      "Edit: the input's strings and the display's original",
      'Edit',
      { file_path: '/p/a.ts', old_string: 'a', new_string: 'b' },
      {
        llmContent: 'The file: /p/a.ts has been updated.',
        returnDisplay: {
          fileDiff: '…',
          fileName: 'a.ts',
          filePath: '/p/a.ts',
          originalContent: 'a\n',
          newContent: 'b\n',
        },
      },
      {
        filePath: '/p/a.ts',
        oldString: 'a',
        newString: 'b',
        originalFile: 'a\n',
        structuredPatch: [],
        userModified: false,
        replaceAll: false,
      },
    ],
    [
      'Write over a file: an update with its original',
      'Write',
      { file_path: '/p/a.ts', content: 'b\n' },
      {
        llmContent: 'Successfully overwrote file: /p/a.ts.',
        returnDisplay: { filePath: '/p/a.ts', originalContent: 'a\n', newContent: 'b\n' },
      },
      { type: 'update', filePath: '/p/a.ts', content: 'b\n', structuredPatch: [], originalFile: 'a\n' },
    ],
    [
      "Read: the model's text as the file",
      'Read',
      { file_path: '/p/a.ts' },
      { llmContent: 'one\ntwo', returnDisplay: '' },
      { type: 'text', file: { filePath: '/p/a.ts', content: 'one\ntwo', numLines: 2, startLine: 1, totalLines: 2 } },
    ],
    [
      "Read of a part: Qwen's header gives the file's length, the call's offset (Read's) the first line",
      'Read',
      { file_path: '/p/a.ts', offset: 2, limit: 2 },
      { llmContent: 'Showing lines 2-3 of 6 total lines.\n\n---\n\ntwo\nthree', returnDisplay: '' },
      { type: 'text', file: { filePath: '/p/a.ts', content: 'two\nthree', numLines: 2, startLine: 2, totalLines: 6 } },
    ],
    [
      'Read of a part of a file Qwen did not count to the end: the length it counted',
      'Read',
      { file_path: '/p/a.ts', offset: 2, limit: 2 },
      { llmContent: 'Showing lines 2-3 of at least 6 total lines.\n\n---\n\ntwo\nthree', returnDisplay: '' },
      { type: 'text', file: { filePath: '/p/a.ts', content: 'two\nthree', numLines: 2, startLine: 2, totalLines: 6 } },
    ],
    [
      "another tool keeps Qwen's object",
      'Grep',
      { pattern: 'x' },
      { llmContent: 'Found 1 match', returnDisplay: 'Found 1 match' },
      { llmContent: 'Found 1 match', returnDisplay: 'Found 1 match' },
    ],
  ];
  for (const [name, tool, input, response, expected] of rows)
    test(name, () => assert.deepEqual(claudeResponse(tool, input, response), expected));
});
