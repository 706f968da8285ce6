// `peri-hooks __async-run <job file>`: the detached supervisor of one async hook. It runs the hook with the
// normal command runner (timeout, process-group kill), or adopts one that moved itself to the background,
// then stores what the hook has to say in the session, under the lock, for the next firing to deliver.
import { readFileSync, unlinkSync } from 'node:fs';
import { Socket } from 'node:net';
import { classifyOutcome } from '../outcome.ts';
import { isoTime, nowMs } from '../platform/clock.ts';
import { Capture, reapAfterGrace, signalGroup, terminateGroup, truncation } from '../platform/process-group.ts';
import { timerMs } from '../platform/timer.ts';
import { runCommandHook } from '../runners/command.ts';
import { rewakeMessage } from '../session/delivery.ts';
import { isAlive } from '../session/lock.ts';
import { ranSuccessfully } from '../session/once.ts';
import type { AsyncResult } from '../session/schema.ts';
import { closeStores, updateSession } from '../session/store.ts';
import type { RawOutcome } from '../types.ts';
import { type AdoptJob, type AsyncJob, STORE_URL_VARIABLE } from './background.ts';

/** Storing a result waits longer than a firing would: nobody waits on the supervisor. */
const STORE_LOCK_WAIT_MS = 60_000;
/** How often the supervisor, not the hook's parent, checks whether the hook's own process has exited. */
const POLL_MS = 100;

export async function superviseJob(file: string): Promise<number> {
  let job: AsyncJob;
  try {
    job = JSON.parse(readFileSync(file, 'utf8')) as AsyncJob;
    unlinkSync(file);
  } catch {
    return 1;
  }
  // The hook must not inherit the store's URL.
  const store = process.env[STORE_URL_VARIABLE];
  delete process.env[STORE_URL_VARIABLE];
  if (job.session && store) job.session.store = store;
  const raw =
    job.kind === 'run'
      ? await runCommandHook(job.hook, {
          event: job.event,
          input: job.input,
          inputJson: job.inputJson,
          projectDir: job.projectDir,
          cwd: job.cwd,
          env: process.env,
          timeoutMs: job.timeoutMs,
          settings: job.settings,
          signal: new AbortController().signal,
          warn: () => {},
        })
      : await adopt(job);
  if (!job.session) return 0;

  const result = await classifyOutcome(raw, {
    event: job.event,
    handler: job.hook.handler,
    label: job.label,
    fromPlugin: job.hook.provenance.layer === 'plugin',
  });
  const handler = job.hook.handler;
  const rewake =
    handler.type === 'command' && handler.asyncRewake && raw.exitCode === 2 && !raw.timedOut
      ? rewakeMessage(job.label, raw.stderr, raw.stdout)
      : undefined;
  const specific = result.json?.hookSpecificOutput as Record<string, unknown> | undefined;
  const delivered: AsyncResult = {
    jobId: job.jobId,
    hookId: job.hook.id,
    label: job.label,
    event: job.event,
    finishedAt: isoTime(),
    ...(typeof result.json?.systemMessage === 'string' ? { systemMessage: result.json.systemMessage } : {}),
    ...(typeof specific?.additionalContext === 'string' ? { additionalContext: specific.additionalContext } : {}),
    ...(rewake !== undefined ? { rewake } : {}),
  };
  const hasNews =
    delivered.systemMessage !== undefined || delivered.additionalContext !== undefined || rewake !== undefined;
  const { onceKey } = job;
  if (!hasNews && onceKey === undefined) return 0;
  await updateSession(
    job.session,
    (state) => {
      if (hasNews) state.results.push(delivered);
      const claim = onceKey === undefined ? undefined : state.once[onceKey];
      if (onceKey !== undefined && claim?.status === 'running') {
        if (ranSuccessfully(result)) state.once[onceKey] = { status: 'done', label: job.label, at: isoTime() };
        else delete state.once[onceKey];
      }
    },
    { deadline: Date.now() + STORE_LOCK_WAIT_MS },
  );
  await closeStores();
  return 0;
}

/**
 * The rest of a hook's run after `{"async": true}`: read fds 3 and 4 (its stdout and stderr) to the end,
 * kill its process group at the async timeout. Not its parent, the supervisor cannot learn its exit status;
 * a hook that ends on its own counts as exit 0, so that its JSON answer is what decides.
 */
async function adopt(job: AdoptJob): Promise<RawOutcome> {
  const started = nowMs();
  const pipes = [
    new Socket({ fd: 3, readable: true, writable: false }),
    new Socket({ fd: 4, readable: true, writable: false }),
  ];
  const stdout = new Capture(job.stdoutSoFar);
  const stderr = new Capture(job.stderrSoFar);
  const cancels: Array<() => void> = [];
  let timedOut = false;
  const timeout = setTimeout(() => {
    timedOut = true;
    cancels.push(terminateGroup(job.pid));
  }, timerMs(job.timeoutMs));
  const poll = setInterval(() => {
    if (isAlive(job.pid)) return;
    clearInterval(poll);
    cancels.push(reapAfterGrace(job.pid, pipes));
  }, POLL_MS);
  await Promise.all([stdout.attach(pipes[0]), stderr.attach(pipes[1])]);
  clearInterval(poll);
  clearTimeout(timeout);
  for (const cancel of cancels) cancel();
  signalGroup(job.pid, 'SIGKILL');
  return {
    exitCode: timedOut ? null : 0,
    stdout: stdout.text(),
    stderr: stderr.text(),
    timedOut,
    durationMs: nowMs() - started,
    ...truncation(stdout, stderr),
  };
}
