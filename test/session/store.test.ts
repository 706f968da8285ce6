// The session store: where it lives, corrupt files, the lock (stale recovery, bounded wait), atomic
// updates from many processes at once, and the age-bound sweep.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { acquireLock } from '../../src/session/lock.ts';
import { readSession, resolveStateDir, sessionFile, sweep, updateSession } from '../../src/session/store.ts';

const base = mkdtempSync(path.join(tmpdir(), 'peri-hooks-store-'));
after(() => rmSync(base, { recursive: true, force: true }));
let folders = 0;
const freshDir = () => path.join(base, `s${++folders}`);

test('state dir: --state-dir, then PERI_HOOKS_STATE_DIR, then XDG_STATE_HOME, then ~/.local/state', () => {
  assert.equal(resolveStateDir({ PERI_HOOKS_STATE_DIR: '/a' }, '/home/u', '/flag'), '/flag');
  assert.equal(resolveStateDir({ PERI_HOOKS_STATE_DIR: '/a', XDG_STATE_HOME: '/x' }, '/home/u'), '/a');
  assert.equal(resolveStateDir({ XDG_STATE_HOME: '/x' }, '/home/u'), '/x/peri-hooks');
  assert.equal(resolveStateDir({ XDG_STATE_HOME: 'relative' }, '/home/u'), '/home/u/.local/state/peri-hooks');
  assert.equal(resolveStateDir({}, '/home/u'), '/home/u/.local/state/peri-hooks');
});

test('unsafe session ids become hashed file names inside the state dir', () => {
  const file = sessionFile({ dir: '/s', sessionId: '../../etc/passwd' });
  assert.equal(path.dirname(file), '/s');
  assert.match(path.basename(file), /^session-[0-9a-f]{32}\.json$/);
});

test('a missing file is a new session; a corrupt one is a warning and a new session, replaced by the next write', async () => {
  const ref = { dir: freshDir(), sessionId: 'abc' };
  assert.equal(readSession(ref).exists, false);
  assert.equal(readSession(ref).warning, undefined);
  mkdirSync(ref.dir, { recursive: true });
  for (const text of ['{not json', '{"version": 99}', '[]']) {
    writeFileSync(sessionFile(ref), text);
    const read = readSession(ref);
    assert.equal(read.exists, false);
    assert.match(read.warning!, /is corrupt .*as if the session were new/);
  }
  const update = await updateSession(ref, (state) => { state.stopBlocks.main = 1; });
  assert.equal(update.ok, true);
  assert.match(update.warnings[0]!, /corrupt/);
  assert.equal(readSession(ref).state.stopBlocks.main, 1);
});

test('a lock held by a live process makes the wait give up within its bound', async () => {
  const lock = path.join(base, 'held.lock');
  const release = await acquireLock(lock);
  assert.ok(release);
  assert.equal(await acquireLock(lock, { waitMs: 100 }), undefined);
  release();
  const again = await acquireLock(lock, { waitMs: 100 });
  assert.ok(again);
  again();
});

test('a lock left by a dead process, or too old, is broken', async () => {
  const dead = path.join(base, 'dead.lock');
  const { hostname } = await import('node:os');
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('close', resolve));
  writeFileSync(dead, `${child.pid} ${hostname()} x`);
  const release = await acquireLock(dead, { waitMs: 2000 });
  assert.ok(release, 'the dead owner\'s lock was broken');
  release();
  const old = path.join(base, 'old.lock');
  writeFileSync(old, `1 another-host x`);
  utimesSync(old, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const second = await acquireLock(old, { waitMs: 2000 });
  assert.ok(second, 'the old lock was broken');
  second();
});

test('50 updates racing on one session (the lock is a file, so in one process as across many) lose none', async () => {
  const ref = { dir: freshDir(), sessionId: 'many' };
  const updates = await Promise.all(Array.from({ length: 50 }, () => updateSession(ref, (state) => {
    state.stopBlocks.main = (state.stopBlocks.main ?? 0) + 1;
  }, { waitMs: 60_000 })));
  assert.deepEqual(updates.filter((update) => !update.ok), []);
  assert.equal(readSession(ref).state.stopBlocks.main, 50);
  assert.deepEqual(readdirSync(ref.dir).filter((name) => /\.(tmp|lock)$/.test(name)), []);
});

test('the sweep removes sessions past the age bound, at most once an hour', () => {
  const dir = freshDir();
  mkdirSync(dir, { recursive: true });
  const oldFile = path.join(dir, 'old.json');
  const newFile = path.join(dir, 'new.json');
  writeFileSync(oldFile, '{}');
  writeFileSync(newFile, '{}');
  const now = Date.now();
  utimesSync(oldFile, (now - 8 * 86_400_000) / 1000, (now - 8 * 86_400_000) / 1000);
  sweep(dir, now);
  assert.equal(existsSync(oldFile), false);
  assert.equal(existsSync(newFile), true);
  writeFileSync(oldFile, '{}');
  utimesSync(oldFile, (now - 8 * 86_400_000) / 1000, (now - 8 * 86_400_000) / 1000);
  sweep(dir, now + 1000);
  assert.equal(existsSync(oldFile), true, 'no second sweep within the hour');
  sweep(dir, now + 3600 * 1000 + 1);
  assert.equal(existsSync(oldFile), false, 'the next sweep comes once the hour is over');
  assert.equal(existsSync(newFile), true);
});
