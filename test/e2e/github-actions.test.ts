// Under GITHUB_ACTIONS=true, `test` and `validate` print GitHub annotations as well as their usual output,
// as vitest does: after a human report on stdout, on stderr beside a machine-readable one.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeProject, runCli } from '../helpers/cli.ts';

test('validate and test annotate under GITHUB_ACTIONS=true, and only then', async () => {
  const project = makeProject();
  try {
    project.write('.claude/settings.json', {
      hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'exit 0' }] }] },
    });
    // The matcher's case is wrong: the guard never runs, and the case fails.
    project.write('cases/guard.hooks.test.json', [
      {
        name: 'force push is refused',
        tool: 'Bash',
        toolInput: { command: 'git push --force' },
        expect: { decision: 'deny' },
      },
    ]);
    const run = (args: string[], ci: boolean) =>
      runCli(args, { cwd: project.dir, env: project.env(ci ? { GITHUB_ACTIONS: 'true' } : {}) });

    const plain = await run(['validate'], false);
    assert.doesNotMatch(plain.stdout + plain.stderr, /^::/m);
    const annotated = await run(['validate'], true);
    assert.match(
      annotated.stdout,
      /^ok: 0 errors, 1 warning, 0 notes\n::warning file=\.claude\/settings\.json,line=\d+,col=\d+,title=peri-hooks validate%3A matcher-case::.*matcher "bash" differs/m,
    );
    const json = await run(['validate', '--output', 'json'], true);
    assert.doesNotThrow(() => JSON.parse(json.stdout), 'stdout stays one JSON document');
    assert.match(json.stderr, /^::warning file=\.claude\/settings\.json/m);

    const failing = await run(['test', 'cases'], true);
    assert.equal(failing.code, 1);
    assert.match(failing.stdout, /force push is refused/);
    assert.match(
      failing.stdout,
      /^::error file=cases\/guard\.hooks\.test\.json,line=\d+,col=\d+,title=peri-hooks test%3A force push is refused::/m,
    );
    assert.doesNotMatch((await run(['test', 'cases'], false)).stdout, /^::/m);
    // Asked for explicitly, they come once.
    const github = await run(['test', 'cases', '--reporter', 'github'], true);
    assert.equal(github.stdout.match(/^::error /gm)?.length, 1);
  } finally {
    project.cleanup();
  }
});
