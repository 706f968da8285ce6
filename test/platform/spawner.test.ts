// The hook spawner of resident servers (platform/spawner.ts), in this process: hooks started by the helper process,
// their bytes relayed whole, their groups killed by pid from here, their pipes passed over on request.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { test } from 'node:test';
import { terminateGroup } from '../../src/platform/process-group.ts';
import { type HookProcess, spawnHook, useSpawner } from '../../src/platform/spawner.ts';
import { isAlive } from '../../src/session/lock.ts';
import { until } from '../helpers/wait.ts';

assert.ok(await useSpawner(), 'the helper takes hooks');
const folder = mkdtempSync(path.join(tmpdir(), 'peri-hooks-spawner-'));
test.after(() => rmSync(folder, { recursive: true, force: true }));

async function start(script: string, stdin = ''): Promise<HookProcess> {
  const started = await spawnHook({
    file: '/bin/sh',
    args: ['-c', script],
    cwd: folder,
    env: { PATH: process.env.PATH },
    stdin: Buffer.from(stdin),
  });
  assert.ok(!('spawnError' in started), JSON.stringify(started));
  return started;
}

function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) => stream.once('close', () => resolve(Buffer.concat(chunks))));
}

/** The parent pid of `pid`, from /proc. */
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);

test('a hook is started by the helper, not by this process: stdin in, stdout and stderr apart, its exit code', {
  timeout: 60_000,
}, async () => {
  const hook = await start('cat; echo "parent $PPID"; printf "é\\377" >&2; exit 3', 'input ☃\n');
  const [out, err, ended] = await Promise.all([read(hook.stdout), read(hook.stderr), hook.finished]);
  const parent = Number(/parent (\d+)/.exec(out.toString())?.[1]);
  assert.notEqual(parent, process.pid);
  assert.equal(parentOf(parent), process.pid, 'the helper is a child of this process');
  assert.equal(out.toString(), `input ☃\nparent ${parent}\n`);
  assert.deepEqual(err, Buffer.from([0xc3, 0xa9, 0xff]), 'bytes pass as they are, not as text');
  assert.deepEqual(ended, { exitCode: 3 });
});

test('3 MB of output arrive whole; a hook that exits at once still finishes; a signal is reported', {
  timeout: 60_000,
}, async () => {
  const big = await start('head -c 3000000 /dev/zero; head -c 100000 /dev/zero >&2');
  const [out, err] = await Promise.all([read(big.stdout), read(big.stderr), big.finished]);
  assert.deepEqual([out.length, err.length], [3_000_000, 100_000]);
  for (let i = 0; i < 5; i++) {
    const quick = await start('true');
    void read(quick.stdout);
    void read(quick.stderr);
    assert.deepEqual(await quick.finished, { exitCode: 0 });
  }
  const killed = await start('kill -9 $$');
  void read(killed.stdout);
  void read(killed.stderr);
  assert.deepEqual(await killed.finished, { signal: 'SIGKILL' });
});

test('a command that cannot start fails with the reason, as when spawned here', { timeout: 60_000 }, async () => {
  const missing = await spawnHook({
    file: path.join(folder, 'missing'),
    args: [],
    cwd: folder,
    env: {},
    stdin: Buffer.alloc(0),
  });
  assert.deepEqual(missing, { spawnError: `spawn ${path.join(folder, 'missing')} ENOENT` });
});

test('terminateGroup from this process ends a helper-started hook and its background child', {
  timeout: 60_000,
}, async () => {
  const hook = await start('sleep 60 & echo $!; wait');
  let out = '';
  hook.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  void read(hook.stderr);
  const sleeper = await until('the background child', () => Number(out.trim()) || undefined);
  assert.ok(isAlive(sleeper));
  terminateGroup(hook.pid!);
  assert.deepEqual(await hook.finished, { signal: 'SIGTERM' });
  await until('the background child to be gone', () => !isAlive(sleeper));
});

test('takePipes passes the pipes themselves over: bytes the hook writes later arrive on them', {
  timeout: 60_000,
}, async () => {
  const release = path.join(folder, 'release');
  const hook = await start(`echo first; while [ ! -e ${release} ]; do sleep 0.05; done; echo second; echo late >&2`);
  let relayed = '';
  hook.stdout.on('data', (chunk: Buffer) => {
    relayed += chunk.toString();
  });
  await until('the first line', () => relayed === 'first\n');
  const pipes = await hook.takePipes();
  writeFileSync(release, '');
  const [out, err] = await Promise.all([read(pipes.stdout), read(pipes.stderr)]);
  assert.deepEqual([out.toString(), err.toString()], ['second\n', 'late\n']);
});

test('each hook runs with its own environment, whether or not it is the one of the hook before', {
  timeout: 60_000,
}, async () => {
  const seen: string[] = [];
  const envs: Array<Record<string, string | undefined>> = [
    { PATH: process.env.PATH, A: '1' },
    { PATH: process.env.PATH, A: '1' },
    { PATH: process.env.PATH, A: '2' },
    { PATH: process.env.PATH },
    { PATH: process.env.PATH, A: undefined, B: '3' },
    { PATH: process.env.PATH, A: '1' },
  ];
  for (const env of envs) {
    const hook = await spawnHook({
      file: '/bin/sh',
      args: ['-c', 'echo "A=${A-unset} B=${B-unset}"'],
      cwd: folder,
      env,
      stdin: Buffer.alloc(0),
    });
    assert.ok(!('spawnError' in hook));
    const [out] = await Promise.all([read(hook.stdout), read(hook.stderr), hook.finished]);
    seen.push(out.toString().trim());
  }
  assert.deepEqual(seen, [
    'A=1 B=unset',
    'A=1 B=unset',
    'A=2 B=unset',
    'A=unset B=unset',
    'A=unset B=3',
    'A=1 B=unset',
  ]);
});

test('with two helpers, a hook goes to the one with fewer hooks running: two at once start from two processes', {
  timeout: 60_000,
}, async () => {
  assert.ok(await useSpawner(2), 'the second helper takes hooks');
  const release = path.join(folder, 'release-both');
  const script = `echo $PPID; while [ ! -e ${release} ]; do sleep 0.05; done`;
  const [first, second] = [await start(script), await start(script)];
  const parents = await Promise.all(
    [first, second].map(async (hook) => {
      let out = '';
      hook.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      void read(hook.stderr);
      return until('its parent pid', () => Number(out.trim()) || undefined);
    }),
  );
  writeFileSync(release, '');
  await Promise.all([first.finished, second.finished]);
  assert.notEqual(parents[0], parents[1]);
  for (const parent of parents) assert.equal(parentOf(parent), process.pid, 'each helper is a child of this process');
});
