// `peri-hooks __case-worker`: a process of its own that runs a suite's cases for cases/workers.ts. Starting a
// hook blocks the process that forks it for as long as the fork and the child's exec take, and that grows with
// the forking process's memory; forks in separate processes run side by side on the cores. Requests arrive as
// JSON lines on stdin, each result leaves as a JSON line on stdout; the end of stdin ends the worker. The cases'
// state folders go in the suite's folder, which the `test` process owns and removes: a worker that is killed
// leaves nothing behind.
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PeriHooksError } from '../errors.ts';
import { preferNodeCrypto } from '../platform/hash.ts';
import { type CaseOutcome, type CaseToRun, runCase } from './run-case.ts';
import { runSettingsCache } from './settings-cache.ts';

export const CASE_WORKER_COMMAND = '__case-worker';

export type WorkerRequest = { run: { index: number; testCase: CaseToRun; recording: boolean } } | { stop: true };
export type WorkerReply = { ready: true } | { index: number; outcome: CaseOutcome } | { watched: string[] };

/** `stateRoot`: the suite's folder (its argument); each case's state folder is named by the case's index in it. */
export async function caseWorker(stateRoot: string): Promise<number> {
  if (!path.isAbsolute(stateRoot))
    throw new PeriHooksError(
      'usage',
      `${CASE_WORKER_COMMAND} needs the suite's state folder as an absolute path, not "${stateRoot}"`,
      'it is internal: peri-hooks test starts it with the folder',
    );
  // Read once: every read of process.env calls into the runtime, and each case copies the whole environment.
  const env = { ...process.env };
  preferNodeCrypto();
  const stop = new AbortController();
  // Ctrl-C reaches the whole process group: the cases running here end as the parent's would.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop.abort());
  const cache = runSettingsCache();
  const reply = (message: WorkerReply) => process.stdout.write(`${JSON.stringify(message)}\n`);
  const running = new Set<Promise<void>>();
  reply({ ready: true });
  for await (const line of createInterface({ input: process.stdin })) {
    const request = JSON.parse(line) as WorkerRequest;
    if ('stop' in request) {
      stop.abort();
      continue;
    }
    const { index, testCase, recording } = request.run;
    const task = runCase(testCase, env, {
      signal: stop.signal,
      stateDir: path.join(stateRoot, String(index)),
      load: cache.load,
      recording,
    }).then((outcome) => {
      reply({ index, outcome });
    });
    running.add(task);
    void task.finally(() => running.delete(task));
  }
  await Promise.all(running);
  reply({ watched: cache.files() });
  return 0;
}
