// The parent's end of the case workers (cases/worker.ts): peri-hooks started again as `__case-worker`, fed
// one case at a time over its stdin. A worker that has not started yet, or that is gone, takes nothing: its
// lane runs the case in this process instead, so a slow start or a crash costs speed, never a result.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { CaseOutcome, CaseToRun } from './run-case.ts';
import { CASE_WORKER_COMMAND, type WorkerReply, type WorkerRequest } from './worker.ts';

export interface CaseWorker {
  /** True once the worker takes cases; false when it never will (it could not start, or it exited). */
  ready: Promise<boolean>;
  /** The case's outcome, or undefined when the worker cannot take it (still starting, or gone). */
  run(index: number, testCase: CaseToRun, recording: boolean): Promise<CaseOutcome | undefined>;
  /** Ends the cases running in the worker (--bail, an interruption). */
  stop(): void;
  /**
   * Ends the worker once its cases are done; resolves with the files its cases read (what --watch watches) and,
   * for a worker that could not start or ended before, how (its cases ran in this process instead).
   */
  close(): Promise<{ watched: string[]; ended?: string }>;
}

/** `stateRoot`: the suite's folder, where the worker puts its cases' state folders; the caller removes it. */
export function startCaseWorker(
  selfCommand: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
  stateRoot: string,
): CaseWorker {
  const child = spawn(selfCommand[0]!, [...selfCommand.slice(1), CASE_WORKER_COMMAND, stateRoot], {
    env,
    cwd,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let state: 'starting' | 'ready' | 'gone' = 'starting';
  let settleReady: (ready: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => {
    settleReady = resolve;
  });
  const pending = new Map<number, (outcome: CaseOutcome | undefined) => void>();
  let watched: string[] = [];
  const gone = () => {
    state = 'gone';
    settleReady(false);
    for (const resolve of pending.values()) resolve(undefined);
    pending.clear();
  };
  let closing = false;
  let ended: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('close', (code, signal) => {
      if (!closing) ended ??= signal ? `was killed by ${signal}` : `exited with code ${code}`;
      gone();
      resolve();
    }),
  );
  child.once('error', (error) => {
    ended ??= `could not start (${error.message})`;
    gone();
  });
  child.stdin.on('error', gone);
  createInterface({ input: child.stdout }).on('line', (line) => {
    const reply = JSON.parse(line) as WorkerReply;
    if ('ready' in reply) {
      state = 'ready';
      settleReady(true);
    } else if ('watched' in reply) watched = reply.watched;
    else {
      pending.get(reply.index)?.(reply.outcome);
      pending.delete(reply.index);
    }
  });
  const send = (request: WorkerRequest) => child.stdin.write(`${JSON.stringify(request)}\n`);
  return {
    ready,
    run(index, testCase, recording) {
      if (state !== 'ready') return Promise.resolve(undefined);
      return new Promise((resolve) => {
        pending.set(index, resolve);
        send({ run: { index, testCase, recording } });
      });
    },
    stop() {
      if (state === 'ready') send({ stop: true });
    },
    async close() {
      closing = true;
      // A worker still starting has nothing to finish: it is not needed any more.
      if (state === 'starting') child.kill();
      child.stdin.end();
      await exited;
      return { watched, ...(ended !== undefined ? { ended } : {}) };
    },
  };
}
