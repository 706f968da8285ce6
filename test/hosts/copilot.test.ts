// GitHub Copilot CLI: both payload dialects (fixtures/hosts/copilot, partly sent by the real Copilot); a block is
// JSON on exit 0, the only form whose reason Copilot shows the model. test/hosts/real/copilot.real.ts runs the real one.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PeriHooksError } from '../../src/errors.ts';
import { copilot } from '../../src/hosts/copilot.ts';
import { HOSTS } from '../../src/hosts/table.ts';
import { json, preToolUse, useBench } from './harness.ts';

const bench = useBench();

describe('copilot', () => {
  test('preToolUse (camelCase): toolArgs as JSON text; exit 2 from the hook is a JSON deny on exit 0', async () => {
    bench().policy({
      PreToolUse: [{ matcher: 'Bash', hooks: [bench().hook('bash', { stderr: 'no force pushes', exit: 2 })] }],
    });
    const result = await bench().fire('copilot', 'preToolUse', bench().payload('copilot', 'preToolUse.bash'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), { permissionDecision: 'deny', permissionDecisionReason: 'no force pushes' });
    const [seen] = bench().seen('bash');
    assert.equal(seen!.tool_name, 'Bash');
    assert.deepEqual(seen!.tool_input, { command: 'git push --force origin main', description: 'Push the branch' });
    assert.equal(seen!.session_id, '7f3c2b1a-9d8e-4f6a-b5c4-3e2d1f0a9b8c');
    assert.equal(seen!.hook_event_name, 'PreToolUse');
  });

  test("preToolUse: edit is Edit with Claude Code's fields; a rewrite is modifiedArgs in Copilot's", async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Edit',
          hooks: [
            bench().hook(
              'edit',
              preToolUse({
                permissionDecision: 'allow',
                updatedInput: {
                  file_path: `${bench().project.dir}/src/config.ts`,
                  old_string: 'debug: false',
                  new_string: 'debug: false // reviewed',
                },
              }),
            ),
          ],
        },
      ],
    });
    const result = await bench().fire('copilot', 'preToolUse', bench().payload('copilot', 'preToolUse.edit'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), {
      permissionDecision: 'allow',
      modifiedArgs: {
        path: `${bench().project.dir}/src/config.ts`,
        old_str: 'debug: false',
        new_str: 'debug: false // reviewed',
      },
    });
    assert.deepEqual(bench().seen('edit')[0]!.tool_input, {
      file_path: `${bench().project.dir}/src/config.ts`,
      old_string: 'debug: false',
      new_string: 'debug: true',
    });
  });

  test('PreToolUse (PascalCase, snake_case fields): the same policy, the same answer', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            bench().hook('pascal', preToolUse({ permissionDecision: 'ask', permissionDecisionReason: 'really?' })),
          ],
        },
      ],
    });
    const result = await bench().fire('copilot', undefined, bench().payload('copilot', 'PreToolUse'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), { permissionDecision: 'ask', permissionDecisionReason: 'really?' });
    assert.deepEqual(bench().seen('pascal')[0]!.tool_input, { command: 'rm -rf /', description: 'Clean up' });
  });

  test('permissionRequest: behavior deny with its message; continue false adds interrupt', async () => {
    bench().policy({
      PermissionRequest: [
        {
          hooks: [
            bench().hook('perm', {
              stdout: {
                continue: false,
                hookSpecificOutput: {
                  hookEventName: 'PermissionRequest',
                  decision: { behavior: 'deny', message: 'no piping into sh' },
                },
              },
            }),
          ],
        },
      ],
    });
    const result = await bench().fire('copilot', 'permissionRequest', bench().payload('copilot', 'permissionRequest'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), { behavior: 'deny', message: 'no piping into sh', interrupt: true });
  });

  test("postToolUse: the result is Claude Code's tool response, Copilot's kept beside it; nothing goes back", async () => {
    bench().policy({ PostToolUse: [{ hooks: [bench().hook('post')] }] });
    const result = await bench().fire('copilot', 'postToolUse', bench().payload('copilot', 'postToolUse'));
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '');
    const [seen] = bench().seen('post');
    assert.deepEqual(seen!.tool_response, { stdout: '3 passing', stderr: '', interrupted: false, isImage: false });
    assert.deepEqual((seen!.peri_hooks_host as { tool_response: unknown }).tool_response, {
      resultType: 'success',
      textResultForLlm: '3 passing',
    });
  });

  test('grep over several paths: one Grep call per path, each absolute; a rewrite of one of them refuses the call', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Grep',
          hooks: [bench().hook('grep', preToolUse({ permissionDecision: 'allow', updatedInput: { pattern: 'x' } }))],
        },
      ],
    });
    const payload = bench().payload('copilot', 'preToolUse.bash', {
      toolName: 'grep',
      toolArgs: { pattern: 'TOKEN', paths: ['src', '/etc'], output_mode: 'content' },
    });
    const result = await bench().fire('copilot', 'preToolUse', payload);
    assert.deepEqual(
      bench()
        .seen('grep')
        .map((input) => input.tool_input),
      [
        { pattern: 'TOKEN', path: `${bench().project.dir}/src`, output_mode: 'content' },
        { pattern: 'TOKEN', path: '/etc', output_mode: 'content' },
      ],
    );
    assert.equal((json(result) as { permissionDecision: string }).permissionDecision, 'deny');
  });

  test('userPromptSubmitted: a block is decision block with the reason; context is additionalContext', async () => {
    bench().policy({
      UserPromptSubmit: [{ hooks: [bench().hook('prompt', { stderr: 'no prompts about production', exit: 2 })] }],
    });
    const blocked = await bench().fire(
      'copilot',
      'userPromptSubmitted',
      bench().payload('copilot', 'userPromptSubmitted'),
    );
    assert.equal(blocked.code, 0);
    assert.deepEqual(json(blocked), { decision: 'block', reason: 'no prompts about production' });
    assert.doesNotMatch(blocked.stderr, /unsupported/);
    bench().policy({
      UserPromptSubmit: [
        {
          hooks: [
            bench().hook('prompt-context', {
              stdout: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'staging only' } },
            }),
          ],
        },
      ],
    });
    const context = await bench().fire(
      'copilot',
      'userPromptSubmitted',
      bench().payload('copilot', 'userPromptSubmitted'),
    );
    assert.deepEqual(json(context), { additionalContext: 'staging only' });
  });

  test('agentStop: a block is decision block with the reason', async () => {
    bench().policy({
      Stop: [{ hooks: [bench().hook('stop', { stdout: { decision: 'block', reason: 'update the changelog' } })] }],
    });
    const result = await bench().fire('copilot', 'agentStop', bench().payload('copilot', 'agentStop'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), { decision: 'block', reason: 'update the changelog' });
    assert.equal(bench().seen('stop')[0]!.transcript_path, '/home/user/.copilot/session-state/7f3c2b1a/events.jsonl');
  });

  test("agentStop: Copilot's stop_hook_active reaches the policy, so a loop-guarded Stop hook lets the agent stop", async () => {
    bench().policy({
      Stop: [{ hooks: [bench().hook('stop-active', { stdout: { decision: 'block', reason: 'again' } })] }],
    });
    const result = await bench().fire('copilot', 'agentStop', bench().payload('copilot', 'agentStop.active'));
    assert.equal(bench().seen('stop-active')[0]!.stop_hook_active, true);
    assert.equal(result.code, 0);
  });

  test('subagentStart: context is additionalContext; the agent name is agent_type', async () => {
    bench().policy({
      SubagentStart: [
        {
          matcher: 'explore',
          hooks: [
            bench().hook('sub', {
              stdout: { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'read only' } },
            }),
          ],
        },
      ],
    });
    const result = await bench().fire('copilot', 'subagentStart', bench().payload('copilot', 'subagentStart'));
    assert.deepEqual(json(result), { additionalContext: 'read only' });
    assert.equal(bench().seen('sub')[0]!.agent_type, 'explore');
  });

  test('sessionStart (both dialects): source "new" is Claude Code\'s startup, and context is additionalContext', async () => {
    bench().policy({
      SessionStart: [{ matcher: 'startup', hooks: [bench().hook('start', { stdout: 'read CONTRIBUTING.md first' })] }],
    });
    for (const [event, fixture] of [
      ['sessionStart', 'sessionStart'],
      [undefined, 'SessionStart'],
    ] as const) {
      const result = await bench().fire('copilot', event, bench().payload('copilot', fixture));
      assert.equal(result.code, 0);
      assert.deepEqual(json(result), { additionalContext: 'read CONTRIBUTING.md first' });
      assert.doesNotMatch(result.stderr, /unsupported/);
    }
    assert.deepEqual(
      bench()
        .seen('start')
        .map((input) => input.source),
      ['startup', 'startup'],
    );
  });

  test('preToolUse and postToolUse: context is additionalContext; a block after the tool is decision block', async () => {
    bench().policy({
      PreToolUse: [
        { hooks: [bench().hook('pre-context', preToolUse({ additionalContext: 'the tests take a minute' }))] },
      ],
      PostToolUse: [
        {
          hooks: [
            bench().hook('post-block', {
              stdout: {
                decision: 'block',
                reason: 'the output holds a token',
                hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'rotate it' },
              },
            }),
          ],
        },
      ],
    });
    assert.deepEqual(json(await bench().fire('copilot', 'preToolUse', bench().payload('copilot', 'preToolUse.bash'))), {
      additionalContext: 'the tests take a minute',
    });
    assert.deepEqual(json(await bench().fire('copilot', 'postToolUse', bench().payload('copilot', 'postToolUse'))), {
      decision: 'block',
      reason: 'the output holds a token',
      additionalContext: 'rotate it',
    });
  });

  test("permissionRequest: the tool input is Copilot's toolInput, so the policy sees the command", async () => {
    bench().policy({ PermissionRequest: [{ hooks: [bench().hook('perm-input')] }] });
    await bench().fire('copilot', 'permissionRequest', bench().payload('copilot', 'permissionRequest'));
    const [seen] = bench().seen('perm-input');
    assert.equal(seen!.tool_name, 'Bash');
    assert.deepEqual(seen!.tool_input, { command: 'touch MARKER_PR' });
  });

  test("PascalCase registrations: Claude Code's tool names come with Copilot's arguments, which become Claude Code's, paths absolute", async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Read|Write',
          hooks: [
            bench().hook(
              'pascal-read',
              preToolUse({
                permissionDecision: 'allow',
                updatedInput: { file_path: `${bench().project.dir}/notes.txt` },
              }),
            ),
          ],
        },
      ],
    });
    const result = await bench().fire('copilot', undefined, bench().payload('copilot', 'PreToolUse.Read'));
    assert.deepEqual(bench().seen('pascal-read')[0]!.tool_input, { file_path: `${bench().project.dir}/missing.txt` });
    assert.deepEqual(json(result), {
      permissionDecision: 'allow',
      modifiedArgs: { path: `${bench().project.dir}/notes.txt` },
    });
    await bench().fire('copilot', 'preToolUse', bench().payload('copilot', 'preToolUse.create'));
    assert.deepEqual(bench().seen('pascal-read')[1]!.tool_input, {
      file_path: `${bench().project.dir}/.env`,
      content: 'TOKEN=abc\n',
    });
  });

  test("view_range reaches the policy as Read's offset and limit, and a rewrite of them goes back as view_range", async () => {
    const rewrite = { permissionDecision: 'allow', updatedInput: { file_path: 'notes.txt', offset: 1, limit: 1 } };
    bench().policy({
      PreToolUse: [{ matcher: 'Read', hooks: [bench().hook('range', preToolUse(rewrite))] }],
    });
    const result = await bench().fire('copilot', 'preToolUse', bench().payload('copilot', 'preToolUse.view.range'));
    assert.deepEqual(bench().seen('range')[0]!.tool_input, {
      file_path: `${bench().project.dir}/notes.txt`,
      offset: 2,
      limit: 1,
    });
    assert.deepEqual(json(result), {
      permissionDecision: 'allow',
      modifiedArgs: { path: 'notes.txt', view_range: [1, 1] },
    });
  });

  test('a failing preToolUse policy hook denies, as Copilot denies for its own failing hook; elsewhere it stays an error', async () => {
    bench().policy({
      PreToolUse: [
        {
          hooks: [
            bench().hook('pre-crash', { stderr: 'boom\nat line 2', exit: 1 }),
            bench().hook('pre-deny', { stderr: 'no force pushes', exit: 2 }),
          ],
        },
      ],
      PostToolUse: [{ hooks: [bench().hook('post-crash', { stderr: 'boom', exit: 1 })] }],
    });
    const pre = await bench().fire('copilot', 'preToolUse', bench().payload('copilot', 'preToolUse.bash'));
    assert.equal(pre.code, 0);
    const answer = json(pre) as { permissionDecision: string; permissionDecisionReason: string };
    assert.equal(answer.permissionDecision, 'deny');
    assert.equal(
      answer.permissionDecisionReason,
      'a policy hook failed (blocking because of GitHub Copilot CLI, which refuses the action when a preToolUse hook fails)\nno force pushes',
    );
    // Which hook and how goes to stderr, which Copilot keeps from the model: the command line may hold secrets.
    assert.match(pre.stderr, /pre-crash\.sh\]?:? Failed with non-blocking status code 1: boom\nat line 2/);
    assert.match(
      pre.stderr,
      /peri-hooks: blocked because of GitHub Copilot CLI, which refuses the action when a preToolUse hook fails/,
    );
    const post = await bench().fire('copilot', 'postToolUse', bench().payload('copilot', 'postToolUse'));
    assert.equal(post.code, 0);
    assert.equal(post.stdout, '');
    assert.match(post.stderr, /PostToolUse hook error/);
  });

  test('preToolUse whose toolArgs is not JSON: an error naming the agent, the event and the field; a deny under --fail-closed', async () => {
    bench().policy({ PreToolUse: [{ hooks: [bench().hook('never')] }] });
    const text = bench().payload('copilot', 'preToolUse.bash', { toolArgs: '{"command": "rm -rf /"' });
    const result = await bench().fire('copilot', 'preToolUse', text);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /the GitHub Copilot CLI preToolUse payload has a tool input that is text but not JSON at \$\.toolArgs/,
    );
    const closed = await bench().fire('copilot', 'preToolUse', text, ['--fail-closed']);
    assert.equal(closed.code, 0);
    assert.equal((json(closed) as { permissionDecision: string }).permissionDecision, 'deny');
    assert.deepEqual(bench().seen('never'), []);
  });

  test('a camelCase payload without its event on the command line names the host and the field', async () => {
    const result = await bench().fire('copilot', undefined, bench().payload('copilot', 'preToolUse.bash'));
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /the GitHub Copilot CLI payload names no event peri-hooks maps \(\$\.hook_event_name is nothing\)/,
    );
  });

  test("a malformed payload under --fail-closed is a JSON deny in Copilot's form", async () => {
    const result = await bench().fire('copilot', 'preToolUse', '[1, 2]', ['--fail-closed']);
    assert.equal(result.code, 0);
    assert.match(
      (json(result) as { permissionDecisionReason: string }).permissionDecisionReason,
      /the GitHub Copilot CLI preToolUse payload is not a JSON object at \$ \(blocking because of --fail-closed\)/,
    );
    assert.equal((json(result) as { permissionDecision: string }).permissionDecision, 'deny');
  });
});

/** The Claude Code inputs `fire --host copilot` builds from a payload. */
function inputs(hostEvent: string, payload: Record<string, unknown>): Array<Record<string, unknown>> {
  const host = HOSTS.copilot;
  return copilot.calls!({ host, hostEvent, def: host.events[hostEvent]!, payload }).map((call) => call.input);
}

const CWD = '/work/project';

describe("copilot tool results → Claude Code's tool_response (texts as Copilot 1.0.102 sends them)", () => {
  // [name, event, tool, arguments, Copilot's text, Claude Code's tool_response]
  const rows: Array<[string, string, string, Record<string, unknown>, string, unknown]> = [
    [
      "bash: output (stderr merged in by Copilot) without the shell's exit line",
      'postToolUse',
      'bash',
      { command: 'echo out; echo err >&2; exit 3', description: 'x' },
      'out\nerr\n<shellId: 0 completed with exit code 3>',
      { stdout: 'out\nerr', stderr: '', interrupted: false, isImage: false },
    ],
    [
      'bash: no output',
      'postToolUse',
      'bash',
      { command: 'touch MARKER' },
      '\n<shellId: 0 completed with exit code 0>',
      { stdout: '', stderr: '', interrupted: false, isImage: false },
    ],
    [
      'view: Read of the absolute path, the text as the content',
      'postToolUse',
      'view',
      { path: 'notes.txt' },
      'alpha\nbeta\n',
      {
        type: 'text',
        file: { filePath: `${CWD}/notes.txt`, content: 'alpha\nbeta\n', numLines: 3, startLine: 1, totalLines: 3 },
      },
    ],
    [
      'create: Write that created the file',
      'postToolUse',
      'create',
      { path: 'new.txt', file_text: 'hello\n' },
      `Created file ${CWD}/new.txt with 6 characters`,
      { type: 'create', filePath: `${CWD}/new.txt`, content: 'hello\n', structuredPatch: [] },
    ],
    [
      'edit: Edit with its strings',
      'postToolUse',
      'edit',
      { path: 'notes.txt', old_str: 'beta', new_str: 'gamma' },
      `File ${CWD}/notes.txt updated with changes.`,
      {
        filePath: `${CWD}/notes.txt`,
        oldString: 'beta',
        newString: 'gamma',
        structuredPatch: [],
        userModified: false,
        replaceAll: false,
      },
    ],
    [
      "grep: Claude Code's Grep counts what Copilot's text does not say, so Copilot's result stays",
      'postToolUse',
      'grep',
      { pattern: 'const', paths: 'src' },
      'src/a.ts',
      { resultType: 'success', textResultForLlm: 'src/a.ts' },
    ],
  ];
  for (const [name, event, tool, args, text, expected] of rows)
    test(name, () => {
      const [input] = inputs(event, {
        sessionId: 's',
        cwd: CWD,
        toolName: tool,
        toolArgs: args,
        toolResult: { resultType: 'success', textResultForLlm: text },
      });
      assert.deepEqual(input!.tool_response, expected);
    });

  test('PascalCase: tool_result in snake_case is shaped the same, and kept', () => {
    const [input] = inputs('PostToolUse', {
      hook_event_name: 'PostToolUse',
      session_id: 's',
      cwd: CWD,
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_result: { result_type: 'success', text_result_for_llm: 'a\n<shellId: 0 completed with exit code 0>' },
    });
    assert.deepEqual(input!.tool_response, { stdout: 'a', stderr: '', interrupted: false, isImage: false });
    assert.deepEqual((input!.peri_hooks_host as { tool_response: unknown }).tool_response, {
      result_type: 'success',
      text_result_for_llm: 'a\n<shellId: 0 completed with exit code 0>',
    });
  });
});

describe("copilot glob and grep → Claude Code's Glob and Grep (path, absolute)", () => {
  // [name, tool, Copilot's arguments, the tool_input of each Claude Code call]
  const rows: Array<[string, string, Record<string, unknown>, Array<Record<string, unknown>>]> = [
    [
      'glob, one relative path',
      'glob',
      { pattern: '**/*.ts', paths: 'src' },
      [{ pattern: '**/*.ts', path: `${CWD}/src` }],
    ],
    ['glob, no path: the working folder, as Claude Code', 'glob', { pattern: '*.md' }, [{ pattern: '*.md' }]],
    [
      'glob, a list: one call per path',
      'glob',
      { pattern: '*.env', paths: ['.', 'config', '/etc'] },
      [
        { pattern: '*.env', path: CWD },
        { pattern: '*.env', path: `${CWD}/config` },
        { pattern: '*.env', path: '/etc' },
      ],
    ],
    [
      "grep: Claude Code's other argument names are Copilot's",
      'grep',
      { pattern: 'TOKEN', paths: ['.env'], glob: '*.env', '-i': true, output_mode: 'content' },
      [{ pattern: 'TOKEN', path: `${CWD}/.env`, glob: '*.env', '-i': true, output_mode: 'content' }],
    ],
    ['rg is Grep', 'rg', { pattern: 'x', paths: 'secrets' }, [{ pattern: 'x', path: `${CWD}/secrets` }]],
    ['PascalCase Grep', 'Grep', { pattern: 'x', paths: ['a'] }, [{ pattern: 'x', path: `${CWD}/a` }]],
  ];
  for (const [name, tool, args, expected] of rows)
    test(name, () => {
      const calls = inputs('preToolUse', { sessionId: 's', cwd: CWD, toolName: tool, toolArgs: args });
      assert.deepEqual(
        calls.map((input) => [input.tool_name, input.tool_input]),
        expected.map((toolInput) => [tool === 'glob' ? 'Glob' : 'Grep', toolInput]),
      );
    });

  test('a path given both as paths and as path with another value is refused', () => {
    assert.throws(
      () =>
        inputs('preToolUse', {
          sessionId: 's',
          cwd: CWD,
          toolName: 'grep',
          toolArgs: { pattern: 'x', paths: '.env', path: 'src' },
        }),
      (error: unknown) => error instanceof PeriHooksError && /gives grep both paths/.test(error.message),
    );
  });
});

describe("copilot's own payload fields are kept under peri_hooks_host.fields", () => {
  const rows: Array<[string, string, Record<string, unknown>, Record<string, unknown>]> = [
    [
      'sessionStart: the initial prompt and the time',
      'sessionStart',
      { sessionId: 's', cwd: CWD, timestamp: 1796285545304, source: 'new', initialPrompt: 'hello there' },
      { timestamp: 1796285545304, initialPrompt: 'hello there' },
    ],
    [
      'SessionStart (PascalCase): initial_prompt',
      'SessionStart',
      { hook_event_name: 'SessionStart', session_id: 's', cwd: CWD, source: 'new', initial_prompt: 'go' },
      { initial_prompt: 'go' },
    ],
    [
      "agentStop: Copilot's stop reason",
      'agentStop',
      { sessionId: 's', cwd: CWD, stopReason: 'end_turn', stop_hook_active: false },
      { stopReason: 'end_turn' },
    ],
    [
      'permissionRequest: the suggestions Copilot offers',
      'permissionRequest',
      { sessionId: 's', cwd: CWD, toolName: 'bash', toolInput: { command: 'ls' }, permissionSuggestions: [] },
      { permissionSuggestions: [] },
    ],
    [
      "subagentStart: the agent's display name and description",
      'subagentStart',
      { sessionId: 's', cwd: CWD, agentName: 'explore', agentDisplayName: 'Explore', agentDescription: 'Reads' },
      { agentDisplayName: 'Explore', agentDescription: 'Reads' },
    ],
  ];
  for (const [name, event, payload, fields] of rows)
    test(name, () => {
      const [input] = inputs(event, payload);
      assert.deepEqual((input!.peri_hooks_host as { fields?: unknown }).fields, fields);
    });
});
