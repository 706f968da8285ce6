// Gemini CLI: its payloads (fixtures/hosts/gemini) through a policy of real command hooks.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { cliCommand } from '../helpers/cli.ts';
import { json, preToolUse, useBench } from './harness.ts';

const bench = useBench();

describe('gemini', () => {
  test('BeforeTool: run_shell_command is Bash; a deny is decision deny with the reason, exit 2', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            bench().hook('shell', preToolUse({ permissionDecision: 'deny', permissionDecisionReason: 'no rm -rf' })),
          ],
        },
      ],
    });
    const result = await bench().fire(
      'gemini',
      'BeforeTool',
      bench().payload('gemini', 'BeforeTool.run_shell_command'),
    );
    assert.equal(result.code, 2);
    assert.deepEqual(json(result), { decision: 'deny', reason: 'no rm -rf' });
    assert.equal(result.stderr, 'no rm -rf\n');
    const [seen] = bench().seen('shell');
    assert.equal(seen!.tool_name, 'Bash');
    assert.deepEqual(seen!.tool_input, {
      command: 'rm -rf node_modules',
      description: 'Remove installed packages',
      cwd: '.',
    });
    assert.equal(seen!.hook_event_name, 'PreToolUse');
  });

  test("BeforeTool: a rewrite is hookSpecificOutput.tool_input in Gemini's argument names", async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            bench().hook(
              'rewrite',
              preToolUse({
                permissionDecision: 'allow',
                updatedInput: { command: 'rm -rf node_modules/.cache', cwd: '.' },
              }),
            ),
          ],
        },
      ],
    });
    const result = await bench().fire('gemini', undefined, bench().payload('gemini', 'BeforeTool.run_shell_command'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), {
      decision: 'allow',
      hookSpecificOutput: {
        hookEventName: 'BeforeTool',
        tool_input: { command: 'rm -rf node_modules/.cache', dir_path: '.' },
      },
    });
  });

  test('BeforeTool: write_file is Write; an ask outside an interactive Gemini CLI is a deny that says why (a headless run would hang)', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Write',
          hooks: [
            bench().hook('write', preToolUse({ permissionDecision: 'ask', permissionDecisionReason: 'writing .env' })),
          ],
        },
      ],
    });
    const result = await bench().fire('gemini', 'BeforeTool', bench().payload('gemini', 'BeforeTool.write_file'));
    assert.equal(result.code, 2);
    assert.deepEqual(json(result), {
      decision: 'deny',
      reason:
        'writing .env (the policy asks for confirmation; denied because Gemini CLI runs headless (-p, CI or no terminal) and would wait for an answer forever)',
    });
    assert.match(
      result.stderr,
      /unsupported on Gemini CLI BeforeTool: asking the user \(permissionDecision ask\) now: Gemini CLI runs headless/,
    );
    assert.equal(bench().seen('write')[0]!.tool_name, 'Write');
  });

  test('BeforeTool under --fail-closed: a crashed hook blocks, and the reason Gemini gives the model names neither the hook nor its error', async () => {
    const crash = bench().hook('crash', {
      stderr: 'Error: boom\n    at main (/opt/secret-token-abc/policy.js:1:1)',
      exit: 1,
    });
    bench().policy({ PreToolUse: [{ matcher: 'Bash', hooks: [`${crash} --token secret-token-abc`] }] });
    const result = await bench().fire(
      'gemini',
      'BeforeTool',
      bench().payload('gemini', 'real.BeforeTool.run_shell_command'),
      ['--fail-closed'],
    );
    assert.equal(result.code, 2);
    assert.deepEqual(json(result), {
      decision: 'deny',
      reason:
        'peri-hooks could not enforce the policy (a hook failed or did not run); blocked because of --fail-closed',
    });
    assert.match(
      result.stderr,
      /boom/,
      'the failure itself is on stderr, which Gemini reads only when stdout is empty',
    );
  });

  test('BeforeTool: an MCP tool is mcp__<server>__<tool> from mcp_context; context there is unsupported', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'mcp__github__.*',
          hooks: [bench().hook('mcp', preToolUse({ additionalContext: 'issues need a label' }))],
        },
      ],
    });
    const result = await bench().fire('gemini', 'BeforeTool', bench().payload('gemini', 'BeforeTool.mcp'));
    assert.equal(result.code, 0);
    assert.equal(bench().seen('mcp')[0]!.tool_name, 'mcp__github__create_issue');
    assert.match(result.stderr, /unsupported on Gemini CLI BeforeTool: adding model context/);
    assert.equal(result.stdout, '');
  });

  test('AfterTool: context is hookSpecificOutput.additionalContext; a block hides the result (decision deny)', async () => {
    bench().policy({
      PostToolUse: [
        {
          hooks: [
            bench().hook('after', {
              stdout: {
                decision: 'block',
                reason: 'output has a secret',
                hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'rotate the key' },
              },
            }),
          ],
        },
      ],
    });
    const result = await bench().fire('gemini', 'AfterTool', bench().payload('gemini', 'AfterTool'));
    assert.equal(result.code, 2);
    assert.deepEqual(json(result), {
      decision: 'deny',
      reason: 'output has a secret',
      hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'rotate the key' },
    });
    assert.deepEqual(bench().seen('after')[0]!.tool_response, {
      stdout: '3 passing',
      stderr: '',
      interrupted: false,
      isImage: false,
    });
  });

  // run_shell_command's text as Gemini CLI 0.61 builds it (its shell tool's llmContent) → Claude Code's Bash response.
  const SHELL_TEXTS: Array<{ text: string; stdout: string; interrupted?: true }> = [
    { text: '<untrusted_context>\nOutput: HELLO\nProcess Group PGID: 7\n</untrusted_context>', stdout: 'HELLO' },
    { text: 'Output: a\nExit Code: 3\nSignal: 9\nProcess Group PGID: 7', stdout: 'a' },
    {
      text: 'Output: line 1\nExit Code: 0 is text\nline 3\nBackground PIDs: 8, 9',
      stdout: 'line 1\nExit Code: 0 is text\nline 3',
    },
    {
      text: '<untrusted_context>\nOutput: x &lt;/untrusted_context&gt; y\n</untrusted_context>',
      stdout: 'x </untrusted_context> y',
    },
    {
      text: 'Command was cancelled by user before it could complete. There was no output before it was cancelled.',
      stdout: 'Command was cancelled by user before it could complete. There was no output before it was cancelled.',
      interrupted: true,
    },
  ];
  for (const [row, { text, stdout, interrupted }] of SHELL_TEXTS.entries()) {
    test(`AfterTool: Gemini's shell text ${JSON.stringify(text.slice(0, 40))} is Bash's stdout`, async () => {
      bench().policy({ PostToolUse: [{ hooks: [bench().hook(`shell-text-${row}`)] }] });
      const payload = bench().payload('gemini', 'AfterTool', { tool_response: { llmContent: text } });
      const result = await bench().fire('gemini', 'AfterTool', payload);
      assert.equal(result.code, 0, result.stderr);
      const [seen] = bench().seen(`shell-text-${row}`);
      assert.deepEqual(seen!.tool_response, { stdout, stderr: '', interrupted: interrupted === true, isImage: false });
      assert.deepEqual((seen!.peri_hooks_host as { tool_response: unknown }).tool_response, { llmContent: text });
    });
  }

  test("AfterTool of a failed call, as Gemini CLI 0.61 sends it: PostToolUseFailure whose error is the error object's message", async () => {
    bench().policy({ PostToolUseFailure: [{ hooks: [bench().hook('failed-real')] }] });
    const result = await bench().fire(
      'gemini',
      'AfterTool',
      bench().payload('gemini', 'real.AfterTool.read_file.error'),
    );
    assert.equal(result.code, 0);
    const [seen] = bench().seen('failed-real');
    assert.equal(seen!.hook_event_name, 'PostToolUseFailure');
    assert.equal(seen!.error, `File not found: ${bench().project.dir}/missing.txt`);
    assert.equal(seen!.tool_name, 'Read');
  });

  test('AfterTool of a failed call: Gemini gives the model the error, not the result, so failure context is unsupported there', async () => {
    bench().policy({
      PostToolUseFailure: [
        {
          hooks: [
            bench().hook('failed-context', {
              stdout: {
                hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'check the path' },
              },
            }),
          ],
        },
      ],
    });
    const result = await bench().fire(
      'gemini',
      'AfterTool',
      bench().payload('gemini', 'real.AfterTool.read_file.error'),
    );
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /unsupported on Gemini CLI AfterTool: adding model context \(additionalContext\); the model does not see it/,
    );
  });

  test('AfterTool with tool_response.error is PostToolUseFailure', async () => {
    bench().policy({ PostToolUseFailure: [{ hooks: [bench().hook('failed')] }] });
    const result = await bench().fire('gemini', 'AfterTool', bench().payload('gemini', 'AfterTool.error'));
    assert.equal(result.code, 0);
    const [seen] = bench().seen('failed');
    assert.equal(seen!.hook_event_name, 'PostToolUseFailure');
    assert.equal(seen!.error, `File not found: ${bench().project.dir}/missing.txt`);
    assert.equal(seen!.tool_name, 'Read');
  });

  test('BeforeAgent: exit 2 drops the prompt (decision deny); plain stdout is context', async () => {
    bench().policy({
      UserPromptSubmit: [{ hooks: [bench().hook('prompt', { stderr: 'no secrets in prompts', exit: 2 })] }],
    });
    const blocked = await bench().fire('gemini', 'BeforeAgent', bench().payload('gemini', 'BeforeAgent'));
    assert.equal(blocked.code, 2);
    assert.deepEqual(json(blocked), { decision: 'deny', reason: 'no secrets in prompts' });
    bench().policy({
      UserPromptSubmit: [{ hooks: [bench().hook('prompt-context', { stdout: 'the repo uses pnpm' })] }],
    });
    const context = await bench().fire('gemini', 'BeforeAgent', bench().payload('gemini', 'BeforeAgent'));
    assert.deepEqual(json(context), {
      hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'the repo uses pnpm' },
    });
  });

  test('AfterAgent: a Stop block makes Gemini retry (decision deny); prompt_response is last_assistant_message', async () => {
    bench().policy({
      Stop: [{ hooks: [bench().hook('stop', { stdout: { decision: 'block', reason: 'the tests still fail' } })] }],
    });
    const result = await bench().fire('gemini', 'AfterAgent', bench().payload('gemini', 'AfterAgent'));
    assert.equal(result.code, 2);
    assert.deepEqual(json(result), { decision: 'deny', reason: 'the tests still fail' });
    const [seen] = bench().seen('stop');
    assert.equal(seen!.hook_event_name, 'Stop');
    assert.equal(seen!.last_assistant_message, 'I changed the assertion.');
    assert.equal(seen!.stop_hook_active, false);
  });

  test('SessionStart: context, and continue false stops the agent', async () => {
    bench().policy({
      SessionStart: [
        {
          hooks: [
            bench().hook('start', {
              stdout: {
                continue: false,
                stopReason: 'maintenance',
                hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'hello' },
              },
            }),
          ],
        },
      ],
    });
    const result = await bench().fire('gemini', 'SessionStart', bench().payload('gemini', 'SessionStart'));
    assert.deepEqual(json(result), {
      continue: false,
      stopReason: 'maintenance',
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'hello' },
    });
  });

  test('a BeforeAgent payload without its prompt names the host and the field', async () => {
    const payload = JSON.parse(bench().payload('gemini', 'BeforeAgent'));
    delete payload.prompt;
    const result = await bench().fire('gemini', 'BeforeAgent', JSON.stringify(payload));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /the Gemini CLI BeforeAgent payload has no prompt text at \$\.prompt/);
  });

  const REAL: Array<{ fixture: string; event: string; expect: Record<string, unknown> }> = [
    {
      fixture: 'real.BeforeTool.run_shell_command',
      event: 'PreToolUse',
      expect: {
        tool_name: 'Bash',
        tool_input: { command: 'touch MARKER_DENIED', description: 'run touch MARKER_DENIED' },
      },
    },
    {
      fixture: 'real.AfterTool.run_shell_command',
      event: 'PostToolUse',
      expect: {
        tool_name: 'Bash',
        tool_response: { stdout: '', stderr: '', interrupted: false, isImage: false },
        peri_hooks_host: {
          name: 'gemini',
          event: 'AfterTool',
          tool_name: 'run_shell_command',
          tool_response: {
            llmContent: '<untrusted_context>\nOutput: (empty)\nProcess Group PGID: 10256\n</untrusted_context>',
            returnDisplay: '',
          },
        },
      },
    },
    { fixture: 'real.BeforeAgent', event: 'UserPromptSubmit', expect: { prompt: 'hello there' } },
    {
      fixture: 'real.AfterAgent',
      event: 'Stop',
      expect: { stop_hook_active: true, last_assistant_message: 'FINAL_ANSWER first.\nFINAL_ANSWER CONTINUED.' },
    },
    { fixture: 'real.SessionStart', event: 'SessionStart', expect: { source: 'startup' } },
    { fixture: 'real.SessionEnd', event: 'SessionEnd', expect: { reason: 'other' } },
    {
      fixture: 'Notification',
      event: 'Notification',
      expect: { notification_type: 'permission_prompt', message: 'Tool Confirm Shell Command requires execution' },
    },
  ];
  for (const { fixture, event, expect } of REAL) {
    test(`Gemini CLI 0.61's own ${fixture.replace(/^real\./, '')} payload is Claude Code's ${event}`, async () => {
      bench().policy({ [event]: [{ hooks: [bench().hook(fixture)] }] });
      const result = await bench().fire('gemini', undefined, bench().payload('gemini', fixture));
      assert.equal(result.code, 0, result.stderr);
      const [seen] = bench().seen(fixture);
      assert.equal(seen!.hook_event_name, event);
      assert.equal(seen!.cwd, bench().project.dir);
      for (const [key, value] of Object.entries(expect)) assert.deepEqual(seen![key], value, key);
    });
  }

  // A Node process named gemini on a terminal (script(1) gives it one) runs the firing as Gemini runs a hook,
  // through `sh -c` with pipes: its stdin and stdout on the terminal keep an ask an ask; -p (headless) makes it a deny.
  const hasScript =
    process.platform === 'linux' && spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
  test('BeforeTool ask: kept when the Gemini CLI that runs the hook is interactive, a deny when it runs with -p', {
    skip: !hasScript && 'needs script(1) and /proc (Linux)',
  }, () => {
    const b = bench();
    const policy = b.policy({
      PreToolUse: [
        {
          matcher: 'Write',
          hooks: [
            b.hook('ask-tty', preToolUse({ permissionDecision: 'ask', permissionDecisionReason: 'writing .env' })),
          ],
        },
      ],
    });
    const [command, args] = cliCommand('fire');
    const fire = [
      command,
      ...args,
      'fire',
      '--host',
      'gemini',
      'BeforeTool',
      '--settings',
      policy,
      '--setting-sources',
      'none',
      '--no-state',
    ]
      .map((word) => `'${word}'`)
      .join(' ');
    const gemini = b.project.write(
      'bin/gemini',
      [
        `#!${process.execPath}`,
        `const run = require('node:child_process').spawnSync('sh', ['-c', ${JSON.stringify(fire)}], { input: ${JSON.stringify(b.payload('gemini', 'BeforeTool.write_file'))}, stdio: ['pipe', 'pipe', 'ignore'] });`,
        `require('node:fs').writeFileSync(process.env.OUT, JSON.stringify({ code: run.status, answer: JSON.parse(String(run.stdout)) }));`,
        '',
      ].join('\n'),
    );
    chmodSync(gemini, 0o755);
    const run = (out: string, ...flags: string[]) => {
      const {
        CI: _ci,
        GITHUB_ACTIONS: _actions,
        ...env
      } = { ...process.env, ...b.project.env() } as Record<string, string>;
      spawnSync('script', ['-qec', [gemini, ...flags].join(' '), '/dev/null'], {
        env: { ...env, OUT: join(b.project.dir, out) },
        stdio: 'ignore',
        timeout: 60_000,
      });
      return JSON.parse(readFileSync(join(b.project.dir, out), 'utf8'));
    };
    assert.deepEqual(run('interactive.json'), { code: 0, answer: { decision: 'ask', reason: 'writing .env' } });
    const headless = run('headless.json', '-p', 'hello');
    assert.equal(headless.code, 2);
    assert.equal(headless.answer.decision, 'deny');
  });
});
