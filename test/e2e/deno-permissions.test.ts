// Under Deno, a permission the user did not grant is a runner error naming the missing flag (exit 1),
// never a firing that silently allows because its hooks could not run.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { denoCommand, makeProject, type Project, ROOT, runCli } from '../helpers/cli.ts';

const DENO = join(ROOT, 'node_modules/.bin/deno');
let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const blockingStop = JSON.stringify({
  hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo keep going >&2; exit 2' }] }] },
});

for (const [granted, missing] of [
  [['--allow-read', '--allow-env'], '--allow-run'],
  [['--allow-env', '--allow-run'], '--allow-read'],
  [['--allow-read', '--allow-run'], '--allow-env'],
] as const) {
  test(`without ${missing}: exit 1 and the message names ${missing}`, {
    skip: !existsSync(DENO) && 'deno is not installed',
  }, async () => {
    const result = await runCli(['fire', 'Stop', '--settings', blockingStop, '--no-state'], {
      stdin: project.input('Stop'),
      env: project.env(),
      cli: denoCommand(granted),
    });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`fix: run it with ${missing}`));
    assert.doesNotMatch(result.stderr, /internal error/);
  });
}

test('without --allow-net: an http hook is a runner error naming --allow-net', {
  skip: !existsSync(DENO) && 'deno is not installed',
}, async () => {
  const settings = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9/hook' }] }] } });
  const result = await runCli(['fire', 'Stop', '--settings', settings, '--no-state'], {
    stdin: project.input('Stop'),
    env: project.env(),
    cli: denoCommand(['--allow-read', '--allow-env', '--allow-run']),
  });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /fix: run it with --allow-net/);
});

test('with the flags fire needs, the same firing blocks', {
  skip: !existsSync(DENO) && 'deno is not installed',
}, async () => {
  const result = await runCli(['fire', 'Stop', '--settings', blockingStop, '--no-state'], {
    stdin: project.input('Stop'),
    env: project.env(),
    cli: denoCommand(['--allow-read', '--allow-env', '--allow-run']),
  });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /keep going/);
});
