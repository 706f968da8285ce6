// --audit on real firings: 50 processes at once append 50 whole lines in one valid chain; no secret reaches the
// log; a log that cannot be written is a warning, and under --fail-closed a block; `audit` reads it back.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

const TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJ';

describe('fire --audit', () => {
  let project: Project;
  let policy: string;
  before(() => {
    project = makeProject();
    policy = project.write('policy.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: 'case "$(cat)" in *push*) echo "no push" >&2; exit 2;; esac',
                if: 'Bash(git *)',
              },
            ],
          },
        ],
      },
    });
  });
  after(() => project.cleanup());

  const fire = (command: string, extra: string[] = [], env: Record<string, string> = {}) =>
    runCli(['fire', 'PreToolUse', '--settings', policy, '--setting-sources', '', '--no-state', ...extra], {
      stdin: project.input('PreToolUse.tool_name-Bash', { tool_input: { command } }),
      env: project.env({ GITHUB_TOKEN: TOKEN, ...env }),
      cwd: project.dir,
    });

  test('50 firings at once: 50 whole lines, one valid chain, the deciding hook named', async () => {
    const log = join(project.dir, 'audit.jsonl');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => fire(i % 5 === 0 ? `git push origin b${i}` : `ls ${i}`, ['--audit', log])),
    );
    assert.deepEqual(
      results.map((result) => result.code).filter((code) => code !== 0 && code !== 2),
      [],
    );
    const lines = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    assert.equal(lines.length, 50);
    assert.equal(lines.filter((line) => line.decision === 'deny').length, 10);
    const denied = lines.find((line) => line.decision === 'deny');
    assert.equal(denied.reason, 'no push');
    assert.deepEqual(
      { ...denied.hooks[0], durationMs: 0 },
      {
        layer: 'flag',
        file: policy,
        pointer: '/hooks/PreToolUse/0/hooks/0',
        matcher: 'Bash',
        if: 'Bash(git *)',
        type: 'command',
        label: 'case "$(cat)" in *push*) echo "no push" >&2; exit 2;; esac',
        status: 'ran',
        outcome: 'blocking',
        exitCode: 2,
        durationMs: 0,
        decided: true,
      },
    );
    const verified = await runCli(['audit', 'verify', log], { env: project.env(), cwd: project.dir });
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    assert.match(verified.stdout, /^ok: 50 entries in 1 file, the chain holds/);
    const found = await runCli(['audit', 'search', '--decision', 'deny', '--output', 'json', log], {
      env: project.env(),
      cwd: project.dir,
    });
    assert.equal(JSON.parse(found.stdout).length, 10);
  });

  test('no secret reaches the log: an environment token in the command, a URL password', async () => {
    const log = join(project.dir, 'secrets.jsonl');
    assert.equal(
      (await fire(`git clone https://user:hunter2@example.com/r && echo ${TOKEN}`, ['--audit', log])).code,
      0,
    );
    const text = readFileSync(log, 'utf8');
    assert.doesNotMatch(text, new RegExp(`${TOKEN}|hunter2`));
    assert.match(text, /https:\/\/\*\*\*@example\.com\/r && echo \[redacted\]/);
  });

  test('a log that cannot be written: a warning, the decision unchanged; under --fail-closed a block; a missing folder is made', async () => {
    const log = join(policy, 'audit.jsonl');
    const open = await fire('ls', ['--audit', log]);
    assert.equal(open.code, 0, open.stderr);
    assert.match(open.stderr, /the audit log .*policy\.json\/audit\.jsonl cannot be written \(EEXIST\)/);
    const made = join(project.dir, 'no-such-folder', 'audit.jsonl');
    assert.equal((await fire('ls', ['--audit', made])).code, 0);
    assert.equal(readFileSync(made, 'utf8').split('\n').length, 2);
    const closed = await fire('ls', ['--fail-closed'], { PERI_HOOKS_AUDIT: log });
    assert.equal(closed.code, 2, closed.stderr);
    assert.match(closed.stderr, /the audit log .* cannot be written[\s\S]*fail-closed/);
  });

  test('audit on a broken chain exits 1 naming the line; an unknown action or a missing log is a usage error', async () => {
    const log = join(project.dir, 'broken.jsonl');
    for (const command of ['ls a', 'ls b', 'ls c']) await fire(command, ['--audit', log]);
    const lines = readFileSync(log, 'utf8').split('\n');
    project.write('broken.jsonl', [lines[0], lines[2], ''].join('\n'));
    const broken = await runCli(['audit', 'verify', log], { env: project.env(), cwd: project.dir });
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /^broken: .*broken\.jsonl:2 links to a line that is not in the log/);
    assert.equal((await runCli(['audit', 'frobnicate', log], { env: project.env(), cwd: project.dir })).code, 1);
    assert.match(
      (await runCli(['audit', 'tail', join(project.dir, 'nope.jsonl')], { env: project.env(), cwd: project.dir }))
        .stderr,
      /does not exist/,
    );
  });
});
