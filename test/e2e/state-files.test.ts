// The state folder as the CLI uses it: it may be shared with other files (`--state-dir .` in a project), and
// under load a firing waits for the session lock as long as its time budget lasts, so no update is lost.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fire } from '../../src/fire.ts';
import { acquireLock } from '../../src/session/lock.ts';
import { jobFileName, readSession, sessionFile } from '../../src/session/store.ts';
import { cliCommand, makeProject, type Project, runCli } from '../helpers/cli.ts';
import { until } from '../helpers/wait.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const blockStop = JSON.stringify({
  hooks: { Stop: [{ hooks: [{ type: 'command', command: 'cat >/dev/null; echo "keep going" >&2; exit 2' }] }] },
});
const monthAgo = (file: string) =>
  utimesSync(file, (Date.now() - 30 * 86_400_000) / 1000, (Date.now() - 30 * 86_400_000) / 1000);

test("with --state-dir . a firing keeps its files apart and its sweep leaves the project's files alone", async () => {
  const dir = mkdtempSync(path.join(project.dir, 'shared-'));
  const foreign = {
    'package.json': '{"name": "mine"}\n',
    'tsconfig.json': '{}\n',
    '.last-sweep': '',
    'jobs/build.json': '{}\n',
  };
  mkdirSync(path.join(dir, 'jobs'));
  for (const [name, text] of Object.entries(foreign)) writeFileSync(path.join(dir, name), text);
  // peri-hooks' own leftovers of a month ago: the sweep that runs with this firing removes them.
  const leftovers = [sessionFile({ dir, sessionId: 'gone' }), path.join(dir, 'jobs', jobFileName('lx1-0123456789'))];
  for (const file of leftovers) writeFileSync(file, '{}');
  for (const file of [...Object.keys(foreign).map((name) => path.join(dir, name)), ...leftovers]) monthAgo(file);

  // A session named like the project's file: before, its state was written over package.json.
  const result = await runCli(['fire', 'Stop', '--setting-sources', '', '--settings', blockStop, '--state-dir', '.'], {
    stdin: project.input('Stop', { session_id: 'package' }),
    env: project.env(),
    cwd: dir,
  });
  assert.equal(result.code, 2, result.stderr);
  for (const [name, text] of Object.entries(foreign))
    assert.equal(readFileSync(path.join(dir, name), 'utf8'), text, `${name} was changed or removed`);
  assert.deepEqual(
    leftovers.filter((file) => existsSync(file)),
    [],
    "the sweep ran and removed peri-hooks' own old files",
  );
  assert.equal((await readSession({ dir, sessionId: 'package' })).state.stopBlocks.main, 1);
});

test('firings wait for a held session lock until it is released, and every Stop count lands', async () => {
  const firings = 8;
  const dir = mkdtempSync(path.join(project.dir, 'locked-'));
  const markers = mkdtempSync(path.join(project.dir, 'ran-'));
  const sessionId = 'held-lock';
  const settings = JSON.stringify({
    hooks: {
      Stop: [
        { hooks: [{ type: 'command', command: `cat >/dev/null; mktemp "${markers}/XXXXXX" >/dev/null; exit 2` }] },
      ],
    },
  });
  const release = await acquireLock(`${sessionFile({ dir, sessionId })}.lock`, { deadline: Date.now() + 10_000 });
  assert.ok(release);
  let running: Promise<Awaited<ReturnType<typeof runCli>>[]>;
  try {
    running = Promise.all(
      Array.from({ length: firings }, () =>
        runCli(['fire', 'Stop', '--setting-sources', '', '--settings', settings, '--state-dir', dir], {
          stdin: project.input('Stop', { session_id: sessionId }),
          env: project.env({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' }),
        }),
      ),
    );
    // Every firing has run its hook and now waits for the lock (that it waits beyond 5 s: the in-process test below).
    await until('the firings to run their hooks', () => readdirSync(markers).length === firings);
  } finally {
    release();
  }
  const results = await running;
  assert.deepEqual(
    results.filter((result) => result.code !== 2 || /stayed locked/.test(result.stderr)).map((result) => result.stderr),
    [],
  );
  assert.equal((await readSession({ dir, sessionId })).state.stopBlocks.main, firings);
});

// The wait lasts to the firing's deadline (its event's time budget), not a fixed 5 s: in process, with the clock
// moved 8 s on while the lock is held, instead of a 7 s sleep.
test('a firing waits for the session lock beyond 5 s of its clock, and its Stop count lands', async (t) => {
  const dir = mkdtempSync(path.join(project.dir, 'clock-'));
  const markers = mkdtempSync(path.join(project.dir, 'ran-'));
  const sessionId = 'held-by-clock';
  const settings = JSON.stringify({
    hooks: {
      Stop: [
        { hooks: [{ type: 'command', command: `cat >/dev/null; mktemp "${markers}/XXXXXX" >/dev/null; exit 2` }] },
      ],
    },
  });
  const release = await acquireLock(`${sessionFile({ dir, sessionId })}.lock`, { deadline: Date.now() + 10_000 });
  assert.ok(release);
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  let settling = false;
  const firing = fire('Stop', project.input('Stop', { session_id: sessionId }), {
    settingSources: [],
    settings: [settings],
    stateDir: dir,
    home: project.home,
    managedDir: project.managed,
    projectDir: project.dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: project.home, CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' },
    // Traced just before the session update, which then waits for the lock.
    trace: (stage) => {
      if (stage === 'reduce') settling = true;
    },
  });
  try {
    await until('the firing to reach its session update', () => settling);
    // 8 s of the firing's clock pass while it waits. Each step outlasts the lock's longest back-off (75 ms), so
    // the waiter looks at its clock after every step: a wait with a fixed 5 s bound gives up meanwhile.
    for (let step = 0; step < 8; step++) {
      t.mock.timers.tick(1000);
      await sleep(80);
    }
  } finally {
    release();
  }
  const report = await firing;
  assert.equal(report.exitCode, 2);
  assert.deepEqual(
    report.warnings.filter((warning) => /stayed locked/.test(warning.message)),
    [],
  );
  assert.equal((await readSession({ dir, sessionId })).state.stopBlocks.main, 1);
});

// Issue 29 item 11: a full disk while taking the session lock was an internal error that lost the block, and left
// a 0-byte lock that made every later firing of the session wait 30 s. A 64 KiB tmpfs, filled, in a user and
// mount namespace of the test's own: the lock file can be created (an inode) but not written (no block).
const namespaces =
  spawnSync('unshare', ['-rm', 'true']).status === 0 ? false : 'needs unshare -rm (user and mount namespaces)';
test('a full disk while taking the session lock: the block stands, a warning says why, no lock file is left', {
  skip: namespaces,
}, async () => {
  const state = path.join(project.home, 'full-state');
  mkdirSync(state, { recursive: true });
  const [command, prefix] = cliCommand('fire');
  const script =
    'mount -t tmpfs -o size=64k tmpfs "$STATE" && (cat /dev/zero > "$STATE/filler") 2>/dev/null; "$@"; code=$?; echo "left: $(ls -A "$STATE" | tr "\\n" " ")"; exit $code';
  const result = await runCli(
    ['fire', 'Stop', '--setting-sources', '', '--settings', blockStop, '--state-dir', state],
    {
      stdin: project.input('Stop'),
      env: project.env({ STATE: state }),
      cli: ['unshare', ['-rm', 'sh', '-c', script, 'sh', command, ...prefix]],
    },
  );
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /keep going/);
  assert.match(
    result.stderr,
    /could not be locked: cannot write \S+\.lock \(ENOSPC\); this firing goes on as if the session were new/,
  );
  assert.doesNotMatch(result.stderr, /internal error/);
  assert.match(result.stdout, /^left: filler \n$/m);
});
