// The one process-group kill and output bound that the command runner and the async supervisor share.
// Real process groups: a pipe that closes is the proof that every process holding it is gone.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { Capture, OUTPUT_LIMIT_BYTES, reapAfterGrace, signalGroup, terminateGroup, truncation } from '../../src/run/process.ts';

/** A shell as the leader of its own process group, with its stdout and stderr piped to us; killed after the test. */
async function group(t: TestContext, script: string): Promise<ChildProcess & { pid: number; stdout: Readable; stderr: Readable }> {
  const child = spawn('/bin/sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  await once(child, 'spawn');
  t.after(() => signalGroup(child.pid!, 'SIGKILL'));
  return child as ChildProcess & { pid: number; stdout: Readable; stderr: Readable };
}

const closed = (stream: Readable) => new Promise<void>((resolve) => {
  stream.resume();
  stream.once('close', () => resolve());
});

test('terminateGroup ends the leader and its background child with SIGTERM', { timeout: 30_000 }, async (t) => {
  const child = await group(t, 'sleep 100 & sleep 100');
  const exited = once(child, 'exit');
  const cancel = terminateGroup(child.pid);
  const [, signal] = await exited;
  await closed(child.stdout);
  cancel();
  assert.equal(signal, 'SIGTERM');
});

test('terminateGroup escalates to SIGKILL for a group that ignores SIGTERM', { timeout: 30_000 }, async (t) => {
  // `trap "" TERM` is inherited by the background child: only SIGKILL ends either.
  const child = await group(t, 'trap "" TERM; sleep 100 & sleep 100');
  const exited = once(child, 'exit');
  terminateGroup(child.pid);
  const [, signal] = await exited;
  await closed(child.stdout);
  assert.equal(signal, 'SIGKILL');
});

test('reapAfterGrace kills a child that kept the pipes after the leader exited', { timeout: 30_000 }, async (t) => {
  const child = await group(t, 'sleep 100 & exit 0');
  await once(child, 'exit');
  // Only stdout is handed over to be closed: stderr closes only if the background sleep is killed.
  reapAfterGrace(child.pid, [child.stdout]);
  await Promise.all([closed(child.stdout), closed(child.stderr)]);
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
