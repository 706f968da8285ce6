// Session state across firings: the Stop guard, once and sequential groups through fire() in process; the CLI as
// real processes where they are the point (concurrent firings of one session, async hooks and their supervisors,
// the state command). A temporary state dir per test.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readStoredSession } from '../../src/session/store.ts';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';
import { fireAnswer, type Output } from '../helpers/fire.ts';
import { assertDocument } from '../helpers/json-schema.ts';
import { until } from '../helpers/wait.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => {
  killTagged();
  project.cleanup();
});

let states = 0;
/** A fresh state dir (and so fresh sessions) for each test. */
function stateEnv(extra: Record<string, string> = {}): Record<string, string> {
  const dir = mkdtempSync(path.join(project.dir, `state-${++states}-`));
  return project.env({ PERI_HOOKS_STATE_DIR: dir, ...extra });
}

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });

/** The CLI as a process: where processes racing on one session, or a supervisor process, is the point. */
function fireCli(
  event: string,
  fixture: string,
  hooks: Record<string, unknown>,
  env: Record<string, string>,
  args: string[] = [],
  overrides: Record<string, unknown> = {},
) {
  return runCli(['fire', event, '--setting-sources', '', '--settings', JSON.stringify({ hooks }), ...args], {
    stdin: project.input(fixture, overrides),
    env,
  });
}

/** `fire <event> --setting-sources '' --settings <hooks> [--output …] [--no-state] [--sequential]`, in process. */
function fireWith(
  event: string,
  fixture: string,
  hooks: Record<string, unknown>,
  env: Record<string, string>,
  args: string[] = [],
  overrides: Record<string, unknown> = {},
) {
  const output = args.includes('--output') ? (args[args.indexOf('--output') + 1] as Output) : 'decision';
  const unknown = args.filter(
    (arg, index) =>
      !['--no-state', '--sequential', '--output', output].includes(arg) ||
      (arg === output && args[index - 1] !== '--output'),
  );
  if (unknown.length > 0) throw new Error(`fireWith runs in process: no ${unknown.join(' ')}`);
  return fireAnswer(event, project.input(fixture, overrides), output, {
    settingSources: [],
    settings: [JSON.stringify({ hooks })],
    env,
    home: project.home,
    ...(args.includes('--no-state') ? { noState: true } : {}),
    ...(args.includes('--sequential') ? { sequential: true } : {}),
  });
}

/** What `peri-hooks state <session>` prints, parsed. */
async function stateCommand(sessionId: string, env: Record<string, string>) {
  const result = await runCli(['state', sessionId], { env });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** The session state as `peri-hooks state` reads it, in process (the command's document: stateCommand). */
async function stateOf(sessionId: string, env: Record<string, string>) {
  const read = await readStoredSession({ dir: env.PERI_HOOKS_STATE_DIR!, sessionId });
  assert.equal(read.warning, undefined);
  return read.state;
}

const sessionOf = (fixture: string) => JSON.parse(project.input(fixture)).session_id as string;

/** Sleeps whose command line no other process has, so pgrep finds exactly the hooks' processes. */
const tags: string[] = [];
function uniqueSleep(): string {
  const tag = `sleep 30.${process.pid}${tags.length + 1}7`;
  tags.push(tag);
  return tag;
}
function pids(tag: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', tag], { encoding: 'utf8' }).trim().split('\n').map(Number);
  } catch {
    return [];
  }
}
function killTagged(): void {
  for (const tag of tags)
    for (const pid of pids(tag)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
}

const block = cmd('echo "keep going" >&2; exit 2');

describe('Stop loop guard', () => {
  test('blocks up to the cap are honoured, the one past it is overridden with a reason, and the count starts again', async () => {
    const env = stateEnv({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '2' });
    for (let i = 1; i <= 2; i++)
      assert.equal((await fireWith('Stop', 'Stop', { Stop: [{ hooks: [block] }] }, env)).code, 2, `block ${i}`);
    const third = await fireWith('Stop', 'Stop', { Stop: [{ hooks: [block] }] }, env, ['--output', 'json']);
    assert.equal(third.code, 0);
    const report = JSON.parse(third.stdout);
    assert.equal(report.blocked, false);
    assert.deepEqual(report.stopGuard, { count: 0, cap: 2, overridden: true, message: report.stopGuard.message });
    assert.match(report.output.systemMessage, /3 consecutive times/);
    const again = await fireWith(
      'Stop',
      'Stop',
      { Stop: [{ hooks: [block] }] },
      project.env({ PERI_HOOKS_STATE_DIR: env.PERI_HOOKS_STATE_DIR! }),
      ['--output', 'json'],
    );
    assert.equal(again.code, 2, 'counting starts again');
    assert.deepEqual(
      JSON.parse(again.stdout).stopGuard,
      { count: 1, cap: 8, overridden: false, message: null },
      'the default cap is 8',
    );
  });

  test('a non-blocking result resets the count; CLAUDE_CODE_STOP_HOOK_BLOCK_CAP sets the cap, 0 turns it off', async () => {
    const env = stateEnv({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '2' });
    const session = sessionOf('Stop');
    for (const expected of [2, 2])
      assert.equal((await fireWith('Stop', 'Stop', { Stop: [{ hooks: [block] }] }, env)).code, expected);
    assert.equal((await stateOf(session, env)).stopBlocks.main, 2);
    assert.equal((await fireWith('Stop', 'Stop', { Stop: [{ hooks: [cmd('true')] }] }, env)).code, 0);
    assert.equal((await stateOf(session, env)).stopBlocks.main, undefined);
    for (const expected of [2, 2, 0])
      assert.equal((await fireWith('Stop', 'Stop', { Stop: [{ hooks: [block] }] }, env)).code, expected);
    const json = cmd(`echo '{"decision":"block","reason":"json block"}'`);
    const uncapped = { ...env, CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' };
    for (let i = 0; i < 4; i++)
      assert.equal((await fireWith('Stop', 'Stop', { Stop: [{ hooks: [json] }] }, uncapped)).code, 2);
    assert.equal((await stateOf(session, env)).stopBlocks.main, 4);
  });

  test('any other firing of the session (a tool call) starts the count again', async () => {
    const env = stateEnv({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '2' });
    const session = sessionOf('Stop');
    for (const expected of [2, 2])
      assert.equal((await fireWith('Stop', 'Stop', { Stop: [{ hooks: [block] }] }, env)).code, expected);
    assert.equal(
      (
        await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', { PreToolUse: [{ hooks: [cmd('true')] }] }, env, [], {
          session_id: session,
        })
      ).code,
      0,
    );
    assert.equal((await stateOf(session, env)).stopBlocks.main, undefined);
    for (const expected of [2, 2, 0])
      assert.equal((await fireWith('Stop', 'Stop', { Stop: [{ hooks: [block] }] }, env)).code, expected);
  });

  test('--output claude passes every block through: Claude Code applies its own cap', async () => {
    const env = stateEnv({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '1' });
    for (let i = 1; i <= 3; i++) {
      const result = await fireWith('Stop', 'Stop', { Stop: [{ hooks: [block] }] }, env, ['--output', 'claude']);
      assert.deepEqual([result.code, result.stderr], [2, 'keep going\n'], `block ${i}`);
    }
    assert.deepEqual((await stateOf(sessionOf('Stop'), env)).stopBlocks, {});
  });

  test('Stop additionalContext counts as a continuation', async () => {
    const env = stateEnv({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '1' });
    const context = cmd(`echo '{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"also run lint"}}'`);
    const first = await fireWith('Stop', 'Stop', { Stop: [{ hooks: [context] }] }, env);
    assert.equal(JSON.parse(first.stdout).hookSpecificOutput.additionalContext, 'also run lint');
    const second = await fireWith('Stop', 'Stop', { Stop: [{ hooks: [context] }] }, env);
    assert.equal(JSON.parse(second.stdout).hookSpecificOutput, undefined);
    assert.match(second.stderr, /2 consecutive times/);
  });

  test('SubagentStop counts per agent_id', async () => {
    const env = stateEnv({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '1' });
    const hooks = { SubagentStop: [{ hooks: [block] }] };
    assert.equal((await fireWith('SubagentStop', 'SubagentStop', hooks, env, [], { agent_id: 'a' })).code, 2);
    assert.equal((await fireWith('SubagentStop', 'SubagentStop', hooks, env, [], { agent_id: 'b' })).code, 2);
    assert.equal((await fireWith('SubagentStop', 'SubagentStop', hooks, env, [], { agent_id: 'a' })).code, 0);
    assert.deepEqual((await stateOf(sessionOf('SubagentStop'), env)).stopBlocks, { 'agent:b': 1 });
  });

  test('50 concurrent blocking Stop firings of one session count exactly 50', async () => {
    const env = stateEnv({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => fireCli('Stop', 'Stop', { Stop: [{ hooks: [block] }] }, env)),
    );
    assert.deepEqual(
      results.filter((result) => result.code !== 2).map((result) => result.stderr),
      [],
    );
    assert.equal((await stateOf(sessionOf('Stop'), env)).stopBlocks.main, 50);
  });
});

describe('once', () => {
  test('a once hook runs once per session, then is skipped as once; a failed run does not count', async () => {
    const env = stateEnv();
    const log = path.join(project.dir, `once-${states}.log`);
    const flaky = path.join(project.dir, `flaky-${states}`);
    const hooks = {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            cmd(`echo ran >> ${log}`, { once: true }),
            cmd(`test -e ${flaky} || { touch ${flaky}; exit 1; }; echo flaky >> ${log}`, { once: true }),
          ],
        },
      ],
    };
    for (let i = 0; i < 3; i++) {
      const result = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', hooks, env, ['--output', 'json']);
      assert.equal(result.code, 0, result.stderr);
      if (i === 2)
        assert.deepEqual(
          JSON.parse(result.stdout).hooks.map((hook: { skipReason?: string }) => hook.skipReason),
          ['once', 'once'],
        );
    }
    assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), ['ran', 'flaky']);
  });

  test('20 concurrent firings with a once hook run it exactly once', async () => {
    const env = stateEnv();
    const log = path.join(project.dir, `once-many-${states}.log`);
    const hooks = { PostToolUse: [{ hooks: [cmd(`echo ran >> ${log}`, { once: true })] }] };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => fireCli('PostToolUse', 'PostToolUse', hooks, env)),
    );
    assert.deepEqual(
      results.filter((result) => result.code !== 0).map((result) => result.stderr),
      [],
    );
    assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), ['ran']);
  });

  test('--no-state remembers nothing: the once hook runs every time and no state is written', async () => {
    const env = stateEnv();
    const log = path.join(project.dir, `nostate-${states}.log`);
    const hooks = { PostToolUse: [{ hooks: [cmd(`echo ran >> ${log}`, { once: true })] }], Stop: [{ hooks: [block] }] };
    for (let i = 0; i < 2; i++)
      assert.equal((await fireWith('PostToolUse', 'PostToolUse', hooks, env, ['--no-state'])).code, 0);
    const capped = { ...env, CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '1' };
    for (let i = 0; i < 3; i++) assert.equal((await fireWith('Stop', 'Stop', hooks, capped, ['--no-state'])).code, 2);
    assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), ['ran', 'ran']);
    assert.deepEqual(readdirSync(env.PERI_HOOKS_STATE_DIR!), []);
  });
});

describe('async hooks', () => {
  test('an async hook runs in the background; the next firing delivers its messages, exactly once', async () => {
    const env = stateEnv();
    const done = path.join(project.dir, `async-done-${states}`);
    const hook = cmd(
      `cat > /dev/null; echo '{"systemMessage":"lint finished","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"2 warnings"}}'; touch ${done}`,
      { async: true },
    );
    const first = await fireCli('PostToolUse', 'PostToolUse', { PostToolUse: [{ hooks: [hook] }] }, env, [
      '--output',
      'json',
    ]);
    assert.equal(first.code, 0, first.stderr);
    const report = JSON.parse(first.stdout);
    assert.equal(report.output, null, 'an async hook never decides the firing that started it');
    assert.equal(report.hooks[0].skipReason, 'background');
    const session = sessionOf('PostToolUse');
    await until('the async result', async () => (await stateCommand(session, env)).results.length === 1);
    const quiet = { PostToolUse: [{ hooks: [cmd('true')] }] };
    const second = await fireCli('PostToolUse', 'PostToolUse', quiet, env);
    assert.deepEqual(JSON.parse(second.stdout), {
      systemMessage: 'lint finished',
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: '2 warnings' },
    });
    const third = await fireCli('PostToolUse', 'PostToolUse', quiet, env);
    assert.equal(third.stdout, '', 'delivered once');
  });

  test('asyncRewake: an exit 2 is delivered as the blocking-error reminder', async () => {
    const env = stateEnv();
    const hook = cmd('echo "tests failed" >&2; exit 2', { asyncRewake: true });
    assert.equal((await fireCli('PostToolUse', 'PostToolUse', { PostToolUse: [{ hooks: [hook] }] }, env)).code, 0);
    const state = await until('the rewake result', async () => {
      const read = await stateCommand(sessionOf('PostToolUse'), env);
      return read.results.length === 1 && read;
    });
    // The stored result and the delivered one carry every key: those it has nothing for are null.
    assertDocument('state', state);
    assert.equal(state.results[0].systemMessage, null);
    const next = await fireCli('UserPromptSubmit', 'UserPromptSubmit', {}, env, ['--output', 'json']);
    const report = JSON.parse(next.stdout);
    const reminder = 'Stop hook blocking error from command "echo "tests failed" >&2; exit 2": tests failed';
    assert.equal(report.output.hookSpecificOutput.additionalContext, reminder);
    assertDocument('report', report);
    assert.deepEqual(
      report.delivered.map((result: { rewake: string; additionalContext: null }) => [
        result.rewake,
        result.additionalContext,
      ]),
      [[reminder, null]],
    );
  });

  test('an async hook that outlives its timeout is killed with its process tree', async () => {
    const env = stateEnv();
    const tag = uniqueSleep();
    const started = path.join(project.dir, `async-started-${states}`);
    const hook = cmd(`touch ${started}; (${tag}) & ${tag}`, { async: true, timeout: 1 });
    const result = await fireCli('PostToolUse', 'PostToolUse', { PostToolUse: [{ hooks: [hook] }] }, env);
    assert.equal(result.code, 0);
    await until('the hook to start', () => existsSync(started));
    // The sleeps last 30 s: gone within 20 s means the 1 s timeout killed them.
    await until('the hook and its child to be killed', () => pids(tag).length === 0);
  });

  test('a hook that prints {"async": true} first moves to the background; its answer comes with the next firing', async () => {
    const env = stateEnv();
    const gate = path.join(project.dir, `gate-${states}`);
    const hook = cmd(
      `echo '{"async":true,"asyncTimeout":20000}'; while [ ! -e ${gate} ]; do sleep 0.05; done; echo '{"systemMessage":"background done"}'`,
    );
    const first = await fireCli('PostToolUse', 'PostToolUse', { PostToolUse: [{ hooks: [hook] }] }, env, [
      '--output',
      'json',
    ]);
    // The firing returned while the hook still waits for the gate: it did not wait for it.
    assert.equal(first.code, 0, first.stderr);
    assert.equal(JSON.parse(first.stdout).hooks[0].skipReason, 'background');
    writeFileSync(gate, '');
    await until(
      "the adopted hook's result",
      async () => (await stateCommand(sessionOf('PostToolUse'), env)).results.length === 1,
    );
    const next = await fireCli('PostToolUse', 'PostToolUse', {}, env);
    assert.deepEqual(JSON.parse(next.stdout), { systemMessage: 'background done' });
  });
});

describe('sequential groups', () => {
  const rewrite = (command: string) =>
    `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"${command}"}}}'`;

  test("hook 2 sees hook 1's updatedInput; hook 3 never runs after hook 2 blocks", async () => {
    const env = stateEnv();
    const seen = path.join(project.dir, `seen-${states}.json`);
    const third = path.join(project.dir, `third-${states}`);
    const hooks = {
      PreToolUse: [
        {
          matcher: 'Bash',
          sequential: true,
          hooks: [cmd(rewrite('echo rewritten')), cmd(`cat > ${seen}; echo "no" >&2; exit 2`), cmd(`touch ${third}`)],
        },
      ],
    };
    const result = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', hooks, env, ['--output', 'json']);
    assert.equal(result.code, 2);
    assert.equal(JSON.parse(readFileSync(seen, 'utf8')).tool_input.command, 'echo rewritten');
    assert.equal(existsSync(third), false);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(
      report.hooks.map((hook: { status: string; skipReason?: string }) => hook.skipReason ?? hook.status),
      ['ran', 'ran', 'short-circuit'],
    );
  });

  test('modifications accumulate; without "sequential" the hooks see the original input; --sequential orders a whole firing', async () => {
    const env = stateEnv();
    const seen = path.join(project.dir, `seen2-${states}.json`);
    const chain = [cmd(rewrite('one')), cmd(`cat > ${seen}; ${rewrite('two').replace('cat > /dev/null; ', '')}`)];
    const sequential = await fireWith(
      'PreToolUse',
      'PreToolUse.tool_name-Bash',
      { PreToolUse: [{ matcher: 'Bash', sequential: true, hooks: chain }] },
      env,
    );
    assert.equal(JSON.parse(readFileSync(seen, 'utf8')).tool_input.command, 'one');
    assert.equal(JSON.parse(sequential.stdout).hookSpecificOutput.updatedInput.command, 'two');
    await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', { PreToolUse: [{ matcher: 'Bash', hooks: chain }] }, env);
    assert.equal(JSON.parse(readFileSync(seen, 'utf8')).tool_input.command, 'touch MARKER && echo hi');
    await fireWith(
      'PreToolUse',
      'PreToolUse.tool_name-Bash',
      { PreToolUse: [{ matcher: 'Bash', hooks: [chain[0]] }, { hooks: [chain[1]] }] },
      env,
      ['--sequential'],
    );
    assert.equal(JSON.parse(readFileSync(seen, 'utf8')).tool_input.command, 'one');
  });
});

describe('the state file and command', () => {
  test('a corrupt state file is a warning; the firing goes on as if the session were new', async () => {
    const env = stateEnv();
    const session = sessionOf('Stop');
    writeFileSync((await stateCommand(session, env)).file, '{"version": 1, "sessionId": ');
    const result = await fireCli('Stop', 'Stop', { Stop: [{ hooks: [block] }] }, env);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /session state .* is corrupt .*as if the session were new/);
    assert.equal((await stateCommand(session, env)).stopBlocks.main, 1);
  });

  test('peri-hooks state prints a new session as empty, with --state-dir', async () => {
    const env = stateEnv();
    const result = await runCli(['state', 'never-seen', '--state-dir', env.PERI_HOOKS_STATE_DIR!], {
      env: project.env(),
    });
    assert.equal(result.code, 0);
    assert.deepEqual(
      { ...JSON.parse(result.stdout), file: undefined, updatedAt: undefined },
      {
        schemaVersion: 1,
        version: 1,
        sessionId: 'never-seen',
        once: {},
        stopBlocks: {},
        results: [],
        file: undefined,
        updatedAt: undefined,
      },
    );
    assert.match(result.stderr, /no state kept for session "never-seen"/);
  });
});
