// The session store: where it lives, file names for any session id, corrupt files, the lock (stale
// recovery, the wait until the caller's deadline), atomic updates from many processes at once, and the
// age-bound sweep that touches peri-hooks' own files only.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { acquireLock } from '../../src/session/lock.ts';
import {
  jobFileName,
  readSession,
  resolveStateDir,
  sessionFile,
  sweep,
  updateSession,
} from '../../src/session/store.ts';

const base = mkdtempSync(path.join(tmpdir(), 'peri-hooks-store-'));
after(() => rmSync(base, { recursive: true, force: true }));
let folders = 0;
const freshDir = () => path.join(base, `s${++folders}`);
const inSeconds = (seconds: number) => ({ deadline: Date.now() + seconds * 1000 });

test('state dir: --state-dir, then PERI_HOOKS_STATE_DIR, then XDG_STATE_HOME, then ~/.local/state', () => {
  assert.equal(resolveStateDir({ PERI_HOOKS_STATE_DIR: '/a' }, '/home/u', '/flag'), '/flag');
  assert.equal(resolveStateDir({ PERI_HOOKS_STATE_DIR: '/a', XDG_STATE_HOME: '/x' }, '/home/u'), '/a');
  assert.equal(resolveStateDir({ XDG_STATE_HOME: '/x' }, '/home/u'), '/x/peri-hooks');
  assert.equal(resolveStateDir({ XDG_STATE_HOME: 'relative' }, '/home/u'), '/home/u/.local/state/peri-hooks');
  assert.equal(resolveStateDir({}, '/home/u'), '/home/u/.local/state/peri-hooks');
});

test("any session id is one file name of its own inside the state dir, never another file's name", () => {
  const ids = [
    '../../etc/passwd',
    '..',
    'a\u0000b',
    'x'.repeat(10_000),
    'Abc',
    'abc',
    'ABC',
    '\ud800',
    '\udfff',
    '\ufffd',
    'package',
    '',
    'a/b',
    'C:\\x',
  ];
  const names = ids.map((sessionId) => {
    const file = sessionFile({ dir: '/s', sessionId });
    assert.equal(path.dirname(file), '/s', sessionId);
    return path.basename(file);
  });
  // Lower-case hex only: ids that differ in letter case cannot meet on a case-insensitive disk.
  for (const name of names) assert.match(name, /^[0-9a-f]{64}\.peri-session\.json$/);
  assert.equal(new Set(names).size, ids.length);
});

test('a missing file is a new session; a corrupt one is a warning and a new session, replaced by the next write', async () => {
  const ref = { dir: freshDir(), sessionId: 'abc' };
  assert.equal((await readSession(ref)).exists, false);
  assert.equal((await readSession(ref)).warning, undefined);
  mkdirSync(ref.dir, { recursive: true });
  for (const text of ['{not json', '{"version": 99}', '[]']) {
    writeFileSync(sessionFile(ref), text);
    const read = await readSession(ref);
    assert.equal(read.exists, false);
    assert.match(read.warning!, /is corrupt .*as if the session were new/);
  }
  const update = await updateSession(
    ref,
    (state) => {
      state.stopBlocks.main = 1;
    },
    inSeconds(10),
  );
  assert.equal(update.ok, true);
  assert.match(update.warnings[0]!, /corrupt/);
  assert.equal((await readSession(ref)).state.stopBlocks.main, 1);
});

test('a lock held by a live process makes the wait give up at its deadline', async () => {
  const lock = path.join(base, 'held.lock');
  const release = await acquireLock(lock, inSeconds(10));
  assert.ok(release);
  assert.equal(await acquireLock(lock, { deadline: Date.now() + 100 }), undefined);
  release();
  const again = await acquireLock(lock, { deadline: Date.now() + 100 });
  assert.ok(again);
  again();
});

test('a waiter gets the lock as soon as it is released, however long before its deadline', async () => {
  const lock = path.join(base, 'wait.lock');
  const release = await acquireLock(lock, inSeconds(10));
  assert.ok(release);
  let settled = false;
  const waiter = acquireLock(lock, inSeconds(600)).finally(() => {
    settled = true;
  });
  // Marked by an event, not a sleep: a second waiter whose deadline passes gives up, the first still waits.
  assert.equal(await acquireLock(lock, { deadline: Date.now() + 100 }), undefined, 'the lock is held');
  assert.equal(settled, false, 'the waiter waits while the lock is held');
  release();
  const taken = await waiter;
  assert.ok(taken, 'the waiter took the lock once it was free');
  taken();
});

test('a lock left by a dead process, or too old, is broken', async () => {
  const dead = path.join(base, 'dead.lock');
  const { hostname } = await import('node:os');
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('close', resolve));
  writeFileSync(dead, `${child.pid} ${hostname()} x`);
  const release = await acquireLock(dead, inSeconds(20));
  assert.ok(release, "the dead owner's lock was broken");
  release();
  const old = path.join(base, 'old.lock');
  writeFileSync(old, `1 another-host x`);
  utimesSync(old, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const second = await acquireLock(old, inSeconds(20));
  assert.ok(second, 'the old lock was broken');
  second();
});

test('50 updates racing on one session (the lock is a file, so in one process as across many) lose none', async () => {
  const ref = { dir: freshDir(), sessionId: 'many' };
  const updates = await Promise.all(
    Array.from({ length: 50 }, () =>
      updateSession(
        ref,
        (state) => {
          state.stopBlocks.main = (state.stopBlocks.main ?? 0) + 1;
        },
        inSeconds(120),
      ),
    ),
  );
  assert.deepEqual(
    updates.filter((update) => !update.ok),
    [],
  );
  assert.equal((await readSession(ref)).state.stopBlocks.main, 50);
  assert.deepEqual(
    readdirSync(ref.dir).filter((name) => /\.(tmp|lock)$/.test(name)),
    [],
  );
});

const daysAgo = (file: string, days: number, now = Date.now()) =>
  utimesSync(file, (now - days * 86_400_000) / 1000, (now - days * 86_400_000) / 1000);

test('the sweep removes sessions past the age bound, at most once an hour', () => {
  const dir = freshDir();
  mkdirSync(dir, { recursive: true });
  const oldFile = sessionFile({ dir, sessionId: 'old' });
  const newFile = sessionFile({ dir, sessionId: 'new' });
  writeFileSync(oldFile, '{}');
  writeFileSync(newFile, '{}');
  const now = Date.now();
  daysAgo(oldFile, 8, now);
  sweep(dir, now);
  assert.equal(existsSync(oldFile), false);
  assert.equal(existsSync(newFile), true);
  writeFileSync(oldFile, '{}');
  daysAgo(oldFile, 8, now);
  sweep(dir, now + 1000);
  assert.equal(existsSync(oldFile), true, 'no second sweep within the hour');
  sweep(dir, now + 3600 * 1000 + 1);
  assert.equal(existsSync(oldFile), false, 'the next sweep comes once the hour is over');
  assert.equal(existsSync(newFile), true);
});

test("the sweep leaves every file that is not peri-hooks' own, however old; its own old leftovers go", () => {
  const dir = freshDir();
  mkdirSync(path.join(dir, 'jobs'), { recursive: true });
  const own = sessionFile({ dir, sessionId: 'mine' });
  const foreign = [
    'package.json',
    'tsconfig.json',
    'notes.lock',
    'build.tmp',
    'x.stale-1',
    '.last-sweep',
    'session-0123456789abcdef0123456789abcdef.json',
    'jobs/lx1-0123456789.json',
    'jobs/report.json',
    `${path.basename(own)}.bak`,
  ];
  const ours = [
    own,
    `${own}.lock`,
    `${own}.lock.stale-12-0a1b2c3d`,
    `${own}.12-0a1b2c3d.tmp`,
    path.join(dir, 'jobs', jobFileName('lx1-0123456789')),
  ];
  for (const name of foreign) writeFileSync(path.join(dir, name), '{}');
  for (const file of ours) writeFileSync(file, '{}');
  for (const file of [...foreign.map((name) => path.join(dir, name)), ...ours]) daysAgo(file, 30);
  sweep(dir);
  assert.deepEqual(
    foreign.filter((name) => !existsSync(path.join(dir, name))),
    [],
    'foreign files were removed',
  );
  assert.deepEqual(
    ours.filter((file) => existsSync(file)),
    [],
    'own leftovers were kept',
  );
});
