// The README's test command passes on any CI runner: a runner that sets CI but has no redis-server skips the
// Redis tests with a message, and fails only where PERI_HOOKS_TEST_REQUIRE names the missing tool (as .ci/run does).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './cli.ts';

/** The Redis tests run with a PATH that has sh and nothing else, so redis-server is missing. */
function redisTestsWithout(env: Record<string, string>) {
  const bin = mkdtempSync(join(tmpdir(), 'peri-hooks-nopath-'));
  try {
    symlinkSync('/bin/sh', join(bin, 'sh'));
    return spawnSync(process.execPath, ['--test', join(ROOT, 'test/serve/redis.test.ts')], {
      env: { PATH: bin, HOME: bin, CI: 'true', ...env },
      encoding: 'utf8',
    });
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

test('CI=true without redis-server: the Redis tests are skipped, saying how to run them', () => {
  const run = redisTestsWithout({});
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /redis-server is not installed \(apt-get install -y redis-server\)/);
  assert.match(run.stdout, /ℹ fail 0/);
});

test('PERI_HOOKS_TEST_REQUIRE=redis-server without redis-server: the suite fails, naming what is missing', () => {
  const run = redisTestsWithout({ PERI_HOOKS_TEST_REQUIRE: 'zsh, redis-server' });
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /redis-server is missing but PERI_HOOKS_TEST_REQUIRE requires it/);
});
