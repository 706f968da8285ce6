// `peri-hooks fire` end to end: real hook scripts in a temporary project, the CLI as a real process,
// real Claude Code 2.1.332 payloads as inputs: process trees, signals, flags, bad input. What each event's hooks
// decide is test/fire.test.ts's (the same firings, in process).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

/** Writes the project's settings and fires the event with the fixture input. */
async function fireWith(
  event: string,
  fixture: string,
  hooks: Record<string, unknown>,
  args: string[] = [],
  overrides: Record<string, unknown> = {},
) {
  project.write('.claude/settings.json', { hooks });
  return runCli(['fire', event, ...args], { stdin: project.input(fixture, overrides), env: project.env() });
}

/** A sleep whose command line no other process has, so pgrep finds exactly the hook's processes. */
let sleeps = 0;
const uniqueSleep = () => `sleep 30.${process.pid}${++sleeps}`;

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
const bash = (matcher: string, ...hooks: object[]) => ({ PreToolUse: [{ matcher, hooks }] });

describe('timeouts and process trees', () => {
  test('a hook that forks a child holding stdout is killed at its timeout, with no survivors', async () => {
    const tag = uniqueSleep();
    const script = project.write('hooks/fork.sh', `#!/bin/sh\n(${tag}) &\n${tag}\n`);
    const result = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', bash('Bash', cmd(script, { timeout: 1 })));
    assert.equal(result.code, 0);
    // Generous margin: the timeout is 1 s and the children sleep 30 s.
    assert.ok(result.durationMs < 15_000, `took ${result.durationMs} ms`);
    assert.throws(() => execFileSync('pgrep', ['-f', tag]), 'no process of the hook survives');
    assert.match(result.stderr, /timed out/);
  });

  test('a background child that keeps stdout open does not hang the firing', async () => {
    const tag = uniqueSleep();
    const script = project.write(
      'hooks/bg.sh',
      `#!/bin/sh\n(${tag}) &\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"bg"}}'\n`,
    );
    const result = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', bash('Bash', cmd(script)));
    assert.equal(result.code, 2);
    assert.ok(result.durationMs < 15_000);
    assert.throws(() => execFileSync('pgrep', ['-f', tag]));
  });

  test('SIGTERM to peri-hooks leaves no hook process behind', async () => {
    const tag = uniqueSleep();
    const started = `${project.dir}/started-${Date.now()}`;
    const script = project.write('hooks/long.sh', `#!/bin/sh\ntouch ${started}\n${tag}\n`);
    project.write('.claude/settings.json', { hooks: bash('Bash', cmd(script)) });
    const { spawn } = await import('node:child_process');
    const { cliCommand } = await import('../helpers/cli.ts');
    const [command, prefix] = cliCommand();
    const child = spawn(command, [...prefix, 'fire', 'PreToolUse'], {
      env: project.env(),
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const closed = new Promise((resolve) => child.on('close', resolve));
    child.stdin.end(project.input('PreToolUse.tool_name-Bash'));
    const { existsSync } = await import('node:fs');
    for (let i = 0; i < 300 && !existsSync(started); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(existsSync(started), 'the hook started');
    child.kill('SIGTERM');
    await closed;
    for (let i = 0; i < 40; i++) {
      try {
        execFileSync('pgrep', ['-f', tag]);
      } catch {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.throws(() => execFileSync('pgrep', ['-f', tag]));
  });
});

describe('settings sources', () => {
  test('every source runs, in configuration order; the same handler in two sources runs once', async () => {
    const log = `${project.dir}/order.log`;
    const line = (name: string) => cmd(`echo ${name} >> ${log}`);
    const shared = cmd(`echo shared >> ${log}`);
    project.writeHome('.claude/settings.json', { hooks: { Stop: [{ hooks: [line('user'), shared] }] } });
    project.write('.claude/settings.local.json', { hooks: { Stop: [{ hooks: [line('local')] }] } });
    project.writeManaged('managed-settings.json', { hooks: { Stop: [{ hooks: [line('managed'), shared] }] } });
    project.write('plugin/hooks/hooks.json', { hooks: { Stop: [{ hooks: [line('plugin'), shared] }] } });
    const flag = project.write('flag.json', { hooks: { Stop: [{ hooks: [line('flag')] }] } });
    const result = await fireWith('Stop', 'Stop', { Stop: [{ hooks: [line('project')] }] }, [
      '--settings',
      flag,
      '--plugin-dir',
      `${project.dir}/plugin`,
      '--output',
      'json',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    const ran = report.hooks
      .filter((hook: { status: string }) => hook.status === 'ran')
      .map((hook: { layer: string; label: string }) => `${hook.layer}:${hook.label.split(' ')[1]}`);
    // The later (managed) copy of the shared handler survives; plugin copies stay apart (§9.2).
    assert.deepEqual(ran, [
      'user:user',
      'project:project',
      'local:local',
      'flag:flag',
      'managed:managed',
      'managed:shared',
      'plugin:plugin',
      'plugin:shared',
    ]);
    const deduplicated = report.hooks.filter((hook: { skipReason?: string }) => hook.skipReason === 'deduplicated');
    assert.deepEqual(
      deduplicated.map((hook: { layer: string }) => hook.layer),
      ['user'],
    );
    const lines = execFileSync('cat', [log], { encoding: 'utf8' }).trim().split('\n').sort();
    assert.deepEqual(lines, ['flag', 'local', 'managed', 'plugin', 'project', 'shared', 'shared', 'user']);
    execFileSync('rm', [
      '-rf',
      log,
      `${project.home}/.claude`,
      `${project.managed}/managed-settings.json`,
      `${project.dir}/.claude/settings.local.json`,
    ]);
  });

  test('a broken entry costs only itself, with a located warning', async () => {
    project.write(
      '.claude/settings.json',
      '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [ { "type": "command", "command": "echo kept >&2; exit 2" } ] },\n      { "hooks": [ { "type": "command", "command": "x", "timeout": "soon" } ] }\n    ]\n  }\n}\n',
    );
    const result = await runCli(['fire', 'Stop'], { stdin: project.input('Stop'), env: project.env() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /kept/);
    assert.match(result.stderr, /settings\.json:5:\d+ \(\/hooks\/Stop\/1\/hooks\/0(\/timeout)?\)/);
  });

  test("--setting-sources '' loads only --settings", async () => {
    project.write('.claude/settings.json', { hooks: bash('Bash', cmd('exit 2')) });
    const result = await runCli(
      [
        'fire',
        'PreToolUse',
        '--setting-sources',
        '',
        '--settings',
        JSON.stringify({ hooks: bash('Bash', cmd('echo flag-only >&2; exit 2')) }),
      ],
      { stdin: project.input('PreToolUse.tool_name-Bash'), env: project.env() },
    );
    assert.equal(result.code, 2);
    assert.match(result.stderr, /flag-only/);
    const none = await runCli(['fire', 'PreToolUse', '--setting-sources', ''], {
      stdin: project.input('PreToolUse.tool_name-Bash'),
      env: project.env(),
    });
    assert.equal(none.code, 0);
  });
});

describe('bad input and usage', () => {
  const env = () => project.env();
  test('unknown or mis-cased event: exit 1 with a suggestion', async () => {
    const result = await runCli(['fire', 'pretooluse'], { stdin: '{}', env: env() });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /did you mean PreToolUse\?/);
    assert.doesNotMatch(result.stderr, /at .*\.ts:\d+/);
  });

  for (const [name, stdin, pattern] of [
    ['empty stdin', '', /no hook input on stdin/],
    ['invalid JSON', '{"session_id": ', /not valid JSON/],
    ['a non-object', '[1,2]', /is an array, not a JSON object/],
    [
      'a mismatched hook_event_name',
      JSON.stringify({ session_id: 's', transcript_path: '', cwd: '/', hook_event_name: 'Stop' }),
      /hook_event_name "Stop" but the event fired is PreToolUse/,
    ],
    [
      'a missing field',
      JSON.stringify({
        session_id: 's',
        transcript_path: '',
        cwd: '/',
        hook_event_name: 'PreToolUse',
        tool_input: {},
        tool_use_id: 'x',
      }),
      /\$\.tool_name/,
    ],
  ] as const) {
    test(`${name}: exit 1 and a clear message`, async () => {
      const result = await runCli(['fire', 'PreToolUse'], { stdin, env: env() });
      assert.equal(result.code, 1);
      assert.match(result.stderr, pattern);
      assert.match(result.stderr, /fix: /);
    });
  }

  test('an input file that is not valid JSON is named in the error', async () => {
    const file = project.write('bad-input.json', '{"session_id": ');
    const result = await runCli(['fire', 'PreToolUse', '--input', file], { env: env() });
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`the hook input on ${file.replaceAll('.', '\\.')} is not valid JSON`));
  });

  test('--fail-closed turns a runner error into a block', async () => {
    const result = await runCli(['fire', 'PreToolUse', '--fail-closed'], { stdin: '', env: env() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /fail-closed/);
  });

  test('unknown fields in the input reach the hook untouched', async () => {
    const seen = `${project.dir}/extra.json`;
    const input = JSON.parse(project.input('PreToolUse.tool_name-Bash'));
    const result = await runCli(
      [
        'fire',
        'PreToolUse',
        '--setting-sources',
        '',
        '--settings',
        JSON.stringify({ hooks: bash('Bash', cmd(`cat > ${seen}`)) }),
      ],
      { stdin: JSON.stringify({ ...input, future_field: { nested: [1, 2] } }), env: env() },
    );
    assert.equal(result.code, 0);
    assert.deepEqual(JSON.parse(execFileSync('cat', [seen], { encoding: 'utf8' })), {
      ...input,
      future_field: { nested: [1, 2] },
    });
  });

  test('recursion guard: a nested peri-hooks stops with a clear error', async () => {
    const result = await runCli(['fire', 'Stop'], {
      stdin: project.input('Stop'),
      env: project.env({ PERI_HOOKS_DEPTH: '3' }),
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /nested 3 levels deep/);
  });
});
