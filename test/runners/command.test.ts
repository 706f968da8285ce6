// The command runner on its own, for what the CLI tests cannot reach: interruption through the firing's signal.

import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCommandHook } from '../../src/runners/command.ts';
import { isAlive } from '../../src/session/lock.ts';
import type { LoadedHook, RunContext } from '../../src/types.ts';
import { until } from '../helpers/wait.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'peri-hooks-command-'));
test.after(() => rmSync(folder, { recursive: true, force: true }));

function hook(command: string): LoadedHook {
  return {
    id: 'project:settings.json#/hooks/Stop/0/hooks/0',
    event: 'Stop',
    handler: { type: 'command', command },
    provenance: { layer: 'project', file: 'settings.json', pointer: '/hooks/Stop/0/hooks/0' },
  };
}

function context(signal: AbortSignal): RunContext {
  const input = { session_id: 's', cwd: folder, hook_event_name: 'Stop' };
  return {
    event: 'Stop',
    input,
    inputJson: JSON.stringify(input),
    projectDir: folder,
    cwd: folder,
    env: { PATH: process.env.PATH },
    timeoutMs: 60_000,
    settings: { disableAllHooks: false, allowManagedHooksOnly: false },
    signal,
    warn: () => {},
  };
}

test('an interrupted firing ends the running hook and says it was interrupted', { timeout: 30_000 }, async () => {
  const started = path.join(folder, 'started');
  const controller = new AbortController();
  // Without the interruption the hook would run for 100 s, past this test's own timeout.
  const running = runCommandHook(hook(`touch ${started}; sleep 100 & sleep 100`), context(controller.signal));
  await until('the hook to start', () => existsSync(started));
  controller.abort();
  const outcome = await running;
  assert.deepEqual(
    [outcome.exitCode, outcome.timedOut, outcome.error],
    [null, false, 'cancelled: peri-hooks was interrupted'],
  );
});

test('a firing interrupted before the hook starts cancels it at once', { timeout: 30_000 }, async () => {
  const outcome = await runCommandHook(hook('sleep 100'), context(AbortSignal.abort()));
  assert.equal(outcome.error, 'cancelled: peri-hooks was interrupted');
});

test('a command that is one script path runs as sh -c would run it, whether or not it is started directly', {
  timeout: 30_000,
}, async () => {
  const write = (name: string, text: string, mode: number) => {
    const file = path.join(folder, name);
    writeFileSync(file, text, { mode });
    return file;
  };
  // With #! and executable: started directly (no shell in its parent chain), PWD exported as sh exports it.
  const direct = write('direct.sh', '#!/bin/sh\necho "pwd=$PWD parent=$(ps -o comm= -p $PPID)"\nexit 3\n', 0o755);
  // Without #!: sh runs it itself; not executable, missing: the shell's own exit codes.
  const bare = write('bare.sh', 'echo bare ran\n', 0o755);
  const locked = write('locked.sh', '#!/bin/sh\necho never\n', 0o644);
  const run = (command: string) => runCommandHook(hook(command), context(new AbortController().signal));
  const ran = await run(direct);
  assert.deepEqual([ran.exitCode, ran.error], [3, undefined]);
  assert.ok(ran.stdout.startsWith(`pwd=${folder} parent=`), ran.stdout);
  assert.doesNotMatch(ran.stdout, /parent=(sh|dash)\n/);
  assert.deepEqual([(await run(bare)).exitCode, (await run(bare)).stdout], [0, 'bare ran\n']);
  assert.equal((await run(locked)).exitCode, 126);
  assert.equal((await run(path.join(folder, 'missing.sh'))).exitCode, 127);
});

test('a script run again after it changed runs as sh -c would run it now: what was remembered of it follows the file', {
  timeout: 30_000,
}, async () => {
  const file = path.join(folder, 'changing.sh');
  const run = () => runCommandHook(hook(file), context(new AbortController().signal));
  writeFileSync(file, '#!/bin/sh\necho "parent=$(ps -o comm= -p $PPID)"\n', { mode: 0o755 });
  const direct = await run();
  assert.doesNotMatch(direct.stdout, /parent=(sh|dash)\n/);
  // Not executable any more: the shell's 126, not a spawn error.
  chmodSync(file, 0o644);
  assert.deepEqual([(await run()).exitCode, (await run()).error], [126, undefined]);
  // Executable again, but without #!: sh runs it itself.
  writeFileSync(file, 'echo "parent=$(ps -o comm= -p $PPID)"\n');
  chmodSync(file, 0o755);
  assert.match((await run()).stdout, /parent=(sh|dash)\n/);
  // A new file of the same name (another inode) with #!: started directly again.
  rmSync(file);
  writeFileSync(file, '#!/bin/sh\necho "parent=$(ps -o comm= -p $PPID)"\n', { mode: 0o755 });
  assert.doesNotMatch((await run()).stdout, /parent=(sh|dash)\n/);
});

test('a background job that let go of the pipes does not outlive its hook: the group is killed when the hook ends', {
  timeout: 30_000,
}, async () => {
  const ran = await runCommandHook(
    hook('sleep 60 >/dev/null 2>&1 </dev/null & echo $!'),
    context(new AbortController().signal),
  );
  assert.equal(ran.exitCode, 0);
  const job = Number(ran.stdout.trim());
  assert.ok(job > 0, ran.stdout);
  await until('the background job to be gone', () => !isAlive(job));
});
