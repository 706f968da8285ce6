// Command hooks as processes (spec §5.2, §9.4): shells, environment, plugin variables, stdin, output bounds.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });

async function fireStop(
  hooks: object[],
  args: string[] = [],
  env: Record<string, string> = {},
  overrides: Record<string, unknown> = {},
) {
  const settings = JSON.stringify({ hooks: { Stop: [{ hooks }] } });
  return runCli(
    ['fire', 'Stop', '--setting-sources', '', '--settings', settings, '--no-state', '--output', 'json', ...args],
    { stdin: project.input('Stop', overrides), env: project.env(env) },
  );
}

const stderrOf = (report: { hooks: Array<{ stderr?: string }> }, index = 0) => report.hooks[index]!.stderr!.trim();

test('shell form runs under /bin/sh; "shell": "bash" runs under bash', async () => {
  // Different commands: with the same command the two would be one handler (the key's shell defaults to bash, §9.2).
  const result = await fireStop([
    cmd('echo "${BASH_VERSION:-no bash}" >&2'),
    cmd('echo "${BASH_VERSION:-no bash}" >&2 # bash', { shell: 'bash' }),
  ]);
  const report = JSON.parse(result.stdout);
  assert.equal(stderrOf(report, 0), 'no bash');
  assert.match(stderrOf(report, 1), /^\d+\.\d+/);
});

test('CLAUDE_CODE_SHELL_PREFIX wraps shell-form commands with the command as one argument', async () => {
  const prefix = project.write('prefix.sh', '#!/bin/sh\necho "prefix got: $1" >&2\nexec /bin/sh -c "$1"\n');
  const result = await fireStop([cmd('echo "it\'s run" >&2')], [], { CLAUDE_CODE_SHELL_PREFIX: prefix });
  assert.deepEqual(stderrOf(JSON.parse(result.stdout)).split('\n'), ['prefix got: echo "it\'s run" >&2', "it's run"]);
});

test('plugin hooks get CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA, substituted in exec form', async () => {
  const plugin = `${project.dir}/plugins/guard`;
  project.write('plugins/guard/.claude-plugin/plugin.json', { name: 'guard' });
  project.write('plugins/guard/hooks/hooks.json', {
    hooks: {
      Stop: [
        {
          hooks: [
            cmd('echo "$CLAUDE_PLUGIN_ROOT|$CLAUDE_PLUGIN_DATA" >&2'),
            { type: 'command', command: 'echo', args: ['${CLAUDE_PLUGIN_ROOT}/x'] },
          ],
        },
      ],
    },
  });
  const result = await runCli(
    ['fire', 'Stop', '--setting-sources', '', '--plugin-dir', plugin, '--no-state', '--output', 'json'],
    { stdin: project.input('Stop'), env: project.env() },
  );
  const report = JSON.parse(result.stdout);
  assert.equal(stderrOf(report, 0), `${plugin}|${project.home}/.claude/plugins/data/guard`);
  assert.equal(report.hooks[1].stdout.trim(), `${plugin}/x`);
  assert.equal(report.hooks[0].plugin, 'guard');
});

test("${CLAUDE_PLUGIN_ROOT} in a hook that is not a plugin's fails, naming the hook", async () => {
  const result = await fireStop([cmd('${CLAUDE_PLUGIN_ROOT}/check.sh')]);
  const report = JSON.parse(result.stdout);
  assert.equal(report.hooks[0].outcome, 'non_blocking_error');
  assert.match(report.hooks[0].error, /only available in hooks defined in a plugin/);
});

test('a hook that never reads a large stdin is fine', async () => {
  const big = 'x'.repeat(512 * 1024);
  const result = await fireStop([cmd('echo stop >&2; exit 2')], [], {}, { last_assistant_message: big });
  const report = JSON.parse(result.stdout);
  assert.equal(report.blocked, true);
  assert.equal(report.reason, 'stop');
});

test('output beyond 10 MiB is cut, and the report says so', async () => {
  const result = await fireStop([cmd('head -c 11000000 /dev/zero | tr "\\0" a')]);
  const report = JSON.parse(result.stdout);
  assert.equal(report.hooks[0].stdout.length, 10 * 1024 * 1024);
  assert.deepEqual(report.hooks[0].truncated, { stdout: true, stderr: false });
  assert.ok(report.warnings.some((warning: { code: string }) => warning.code === 'output-truncated'));
});

test('a missing input cwd falls back to another folder, with a warning', async () => {
  const result = await fireStop([cmd('pwd >&2')], [], {}, { cwd: `${project.dir}/gone` });
  const report = JSON.parse(result.stdout);
  assert.notEqual(stderrOf(report), `${project.dir}/gone`);
  assert.ok(
    report.warnings.some((warning: { message: string }) => /does not exist; hooks run in/.test(warning.message)),
  );
});

test("the hook sees CLAUDE_PROJECT_DIR, CLAUDE_CODE_SESSION_ID and CLAUDE_EFFORT, and the caller's environment", async () => {
  const result = await fireStop(
    [cmd('echo "$CLAUDE_PROJECT_DIR|$CLAUDE_CODE_SESSION_ID|$CLAUDE_EFFORT|$TEAM_VAR" >&2')],
    ['--project-dir', project.dir],
    { TEAM_VAR: 'team' },
  );
  const input = JSON.parse(project.input('Stop'));
  assert.equal(stderrOf(JSON.parse(result.stdout)), `${project.dir}|${input.session_id}|${input.effort.level}|team`);
});
