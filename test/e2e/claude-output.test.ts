// `--output claude`: peri-hooks as Claude Code's one hook answers in the form the original hooks used.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const cmd = (command: string) => ({ type: 'command', command });

async function claude(event: string, fixture: string, hooks: object[], matcher?: string, extraArgs: string[] = []) {
  const settings = JSON.stringify({ hooks: { [event]: [{ ...(matcher ? { matcher } : {}), hooks }] } });
  return runCli(['fire', event, '--output', 'claude', '--setting-sources', '', '--settings', settings, ...extraArgs], {
    stdin: project.input(fixture),
    env: project.env(),
  });
}

const preJson = (specific: object) =>
  `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific } })}'`;

test('a block by exit 2 stays an exit 2 with the same stderr', async () => {
  const result = await claude(
    'PreToolUse',
    'PreToolUse.tool_name-Bash',
    [cmd('echo "no rm here" >&2; exit 2')],
    'Bash',
  );
  assert.deepEqual([result.code, result.stdout, result.stderr], [2, '', 'no rm here\n']);
});

test('a block by JSON stays JSON with exit 0', async () => {
  const result = await claude(
    'PreToolUse',
    'PreToolUse.tool_name-Bash',
    [cmd(preJson({ permissionDecision: 'deny', permissionDecisionReason: 'json no' }))],
    'Bash',
  );
  assert.equal(result.code, 0);
  assert.equal(result.stderr, '');
  assert.deepEqual(JSON.parse(result.stdout), {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'json no',
    },
  });
});

test('exit 2 plus a sibling context: exit 2, and the context rides along as JSON', async () => {
  const result = await claude(
    'PreToolUse',
    'PreToolUse.tool_name-Bash',
    [cmd('echo blocked >&2; exit 2'), cmd(preJson({ additionalContext: 'note for Claude' }))],
    'Bash',
  );
  assert.equal(result.code, 2);
  assert.equal(result.stderr, 'blocked\n');
  assert.deepEqual(JSON.parse(result.stdout), {
    hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'note for Claude' },
  });
});

test('Stop: JSON block stays JSON, exit-2 block stays exit 2', async () => {
  const json = await claude('Stop', 'Stop', [cmd(`echo '{"decision":"block","reason":"tests are red"}'`)]);
  assert.equal(json.code, 0);
  assert.deepEqual(JSON.parse(json.stdout), { decision: 'block', reason: 'tests are red' });
  const exit2 = await claude('Stop', 'Stop', [cmd('echo "tests are red" >&2; exit 2')]);
  assert.deepEqual([exit2.code, exit2.stdout, exit2.stderr], [2, '', 'tests are red\n']);
});

test('SessionStart: an exit-2 hook keeps its notice, context still arrives', async () => {
  const result = await claude('SessionStart', 'SessionStart', [
    cmd('echo "heads up" >&2; exit 2'),
    cmd('echo "branch main"'),
  ]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr, 'heads up\n');
  assert.deepEqual(JSON.parse(result.stdout), {
    hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'branch main' },
  });
});

test('hooks that only failed: exit 1 so that Claude Code shows the hook error notice', async () => {
  const result = await claude('PreToolUse', 'PreToolUse.tool_name-Bash', [cmd('echo oops >&2; exit 1')], 'Bash');
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /oops/);
});

test('nothing to say: exit 0 and no output', async () => {
  const result = await claude('PreToolUse', 'PreToolUse.tool_name-Bash', [cmd('exit 0')], 'Bash');
  assert.deepEqual([result.code, result.stdout, result.stderr], [0, '', '']);
});

test('WorktreeCreate: the path as plain text; no path fails with exit 1', async () => {
  const created = await claude('WorktreeCreate', 'WorktreeCreate', [
    cmd('echo "creating..." >&2; echo /tmp/worktrees/feature'),
  ]);
  assert.deepEqual([created.code, created.stdout], [0, '/tmp/worktrees/feature\n']);
  const failed = await claude('WorktreeCreate', 'WorktreeCreate', [cmd('echo "git failed" >&2; exit 1')]);
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /git failed/);
});

test('PermissionRequest deny is JSON with exit 0 (Claude Code ignores exit 2 there)', async () => {
  const deny = `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}'`;
  const result = await claude('PermissionRequest', 'PermissionRequest', [cmd(deny)], 'Bash');
  assert.equal(result.code, 0);
  assert.deepEqual(JSON.parse(result.stdout).hookSpecificOutput.decision, { behavior: 'deny', message: 'no' });
});

test('settings warnings never reach stderr, which Claude Code reads as the block message', async () => {
  const settings = JSON.stringify({
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd('echo denied >&2; exit 2')] }],
      Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: 'soon' }] }],
    },
  });
  const result = await runCli(
    ['fire', 'PreToolUse', '--output', 'claude', '--setting-sources', '', '--settings', settings],
    { stdin: project.input('PreToolUse.tool_name-Bash'), env: project.env() },
  );
  assert.equal(result.code, 2);
  assert.equal(result.stderr, 'denied\n');
});

test('UserPromptSubmit: exit 2 blocks the prompt with the same stderr', async () => {
  const result = await claude('UserPromptSubmit', 'UserPromptSubmit', [
    cmd('echo "no secrets in prompts" >&2; exit 2'),
  ]);
  assert.deepEqual([result.code, result.stderr], [2, 'no secrets in prompts\n']);
});

test('plain-text context stays plain text (Claude Code frames it as "hook success")', async () => {
  const result = await claude('UserPromptSubmit', 'UserPromptSubmit', [cmd('echo "the build is green"')]);
  assert.deepEqual([result.code, result.stdout, result.stderr], [0, 'the build is green\n', '']);
  const mixed = await claude('UserPromptSubmit', 'UserPromptSubmit', [
    cmd('echo plain'),
    cmd(`echo '{"systemMessage":"hi"}'`),
  ]);
  assert.deepEqual(JSON.parse(mixed.stdout), {
    systemMessage: 'hi',
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'plain' },
  });
});

test('PreSkillShellCommand: an ask answered in JSON stays JSON with exit 0, though it keeps the command from running', async () => {
  const ask = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreSkillShellCommand',
      permissionDecision: 'ask',
      permissionDecisionReason: 'check',
    },
  });
  const result = await claude('PreSkillShellCommand', 'PreSkillShellCommand', [cmd(`echo '${ask}'`)]);
  assert.equal(result.code, 0);
  assert.equal(result.stderr, '');
  assert.deepEqual(JSON.parse(result.stdout), JSON.parse(ask));
});

test('PostModelSwitch: plain stdout stays plain text', async () => {
  const result = await claude('PostModelSwitch', 'PostModelSwitch', [cmd('echo "mind the budget"')]);
  assert.deepEqual([result.code, result.stdout, result.stderr], [0, 'mind the budget\n', '']);
});

// Claude Code frames each hook's text apart and keeps one reason of several denies; what these rows assert is
// what `npm run test:claude` saw the real Claude Code show for the same hooks registered directly.
test('onFailure "block": the message without the label (Claude Code adds peri-hooks\'), then the failure', async () => {
  const failed = await claude(
    'PreToolUse',
    'PreToolUse.tool_name-Bash',
    [{ ...cmd('echo "policy server unreachable" >&2; exit 1'), onFailure: 'block' }],
    'Bash',
  );
  assert.deepEqual(
    [failed.code, failed.stdout, failed.stderr],
    [2, '', 'failed; blocking because onFailure is "block"\npolicy server unreachable'],
  );
  const timedOut = await claude(
    'PreToolUse',
    'PreToolUse.tool_name-Bash',
    [{ ...cmd('sleep 5'), onFailure: 'block', timeout: 0.5 }],
    'Bash',
  );
  assert.deepEqual([timedOut.code, timedOut.stderr], [2, 'timed out; blocking because onFailure is "block"']);
});

test('several PreToolUse denies: the reason of the last in configuration order, in its own form', async () => {
  const bothExit2 = await claude(
    'PreToolUse',
    'PreToolUse.tool_name-Bash',
    [cmd('echo first >&2; exit 2'), cmd('echo second >&2; exit 2')],
    'Bash',
  );
  assert.deepEqual([bothExit2.code, bothExit2.stderr], [2, 'second\n']);
  const jsonLast = await claude(
    'PreToolUse',
    'PreToolUse.tool_name-Bash',
    [cmd('echo first >&2; exit 2'), cmd(preJson({ permissionDecision: 'deny', permissionDecisionReason: 'json no' }))],
    'Bash',
  );
  assert.deepEqual([jsonLast.code, jsonLast.stderr], [0, '']);
  assert.equal(JSON.parse(jsonLast.stdout).hookSpecificOutput.permissionDecisionReason, 'json no');
});

test('exit 2 with an empty stderr: an empty stderr, so that Claude Code says "No stderr output" as for the hook', async () => {
  const result = await claude('PreToolUse', 'PreToolUse.tool_name-Bash', [cmd('exit 2')], 'Bash');
  assert.deepEqual([result.code, result.stderr], [2, '']);
});

test("several hooks' context: one answer with each hook's paragraph as Claude Code frames it", async () => {
  const context = (event: string, text: string) =>
    cmd(`echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })}'`);
  const contextOf = (result: { stdout: string }) => JSON.parse(result.stdout).hookSpecificOutput.additionalContext;
  const pre = await claude(
    'PreToolUse',
    'PreToolUse.tool_name-Bash',
    [context('PreToolUse', 'first'), context('PreToolUse', 'second')],
    'Bash',
  );
  assert.equal(contextOf(pre), 'first\nsecond');
  const post = await claude(
    'PostToolUse',
    'PostToolUse.tool_name-Bash',
    [context('PostToolUse', 'first'), context('PostToolUse', 'second')],
    'Bash',
  );
  assert.equal(contextOf(post), 'first\n\nPostToolUse:Bash hook additional context: second');
  const prompt = await claude('UserPromptSubmit', 'UserPromptSubmit', [
    context('UserPromptSubmit', 'from json'),
    cmd('echo "from stdout"'),
  ]);
  assert.equal(contextOf(prompt), 'from json\n\nUserPromptSubmit hook success: from stdout');
  // The first paragraph is plain stdout's: the answer is plain stdout too.
  const start = await claude('SessionStart', 'SessionStart', [
    context('SessionStart', 'from json'),
    cmd('echo "from stdout"'),
  ]);
  assert.deepEqual([start.code, start.stdout], [0, 'from stdout\n\nSessionStart hook additional context: from json\n']);
});

// Inside Claude Code async hooks get entries of their own, so that Claude Code's async mechanism runs them.
describe("--skip-async and --only-async: the entries that split a policy's async hooks from the rest", () => {
  const ranMarker = (name: string) => `${project.dir}/${name}.ran`;
  const policy = [
    cmd(
      `touch '${ranMarker('sync')}'; echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'from the sync hook' } })}'`,
    ),
    {
      ...cmd(
        `echo '${JSON.stringify({ systemMessage: 'tests passed', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'from the async hook' } })}'`,
      ),
      async: true,
    },
    { ...cmd('echo "lint failed" >&2; exit 2'), asyncRewake: true },
  ];

  test('--skip-async: the async hooks are reported skipped, and none is handed to the background', async () => {
    const settings = JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Bash', hooks: policy }] } });
    const result = await runCli(
      ['fire', 'PostToolUse', '--skip-async', '--output', 'json', '--setting-sources', '', '--settings', settings],
      { stdin: project.input('PostToolUse.tool_name-Bash'), env: project.env() },
    );
    const report = JSON.parse(result.stdout);
    assert.deepEqual(
      report.hooks.map((hook: { status: string; skipReason?: string }) => hook.skipReason ?? hook.status),
      ['ran', 'skip-async', 'skip-async'],
    );
    assert.equal(report.output.hookSpecificOutput.additionalContext, 'from the sync hook');
  });

  test('--only-async: only the async hooks run, waited for, and the answer is what Claude Code reads of an async hook', async () => {
    rmSync(ranMarker('sync'), { force: true });
    const result = await claude('PostToolUse', 'PostToolUse.tool_name-Bash', policy, 'Bash', ['--only-async']);
    assert.deepEqual([result.code, result.stderr], [0, '']);
    assert.deepEqual(JSON.parse(result.stdout), {
      systemMessage: 'tests passed',
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'from the async hook' },
    });
    assert.equal(existsSync(ranMarker('sync')), false, 'the synchronous hook did not run');
  });

  test('--only-async asyncRewake: the rewake hook runs, and its exit 2 is passed on', async () => {
    const result = await claude('PostToolUse', 'PostToolUse.tool_name-Bash', policy, 'Bash', [
      '--only-async',
      'asyncRewake',
    ]);
    assert.deepEqual([result.code, result.stdout, result.stderr], [2, '', 'lint failed\n']);
  });

  test('the two flags together, or an unknown kind, are usage errors', async () => {
    for (const args of [
      ['--only-async', '--skip-async'],
      ['--only-async', 'later'],
    ]) {
      const result = await claude('PostToolUse', 'PostToolUse.tool_name-Bash', policy, 'Bash', args);
      assert.equal(result.code, 1, args.join(' '));
      assert.match(
        result.stderr,
        args[1] === 'later' ? /unknown --only-async kind "later"/ : /--only-async and --skip-async/,
      );
    }
  });
});

// Issue 29 item 2: a policy that stops loading used to leave `--output claude` silent (exit 0, nothing printed).
describe("a policy that does not load is said to Claude Code's user, and blocks under --fail-closed", () => {
  const deny = { type: 'command', command: 'echo "no Bash" >&2; exit 2' };
  const good = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [deny] }] } };
  const text = (value: object) => JSON.stringify(value);
  const BROKEN: ReadonlyArray<[string, (path: string) => void]> = [
    ['a comment', (path) => writeFileSync(path, `{ // no Bash\n${text(good).slice(1)}`)],
    ['a trailing comma', (path) => writeFileSync(path, `${text(good).slice(0, -1)},}`)],
    ['a FIFO in its place', (path) => execFileSync('mkfifo', [path])],
    ['a folder in its place', (path) => mkdirSync(path)],
    ['a symlink loop', (path) => symlinkSync(path, path)],
    ['matcher: 5', (path) => writeFileSync(path, text({ hooks: { PreToolUse: [{ matcher: 5, hooks: [deny] }] } }))],
    [
      'a misspelt type',
      (path) =>
        writeFileSync(
          path,
          text({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ ...deny, type: 'comand' }] }] } }),
        ),
    ],
    ['a misspelt event', (path) => writeFileSync(path, text({ hooks: { PretoolUse: good.hooks.PreToolUse } }))],
    [
      'nesting over the limit',
      (path) => writeFileSync(path, `{"hooks":${text(good.hooks)},"x":${'['.repeat(200)}${']'.repeat(200)}}`),
    ],
    ['hooks as an array', (path) => writeFileSync(path, text({ hooks: [good.hooks] }))],
  ];
  for (const [shape, breakFile] of BROKEN) {
    test(shape, async () => {
      const path = join(project.dir, '.claude', 'settings.json');
      rmSync(path, { recursive: true, force: true });
      mkdirSync(dirname(path), { recursive: true });
      breakFile(path);
      try {
        const fire = (...extra: string[]) =>
          runCli(['fire', 'PreToolUse', '--output', 'claude', ...extra], {
            stdin: project.input('PreToolUse.tool_name-Bash'),
            env: project.env(),
          });
        const open = await fire();
        assert.equal(open.code, 0, open.stderr);
        assert.equal(open.stderr, '');
        const message = (JSON.parse(open.stdout) as { systemMessage: string }).systemMessage;
        assert.match(message, /^peri-hooks: policy not enforced, it did not load:\n- /);
        assert.ok(message.includes(path), message);
        const closed = await fire('--fail-closed');
        assert.equal(closed.code, 2, closed.stderr);
        assert.match(closed.stderr, /blocking because of --fail-closed/);
      } finally {
        rmSync(path, { recursive: true, force: true });
      }
    });
  }

  test("beside a hook's own systemMessage and failures, the notice joins them in one JSON answer", async () => {
    project.write('.claude/settings.json', text({ hooks: { PreToolUse: [{ matcher: 5, hooks: [deny] }] } }));
    try {
      const settings = text({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [cmd(`echo '{"systemMessage":"from the hook"}'`), cmd('echo oops >&2; exit 1')] },
          ],
        },
      });
      const result = await runCli(['fire', 'PreToolUse', '--output', 'claude', '--settings', settings], {
        stdin: project.input('PreToolUse.tool_name-Bash'),
        env: project.env(),
      });
      assert.equal(result.code, 0, result.stderr);
      const message = (JSON.parse(result.stdout) as { systemMessage: string }).systemMessage;
      assert.match(
        message,
        /^from the hook\nperi-hooks: policy not enforced, it did not load:\n- [^\n]*"matcher" must be a string[\s\S]*\nPreToolUse hook error: \[echo oops >&2; exit 1\]: [^\n]*oops/,
      );
    } finally {
      rmSync(join(project.dir, '.claude', 'settings.json'), { force: true });
    }
  });
});

// Issue 29 item 3: an empty policy was an empty configuration, even the one the user named.
describe('an empty or blank settings file', () => {
  const fire = (args: string[]) =>
    runCli(['fire', 'PreToolUse', '--output', 'claude', ...args], {
      stdin: project.input('PreToolUse.tool_name-Bash'),
      env: project.env(),
    });

  test('found by discovery: an empty configuration, silent, also under --fail-closed', async () => {
    const settings = project.write('.claude/settings.json', ' \n');
    try {
      for (const extra of [[], ['--fail-closed']])
        assert.deepEqual(await fire(extra).then(({ code, stdout, stderr }) => [code, stdout, stderr]), [0, '', '']);
    } finally {
      rmSync(settings);
    }
  });

  test('named with --settings, without hooks but with settings of its own (allowedHttpHookUrls for another policy): no finding', async () => {
    const settings = project.write('urls.json', { allowedHttpHookUrls: ['http://127.0.0.1:*'] });
    for (const extra of [[], ['--fail-closed']])
      assert.deepEqual(
        await fire(['--settings', settings, '--setting-sources', '', ...extra]).then(({ code, stdout }) => [
          code,
          stdout,
        ]),
        [0, ''],
      );
  });

  for (const [shape, text] of [
    ['empty', ''],
    ['blank', ' \n\t\n'],
    ['without hooks', '{}'],
    ['with no hook in its events', '{"hooks": {"PreToolUse": []}}'],
  ] as const) {
    test(`named with --settings and ${shape}: said to the user, and a block under --fail-closed`, async () => {
      const policy = project.write('policy.json', text);
      const open = await fire(['--settings', policy, '--setting-sources', '']);
      assert.equal(open.code, 0, open.stderr);
      assert.equal(open.stderr, '');
      assert.match(
        JSON.parse(open.stdout).systemMessage,
        new RegExp(
          `not enforced[\\s\\S]*the --settings file ${policy} ${text.trim() === '' ? 'is empty' : 'holds no hooks'}: none of its policy is enforced`,
        ),
      );
      const closed = await fire(['--settings', policy, '--setting-sources', '', '--fail-closed']);
      assert.equal(closed.code, 2);
      assert.match(closed.stderr, /holds no hooks|is empty/);
      assert.match(closed.stderr, /blocking because of --fail-closed/);
    });
  }
});
