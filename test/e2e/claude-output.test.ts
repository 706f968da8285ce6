// `--output claude` as a process: the exit code and the stderr Claude Code reads, the flags that split a policy's
// async hooks. What each answer holds, row by row, is test/report/claude.test.ts's (in process).

import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
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

test('a block by exit 2 stays an exit 2 with the same stderr', async () => {
  const result = await claude(
    'PreToolUse',
    'PreToolUse.tool_name-Bash',
    [cmd('echo "no rm here" >&2; exit 2')],
    'Bash',
  );
  assert.deepEqual([result.code, result.stdout, result.stderr], [2, '', 'no rm here\n']);
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
