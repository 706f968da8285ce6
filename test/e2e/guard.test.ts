// A guard that cannot open silently (issue 13): every way a policy could stop being enforced either blocks
// under --fail-closed, is an error, or is said out loud. The CLI as real processes, real temporary projects.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliCommand, makeProject, type Project, runCli } from '../helpers/cli.ts';
import { until } from '../helpers/wait.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const deny = { type: 'command', command: 'cat >/dev/null; echo "no rm" >&2; exit 2' };
const denyBash = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [deny] }] } };
const bashInput = (overrides: Record<string, unknown> = {}) => project.input('PreToolUse.tool_name-Bash', overrides);
const fire = (event: string, args: string[], stdin: string, env = project.env()) =>
  runCli(['fire', event, '--setting-sources', '', ...args], { stdin, env });

describe('--fail-closed: a policy that does not load blocks', () => {
  test('a --settings file with a trailing comma blocks and says fail-closed caused it; without the flag it warns and goes on', async () => {
    const broken = project.write('policies/trailing-comma.json', '{"hooks":{"PreToolUse":[]},}');
    const closed = await fire('PreToolUse', ['--settings', broken, '--fail-closed'], bashInput());
    assert.equal(closed.code, 2, closed.stderr);
    assert.match(closed.stderr, /not valid JSON/);
    assert.match(closed.stderr, /fail-closed/);
    const open = await fire('PreToolUse', ['--settings', broken], bashInput());
    assert.equal(open.code, 0, open.stderr);
    assert.match(open.stderr, /not valid JSON/);
  });

  test('under --output claude the block reaches Claude Code on stderr with exit 2', async () => {
    const broken = project.write('policies/claude-broken.json', '{"hooks":');
    const result = await fire('PreToolUse', ['--settings', broken, '--fail-closed', '--output', 'claude'], bashInput());
    assert.equal(result.code, 2);
    assert.match(result.stderr, /fail-closed/);
    assert.match(result.stderr, /claude-broken\.json/);
  });

  test('an inapplicable project file blocks under --fail-closed', async () => {
    const sub = makeProject();
    try {
      sub.write('.claude/settings.json', {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' }] }] },
      });
      const result = await runCli(['fire', 'PreToolUse', '--fail-closed', '--project-dir', sub.dir], {
        stdin: sub.input('PreToolUse.tool_name-Bash'),
        env: sub.env(),
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /fail-closed/);
    } finally {
      sub.cleanup();
    }
  });

  test('an unreadable input blocks on an event that can block, and is exit 1 on one that cannot', async () => {
    const blockable = await fire('PreToolUse', ['--fail-closed'], '{"not json');
    assert.equal(blockable.code, 2);
    assert.match(blockable.stderr, /fail-closed/);
    const observe = await fire('Notification', ['--fail-closed'], '{"not json');
    assert.equal(observe.code, 1, 'Notification cannot block: exit 2 would mean nothing there');
  });

  test('a missing named --settings file or --plugin-dir blocks under --fail-closed', async () => {
    const missing = path.join(project.dir, 'policies/mistyped.json');
    const settings = await fire('PreToolUse', ['--settings', missing, '--fail-closed'], bashInput());
    assert.equal(settings.code, 2);
    assert.match(settings.stderr, /mistyped\.json/);
    const plugin = await fire(
      'PreToolUse',
      ['--plugin-dir', path.join(project.dir, 'no-such-plugin'), '--fail-closed'],
      bashInput(),
    );
    assert.equal(plugin.code, 2);
    assert.match(plugin.stderr, /no-such-plugin/);
  });
});

describe('a source the user named is an error when it is missing', () => {
  test('missing --settings file: exit 1, the file named', async () => {
    const result = await fire('PreToolUse', ['--settings', path.join(project.dir, 'typo.json')], bashInput());
    assert.equal(result.code, 1);
    assert.match(result.stderr, /typo\.json/);
  });

  test('missing --plugin-dir: exit 1, the folder named', async () => {
    const result = await fire('PreToolUse', ['--plugin-dir', path.join(project.dir, 'nowhere')], bashInput());
    assert.equal(result.code, 1);
    assert.match(result.stderr, /nowhere/);
  });
});

describe('the project is found from a subfolder cwd', () => {
  test('the nearest ancestor with .claude/settings.json; the report says which rule chose it', async () => {
    const sub = makeProject();
    try {
      sub.write('.claude/settings.json', denyBash);
      mkdirSync(path.join(sub.dir, 'src/deep'), { recursive: true });
      const input = sub.input('PreToolUse.tool_name-Bash', { cwd: path.join(sub.dir, 'src/deep') });
      const result = await runCli(['fire', 'PreToolUse', '--output', 'json'], {
        stdin: input,
        env: sub.env(),
        cwd: sub.dir,
      });
      assert.equal(result.code, 2, result.stderr);
      const report = JSON.parse(result.stdout);
      assert.equal(report.projectDir, sub.dir);
      assert.equal(report.projectDirFrom, 'settings');
      const empty = await runCli(['fire', 'PreToolUse'], { stdin: input, env: sub.env({ CLAUDE_PROJECT_DIR: '' }) });
      assert.equal(empty.code, 2, 'an empty CLAUDE_PROJECT_DIR counts as unset');
    } finally {
      sub.cleanup();
    }
  });

  test('else the git root; never the home folder, whose .claude/settings.json is the user file', async () => {
    const sub = makeProject();
    try {
      execFileSync('git', ['init', '-q', sub.dir]);
      sub.write('.claude/hooks-live-elsewhere.txt', 'no settings here');
      mkdirSync(path.join(sub.dir, 'a/b'), { recursive: true });
      const input = sub.input('PreToolUse.tool_name-Bash', { cwd: path.join(sub.dir, 'a/b') });
      const report = JSON.parse(
        (await runCli(['fire', 'PreToolUse', '--output', 'json'], { stdin: input, env: sub.env() })).stdout,
      );
      assert.equal(report.projectDir, sub.dir);
      assert.equal(report.projectDirFrom, 'git');
      // A cwd under HOME with no project of its own: HOME's .claude is not a project.
      sub.writeHome('.claude/settings.json', { hooks: {} });
      mkdirSync(path.join(sub.home, 'scratch'), { recursive: true });
      const homeInput = sub.input('PreToolUse.tool_name-Bash', { cwd: path.join(sub.home, 'scratch') });
      const homeReport = JSON.parse(
        (await runCli(['fire', 'PreToolUse', '--output', 'json'], { stdin: homeInput, env: sub.env() })).stdout,
      );
      assert.equal(homeReport.projectDir, path.join(sub.home, 'scratch'));
      assert.equal(homeReport.projectDirFrom, 'cwd');
    } finally {
      sub.cleanup();
    }
  });

  test('validate --project-dir of a missing folder is an error', async () => {
    const result = await runCli(['validate', '--project-dir', path.join(project.dir, 'missing-folder')], {
      env: project.env(),
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /missing-folder/);
  });
});

describe('nothing found is said', () => {
  test('--output json names the places searched when no source has a hook for the event', async () => {
    const result = await fire('PreToolUse', ['--output', 'json', '--settings', '{"hooks":{}}'], bashInput());
    assert.equal(result.code, 0);
    const report = JSON.parse(result.stdout);
    assert.ok(Array.isArray(report.noHooksFound?.searched), result.stdout);
    assert.ok(report.noHooksFound.searched.includes('--settings'));
  });
});

describe('hostile input is rejected before any hook runs', () => {
  for (const [field, overrides] of [
    ['session_id', { session_id: 'a\u0000b' }],
    ['cwd', { cwd: `${'/tmp'}\u0000x` }],
    ['effort.level', { effort: { level: 'hi\u0000gh' } }],
  ] as const) {
    test(`a NUL in ${field}: exit 1, the field named`, async () => {
      const result = await fire('PreToolUse', ['--settings', JSON.stringify(denyBash)], bashInput(overrides));
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, new RegExp(field.replace('.', '\\.')));
      assert.doesNotMatch(result.stderr, /internal error/);
    });
  }

  test('an input nested 4,500 deep is invalid input, not an internal error', async () => {
    const deep = `${'['.repeat(4500)}${']'.repeat(4500)}`;
    const input = bashInput().replace(/"tool_input":\{/, `"deep":${deep},"tool_input":{`);
    const result = await fire('PreToolUse', ['--settings', JSON.stringify(denyBash)], input);
    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stderr, /internal error/);
    assert.match(result.stderr, /nest/);
  });
});

describe('pipes', () => {
  test('a reader that goes away does not turn a deny into exit 1', async () => {
    const [command, prefix] = cliCommand('fire');
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        command,
        [...prefix, 'fire', 'PreToolUse', '--setting-sources', '', '--settings', JSON.stringify(denyBash)],
        { env: project.env(), stdio: ['pipe', 'pipe', 'pipe'] },
      );
      child.stdout.destroy();
      child.stderr.resume();
      child.on('close', resolve);
      child.stdin.end(bashInput());
    });
    assert.equal(code, 2);
  });
});

describe('signals: any number of them ends with every hook tree dead', () => {
  let tags = 0;
  const tagged = () => `sleep 40.${process.pid}${++tags}3`;
  const alive = (tag: string) => {
    try {
      // Anchored: peri-hooks' own command line holds the tag too, inside its --settings.
      execFileSync('pgrep', ['-f', `^${tag}`]);
      return true;
    } catch {
      return false;
    }
  };
  const cases: Array<{ name: string; hook: (tag: string) => string; signals: NodeJS.Signals[]; timeout?: number }> = [
    {
      name: 'one SIGTERM, a hook that ignores TERM',
      hook: (tag) => `trap "" TERM; ${tag} & wait`,
      signals: ['SIGTERM'],
    },
    {
      name: 'three SIGTERMs within the grace, a hook that ignores TERM',
      hook: (tag) => `trap "" TERM; ${tag} & wait`,
      signals: ['SIGTERM', 'SIGTERM', 'SIGTERM'],
    },
    {
      name: 'SIGINT then SIGTERM then SIGHUP, a background child holding the pipes',
      hook: (tag) => `${tag} & ${tag}`,
      signals: ['SIGINT', 'SIGTERM', 'SIGHUP'],
    },
    {
      name: 'five SIGINTs, a plain hook',
      hook: (tag) => tag,
      signals: ['SIGINT', 'SIGINT', 'SIGINT', 'SIGINT', 'SIGINT'],
    },
  ];
  for (const { name, hook, signals } of cases) {
    test(name, async () => {
      const tag = tagged();
      const settings = {
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `cat >/dev/null; ${hook(tag)}` }] }] },
      };
      const [command, prefix] = cliCommand('fire');
      const child = spawn(
        command,
        [...prefix, 'fire', 'PreToolUse', '--setting-sources', '', '--settings', JSON.stringify(settings)],
        { env: project.env(), stdio: ['pipe', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      child.stdin.end(bashInput());
      try {
        await until('the hook to start', () => alive(tag));
        for (const signal of signals) child.kill(signal);
        // The first signal handled ended the firing, and it is said. Signals pending at once are delivered lowest
        // number first (SIGHUP before SIGINT), not in the order they were sent, so any of those sent may be it.
        assert.equal(await closed, 1, stderr);
        assert.match(
          stderr,
          new RegExp(
            `^peri-hooks: interrupted by (${[...new Set(signals)].join('|')}) during the firing: its hooks were killed and nothing was decided\n`,
          ),
        );
        await until('every hook process to be gone', () => !alive(tag), 5_000);
      } finally {
        try {
          execFileSync('pkill', ['-KILL', '-f', `^${tag}`]);
        } catch {
          /* none left */
        }
      }
    });
  }

  // Issue 29 item 10: a signal ended the firing with exit 1 and nothing said, also under --fail-closed.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    test(`${signal} under --fail-closed blocks, saying so; on an event that cannot block it stays exit 1`, async () => {
      const tag = tagged();
      const hooks = [{ hooks: [{ type: 'command', command: `cat >/dev/null; ${tag}` }] }];
      const settings = { hooks: { PreToolUse: hooks, SessionEnd: hooks } };
      const [command, prefix] = cliCommand('fire');
      try {
        for (const [event, input, code] of [
          ['PreToolUse', bashInput(), 2],
          ['SessionEnd', project.input('SessionEnd'), 1],
        ] as const) {
          const child = spawn(
            command,
            [
              ...prefix,
              'fire',
              event,
              '--output',
              'claude',
              '--fail-closed',
              '--setting-sources',
              '',
              '--settings',
              JSON.stringify(settings),
            ],
            { env: project.env(), stdio: ['pipe', 'ignore', 'pipe'] },
          );
          let stderr = '';
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
            stderr += chunk;
          });
          const closed = new Promise<number | null>((resolve) => child.on('close', (exit) => resolve(exit)));
          child.stdin.end(input);
          await until('the hook to start', () => alive(tag));
          child.kill(signal);
          assert.equal(await closed, code, stderr);
          assert.match(stderr, new RegExp(`^peri-hooks: interrupted by ${signal} during the firing`));
          if (code === 2) assert.match(stderr, /peri-hooks: blocking because of --fail-closed\n$/);
          await until('every hook process to be gone', () => !alive(tag), 5_000);
        }
      } finally {
        try {
          execFileSync('pkill', ['-KILL', '-f', `^${tag}`]);
        } catch {
          /* none left */
        }
      }
    });
  }

  test('a hook that ignores TERM past its timeout is killed, and nothing survives', async () => {
    const tag = tagged();
    const settings = {
      hooks: {
        PreToolUse: [
          { hooks: [{ type: 'command', command: `cat >/dev/null; trap "" TERM; ${tag} & wait`, timeout: 1 }] },
        ],
      },
    };
    try {
      const result = await fire('PreToolUse', ['--settings', JSON.stringify(settings)], bashInput());
      assert.equal(result.code, 0, 'a timeout is a non-blocking error');
      await until('every hook process to be gone', () => !alive(tag), 5_000);
    } finally {
      try {
        execFileSync('pkill', ['-KILL', '-f', `^${tag}`]);
      } catch {
        /* none left */
      }
    }
  });
});

describe('special files', () => {
  test('a FIFO at a settings path does not hang the firing: it is unreadable, and the other sources run', async () => {
    const sub = makeProject();
    try {
      mkdirSync(path.join(sub.dir, '.claude'), { recursive: true });
      execFileSync('mkfifo', [path.join(sub.dir, '.claude/settings.json')]);
      sub.writeManaged('managed-settings.json', denyBash);
      const result = await runCli(['fire', 'PreToolUse', '--project-dir', sub.dir], {
        stdin: sub.input('PreToolUse.tool_name-Bash'),
        env: sub.env(),
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /not a regular file/);
    } finally {
      sub.cleanup();
    }
  });
});
