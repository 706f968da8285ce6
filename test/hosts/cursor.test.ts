// Cursor: its payloads (fixtures/hosts/cursor) through a policy of real command hooks; JSON on every path.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { json, preToolUse, useBench } from './harness.ts';

const bench = useBench();

describe('cursor tool events', () => {
  test('beforeShellExecution: exit 2 from the hook is permission deny with both messages, exit 2', async () => {
    bench().policy({
      PreToolUse: [{ matcher: 'Bash', hooks: [bench().hook('shell', { stderr: 'no rm -rf', exit: 2 })] }],
    });
    const result = await bench().fire(
      'cursor',
      'beforeShellExecution',
      bench().payload('cursor', 'beforeShellExecution'),
    );
    assert.equal(result.code, 2);
    assert.deepEqual(json(result), { permission: 'deny', user_message: 'no rm -rf', agent_message: 'no rm -rf' });
    const [seen] = bench().seen('shell');
    assert.equal(seen!.hook_event_name, 'PreToolUse');
    assert.equal(seen!.tool_name, 'Bash');
    assert.deepEqual(seen!.tool_input, { command: 'rm -rf build && npm run build' });
    assert.equal(seen!.session_id, '668320d2-2fd8-4888-b33c-2a466fec86e7');
    assert.equal(seen!.cwd, bench().project.dir);
    assert.equal(seen!.transcript_path, '/home/user/.cursor/projects/project/agent-transcripts/668320d2.txt');
  });

  test("a Cursor payload is answered in Cursor's form without --host (cursor_version), also through a Claude Code registration", async () => {
    bench().policy({
      PreToolUse: [{ matcher: 'Bash', hooks: [bench().hook('shell2', { stderr: 'blocked', exit: 2 })] }],
    });
    for (const args of [[], ['--output', 'claude']]) {
      const result = await bench().fire('', 'PreToolUse', bench().payload('cursor', 'preToolUse.Shell'), args);
      assert.equal(result.code, 2, args.join(' '));
      assert.deepEqual(json(result), { permission: 'deny', user_message: 'blocked', agent_message: 'blocked' });
    }
  });

  test("--host wins over the payload's marker", async () => {
    bench().policy({
      PreToolUse: [
        { hooks: [bench().hook('any', preToolUse({ permissionDecision: 'deny', permissionDecisionReason: 'no' }))] },
      ],
    });
    const result = await bench().fire('codex', 'PreToolUse', bench().payload('cursor', 'preToolUse.Shell'));
    assert.equal(result.code, 2);
    assert.deepEqual(json(result), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
    });
  });

  test('preToolUse: a rewrite is updated_input; the hook saw Shell as Bash', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            bench().hook(
              'rewrite',
              preToolUse({ permissionDecision: 'allow', updatedInput: { command: 'git push origin main' } }),
            ),
          ],
        },
      ],
    });
    const result = await bench().fire('cursor', 'preToolUse', bench().payload('cursor', 'preToolUse.Shell'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), { permission: 'allow', updated_input: { command: 'git push origin main' } });
    assert.deepEqual(bench().seen('rewrite')[0]!.peri_hooks_host, {
      name: 'cursor',
      event: 'preToolUse',
      tool_name: 'Shell',
    });
  });

  test('preToolUse Write: a relative path becomes absolute, so path rules match', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Write',
          hooks: [
            {
              type: 'command',
              command: bench().hook('env', { stderr: '.env is protected', exit: 2 }),
              if: 'Write(.env)',
            },
          ],
        },
      ],
    });
    const result = await bench().fire('cursor', 'preToolUse', bench().payload('cursor', 'preToolUse.Write'));
    assert.equal(result.code, 2);
    assert.equal(
      bench().seen('env')[0]!.tool_input && (bench().seen('env')[0]!.tool_input as { file_path: string }).file_path,
      `${bench().project.dir}/.env`,
    );
  });

  test('no decision is still JSON: {}', async () => {
    bench().policy({ PreToolUse: [{ matcher: 'Bash', hooks: [bench().hook('quiet')] }] });
    const result = await bench().fire(
      'cursor',
      'beforeShellExecution',
      bench().payload('cursor', 'beforeShellExecution'),
    );
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '{}\n');
  });

  test('beforeShellExecution cannot take a rewrite: unsupported on stderr, the command is refused rather than run unchanged', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            bench().hook('rewrite2', preToolUse({ permissionDecision: 'allow', updatedInput: { command: 'true' } })),
          ],
        },
      ],
    });
    const result = await bench().fire(
      'cursor',
      'beforeShellExecution',
      bench().payload('cursor', 'beforeShellExecution'),
    );
    assert.equal(result.code, 2);
    assert.equal((json(result) as { permission: string }).permission, 'deny');
    assert.match(
      result.stderr,
      /unsupported on Cursor beforeShellExecution: rewriting the tool input \(updatedInput\); the call is refused instead, the safe side/,
    );
  });

  test('beforeMCPExecution: the MCP call as mcp__cursor__<tool>, its JSON-text input parsed', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'mcp__.*',
          hooks: [
            bench().hook(
              'mcp',
              preToolUse({ permissionDecision: 'ask', permissionDecisionReason: 'a DROP needs a human' }),
            ),
          ],
        },
      ],
    });
    const result = await bench().fire('cursor', 'beforeMCPExecution', bench().payload('cursor', 'beforeMCPExecution'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), {
      permission: 'ask',
      user_message: 'a DROP needs a human',
      agent_message: 'a DROP needs a human',
    });
    const [seen] = bench().seen('mcp');
    assert.equal(seen!.tool_name, 'mcp__cursor__database_query');
    assert.deepEqual(seen!.tool_input, { query: 'DROP TABLE users' });
  });

  test('beforeReadFile cannot ask: an ask is a deny (the safe side), said on stderr', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Read',
          hooks: [bench().hook('read', preToolUse({ permissionDecision: 'ask', permissionDecisionReason: 'secrets' }))],
        },
      ],
    });
    const result = await bench().fire('cursor', 'beforeReadFile', bench().payload('cursor', 'beforeReadFile'));
    assert.equal(result.code, 2);
    assert.deepEqual(json(result), { permission: 'deny', user_message: 'secrets', agent_message: 'secrets' });
    assert.match(
      result.stderr,
      /unsupported on Cursor beforeReadFile: asking the user .*denied instead, the safe side/,
    );
    assert.deepEqual(bench().seen('read')[0]!.tool_input, { file_path: `${bench().project.dir}/secrets.env` });
  });

  test('afterFileEdit: one Edit per edit; a block cannot apply there and says so', async () => {
    bench().policy({
      PostToolUse: [
        { matcher: 'Edit', hooks: [bench().hook('edited', { stdout: { decision: 'block', reason: 'lint fails' } })] },
      ],
    });
    const result = await bench().fire('cursor', 'afterFileEdit', bench().payload('cursor', 'afterFileEdit'));
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '{}\n');
    assert.match(result.stderr, /unsupported on Cursor afterFileEdit: blocking \(lint fails\); the action goes on/);
    assert.deepEqual(bench().seen('edited')[0]!.tool_input, {
      file_path: `${bench().project.dir}/src/main.ts`,
      old_string: 'const foo = 1',
      new_string: 'const foo = 2',
    });
  });

  test('afterShellExecution: the output is the tool response', async () => {
    bench().policy({ PostToolUse: [{ matcher: 'Bash', hooks: [bench().hook('ran')] }] });
    const result = await bench().fire(
      'cursor',
      'afterShellExecution',
      bench().payload('cursor', 'afterShellExecution'),
    );
    assert.equal(result.code, 0);
    assert.deepEqual(bench().seen('ran')[0]!.tool_response, { stdout: '3 passing', duration_ms: 150 });
  });

  test('postToolUse: context is additional_context', async () => {
    bench().policy({
      PostToolUse: [
        {
          hooks: [
            bench().hook('post', {
              stdout: { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'coverage dropped' } },
            }),
          ],
        },
      ],
    });
    const result = await bench().fire('cursor', 'postToolUse', bench().payload('cursor', 'postToolUse'));
    assert.deepEqual(json(result), { additional_context: 'coverage dropped' });
  });
});

describe('cursor lifecycle events', () => {
  test('beforeSubmitPrompt: a block is continue false with the message; otherwise continue true', async () => {
    bench().policy({
      UserPromptSubmit: [
        { hooks: [bench().hook('prompt', { stdout: { decision: 'block', reason: 'no prompts about main.ts' } })] },
      ],
    });
    const blocked = await bench().fire('cursor', 'beforeSubmitPrompt', bench().payload('cursor', 'beforeSubmitPrompt'));
    assert.equal(blocked.code, 2);
    assert.deepEqual(json(blocked), { continue: false, user_message: 'no prompts about main.ts' });
    assert.equal(bench().seen('prompt')[0]!.prompt, 'Fix the bug in main.ts');
    bench().policy({ UserPromptSubmit: [{ hooks: [bench().hook('prompt-ok')] }] });
    assert.deepEqual(
      json(await bench().fire('cursor', 'beforeSubmitPrompt', bench().payload('cursor', 'beforeSubmitPrompt'))),
      { continue: true },
    );
  });

  test('beforeSubmitPrompt cannot take context: unsupported on stderr', async () => {
    bench().policy({
      UserPromptSubmit: [{ hooks: [bench().hook('prompt-context', { stdout: 'remember the style guide' })] }],
    });
    const result = await bench().fire('cursor', 'beforeSubmitPrompt', bench().payload('cursor', 'beforeSubmitPrompt'));
    assert.deepEqual(json(result), { continue: true });
    assert.match(result.stderr, /unsupported on Cursor beforeSubmitPrompt: adding model context/);
  });

  test('sessionStart: context is additional_context', async () => {
    bench().policy({ SessionStart: [{ hooks: [bench().hook('start', { stdout: 'main is protected' })] }] });
    const result = await bench().fire('cursor', 'sessionStart', bench().payload('cursor', 'sessionStart'));
    assert.deepEqual(json(result), { additional_context: 'main is protected' });
  });

  test('stop: a block is a followup_message; loop_count > 0 is stop_hook_active', async () => {
    bench().policy({
      Stop: [{ hooks: [bench().hook('stop', { stdout: { decision: 'block', reason: 'run the tests' } })] }],
    });
    const result = await bench().fire('cursor', 'stop', bench().payload('cursor', 'stop'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), { followup_message: 'run the tests' });
    await bench().fire('cursor', 'stop', bench().payload('cursor', 'stop', { loop_count: 2 }));
    assert.deepEqual(
      bench()
        .seen('stop')
        .map((input) => input.stop_hook_active),
      [false, true],
    );
  });

  test('an event Cursor does not have names the host and the field', async () => {
    bench().policy({ Stop: [{ hooks: [bench().hook('never')] }] });
    const result = await bench().fire(
      'cursor',
      undefined,
      bench().payload('cursor', 'stop', { hook_event_name: 'afterTabFileEdit' }),
    );
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /the Cursor payload names no event peri-hooks maps \(\$\.hook_event_name is "afterTabFileEdit"\)/,
    );
  });
});
