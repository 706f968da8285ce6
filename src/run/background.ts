// Firing side of async hooks (spec §10.3): the hook is described in a job file and handed to a detached
// supervisor — peri-hooks itself in its internal `__async-run` mode — so that the firing can exit while the
// hook runs, and the hook is still killed at its timeout and its result still lands in the session.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { EventName } from '../events.ts';
import { randomHex } from '../platform/hash.ts';
import { jobFileName, type SessionRef } from '../session/store.ts';
import type { EffectiveSettings, LoadedHook } from '../types.ts';

export const ASYNC_RUN_COMMAND = '__async-run';
/** The session store's URL reaches the supervisor in its environment, never in the job file: it may hold a password. */
export const STORE_URL_VARIABLE = 'PERI_HOOKS_SUPERVISOR_STORE';

interface JobBase {
  jobId: string;
  /** Absent with --no-state: the hook still runs, bounded, and its result is dropped. */
  session?: SessionRef;
  hook: LoadedHook;
  event: EventName;
  label: string;
  timeoutMs: number;
  /** Set when the hook is a `once` hook whose claim the supervisor settles. */
  onceKey?: string;
}

/** A configured async hook: the supervisor runs it with the command runner. */
export interface RunJob extends JobBase {
  kind: 'run';
  input: Record<string, unknown>;
  inputJson: string;
  projectDir: string;
  cwd: string;
  settings: EffectiveSettings;
}

/** A hook that printed `{"async": true}`: the supervisor reads the rest of its output from fds 3 and 4. */
export interface AdoptJob extends JobBase {
  kind: 'adopt';
  pid: number;
  stdoutSoFar: string;
  stderrSoFar: string;
}

export type AsyncJob = RunJob | AdoptJob;

export function newJobId(): string {
  return `${Date.now().toString(36)}-${randomHex(5)}`;
}

/** Job files sit next to the session (or in the temporary folder with --no-state); the supervisor removes them. */
function jobFolder(session: SessionRef | undefined): string {
  return session
    ? path.join(session.dir, 'jobs')
    : path.join(tmpdir(), `peri-hooks-jobs-${process.getuid?.() ?? 'user'}`);
}

/**
 * Starts the supervisor, detached (own process group, no stdio of ours, unref'd). Synchronous: for an
 * adopted hook the pipes must change hands before this process reads another byte from them.
 * `self` is how to start peri-hooks itself; `env` is the environment the hook would have had.
 */
export function startSupervisor(
  job: AsyncJob,
  self: readonly string[],
  env: Record<string, string | undefined>,
  pipes?: [Readable, Readable],
): { pid: number } | { error: string } {
  const folder = jobFolder(job.session);
  const file = path.join(folder, jobFileName(job.jobId));
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    // The environment is not written: the supervisor inherits it, so no secret lands on disk.
    const { store: _store, ...session } = job.session ?? {};
    writeFileSync(file, JSON.stringify(job.session ? { ...job, session } : job), { mode: 0o600 });
  } catch (error) {
    return {
      error: `cannot write the async job file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    };
  }
  const [command, ...prefix] = self;
  try {
    const child = spawn(command!, [...prefix, ASYNC_RUN_COMMAND, file], {
      detached: true,
      stdio: pipes ? ['ignore', 'ignore', 'ignore', pipes[0], pipes[1]] : 'ignore',
      env: Object.fromEntries(
        Object.entries({ ...env, ...(job.session?.store ? { [STORE_URL_VARIABLE]: job.session.store } : {}) }).filter(
          (entry): entry is [string, string] => entry[1] !== undefined,
        ),
      ),
    });
    child.on('error', () => {});
    child.unref();
    if (child.pid === undefined) return { error: `cannot start the async supervisor ${command}` };
    return { pid: child.pid };
  } catch (error) {
    return { error: `cannot start the async supervisor ${command}: ${(error as Error).message}` };
  }
}
