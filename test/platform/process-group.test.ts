// The one process-group kill and output bound that the command runner and the async supervisor share.
// Real process groups: a pipe that closes is the proof that every process holding it is gone.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { type TestContext, test } from 'node:test';
import {
  Capture,
  OUTPUT_LIMIT_BYTES,
  reapAfterGrace,
  signalGroup,
  terminateGroup,
  truncation,
} from '../../src/platform/process-group.ts';

interface Group {
  pid: number;
  /** The signal that ended the leader. */
  exited: Promise<NodeJS.Signals | null>;
  stdout: Readable;
  stdoutClosed: Promise<void>;
  stderrClosed: Promise<void>;
}

/**
 * A shell as the leader of its own process group, its stdout and stderr piped to us, once the script has
 * printed its first line (a signal sent before the script set itself up would prove nothing). Killed after the test.
 */
async function group(t: TestContext, script: string): Promise<Group> {
  const child = spawn('/bin/sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = (stream: Readable) => new Promise<void>((resolve) => stream.once('close', () => resolve()));
  const started = {
    pid: child.pid!,
    exited: once(child, 'exit').then(([, signal]) => signal as NodeJS.Signals | null),
    stdout: child.stdout!,
    stdoutClosed: closed(child.stdout!),
    stderrClosed: closed(child.stderr!),
  };
  t.after(() => signalGroup(started.pid, 'SIGKILL'));
  await once(child.stdout!, 'data');
  child.stderr!.resume();
  return started;
}

test('terminateGroup ends the leader and its background child with SIGTERM', { timeout: 30_000 }, async (t) => {
  const child = await group(t, 'sleep 100 & echo ready; sleep 100');
  const cancel = terminateGroup(child.pid);
  assert.equal(await child.exited, 'SIGTERM');
  // The background sleep holds the pipes too: they close only once it is gone.
  await Promise.all([child.stdoutClosed, child.stderrClosed]);
  cancel();
});

test('terminateGroup escalates to SIGKILL for a group that ignores SIGTERM', { timeout: 30_000 }, async (t) => {
  // `trap "" TERM` is inherited by the background child: only SIGKILL ends either.
  const child = await group(t, 'trap "" TERM; sleep 100 & echo ready; sleep 100');
  terminateGroup(child.pid);
  assert.equal(await child.exited, 'SIGKILL');
  await Promise.all([child.stdoutClosed, child.stderrClosed]);
});

test('reapAfterGrace kills a child that kept the pipes after the leader exited', { timeout: 30_000 }, async (t) => {
  const child = await group(t, 'sleep 100 & echo ready; exit 0');
  assert.equal(await child.exited, null);
  // Only stdout is handed over to be closed: stderr closes only if the background sleep is killed.
  reapAfterGrace(child.pid, [child.stdout]);
  await Promise.all([child.stdoutClosed, child.stderrClosed]);
});

test('the bound is 10 MiB of bytes, not characters, and the capture says it cut', async () => {
  const stream = new PassThrough();
  const capture = new Capture();
  const done = capture.attach(stream);
  // 12 MiB of two-byte characters: a character count would keep all 6 Mi of them.
  stream.end(Buffer.from('é'.repeat(6 * 1024 * 1024), 'utf8'));
  await done;
  assert.equal(Buffer.byteLength(capture.text(), 'utf8'), OUTPUT_LIMIT_BYTES);
  assert.equal(capture.text().length, OUTPUT_LIMIT_BYTES / 2);
  assert.equal(capture.truncated, true);
});

test('output of exactly the bound is kept whole and not reported as cut', async () => {
  const stream = new PassThrough();
  const capture = new Capture();
  const done = capture.attach(stream);
  stream.end(Buffer.alloc(OUTPUT_LIMIT_BYTES, 'a'));
  await done;
  assert.equal(capture.text().length, OUTPUT_LIMIT_BYTES);
  assert.equal(capture.truncated, false);
  assert.deepEqual(truncation(capture, new Capture()), {});
});

test('what an earlier reader kept counts against the bound', async () => {
  const stream = new PassThrough();
  const capture = new Capture('ab');
  const done = capture.attach(stream);
  stream.end(Buffer.alloc(OUTPUT_LIMIT_BYTES, 'c'));
  await done;
  assert.equal(capture.text().length, OUTPUT_LIMIT_BYTES);
  assert.ok(capture.text().startsWith('abc'));
  assert.deepEqual(truncation(new Capture(), capture), { truncated: { stderr: true } });
});
