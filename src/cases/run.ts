// Run a suite: load every case file, select the cases (--filter, --shard), fire each through a bounded pool
// (in case worker processes when there are enough cases and cores, else in this one) with the settings loaded
// once per source set, each case with its own state folder, and check its expectations; each result is
// reported as it finishes.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { nowMs } from '../platform/clock.ts';
import { preferNodeCrypto } from '../platform/hash.ts';
import { useSpawner } from '../platform/spawner.ts';
import type { Diagnostic } from '../types.ts';
import { discoverCaseFiles } from './discover.ts';
import { type LoadedFile, loadCaseFile, type TestCase } from './load.ts';
import { runLanesUntil } from './pool.ts';
import { type CaseResult, type CaseToRun, runCase } from './run-case.ts';
import { runSettingsCache } from './settings-cache.ts';
import { type CaseWorker, startCaseWorker } from './workers.ts';

export type { CaseOutcome, CaseResult, CaseToRun, HookStderr } from './run-case.ts';

export interface SuiteResult {
  files: LoadedFile[];
  /** In case file and index order, whatever order the cases finished in. */
  results: CaseResult[];
  /** Files and cases that cannot be read: each one counts as a failure. */
  errors: Diagnostic[];
  passed: number;
  failed: number;
  /** Cases that --bail kept from starting or interrupted. */
  notRun: number;
  /** Cases left out by --filter or --shard. */
  leftOut: number;
  /** The case files, settings files and hook scripts the run read: what --watch watches. */
  watched: string[];
  /** How each case worker that could not start or ended early ended; its cases ran in this process instead. */
  workersEnded: string[];
  durationMs: number;
}

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export interface Progress {
  done: number;
  total: number;
  passed: number;
  failed: number;
}

export interface SuiteOptions {
  paths: readonly string[];
  cwd: string;
  jobs?: number;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Cases without expectations pass and keep their actual result, for --update. */
  recording?: boolean;
  /** Only cases whose name matches run. */
  filter?: RegExp;
  /** Stop starting cases after the first failure, and interrupt those running. */
  bail?: boolean;
  shard?: Shard;
  /** Called as each case finishes, in the order they finish. */
  onResult?: (result: CaseResult, progress: Progress) => void;
  /** How to start peri-hooks again (argv), for case worker processes; without it every case runs in this process. */
  selfCommand?: readonly string[];
  /** False: no spawner helper, so that a suite large enough runs in worker processes (their tests). */
  spawner?: false;
}

/** Each worker process must have this many cases to run for its start (tens of milliseconds) to pay. */
const CASES_PER_WORKER = 16;
/** Cases at once per core when their hooks start from the spawner: a case mostly waits for its hook processes. */
const CASES_PER_CORE = 4;

export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const started = nowMs();
  const discovered = discoverCaseFiles(options.paths, options.cwd);
  const files = await Promise.all(discovered.files.map(loadCaseFile));
  const errors = [...discovered.errors, ...files.flatMap((file) => file.errors)];
  const all = files.flatMap((file) => file.cases);
  const cases = selectCases(all, options);
  // A suite that starts workers hashes a session id per case: node:crypto pays for itself.
  if (cases.length >= CASES_PER_WORKER) preferNodeCrypto();
  // Read once: every read of process.env calls into the runtime, and each case copies the whole environment.
  const env = { ...(options.env ?? process.env) };
  // Cases stop when the caller interrupts, and on the first failure with --bail.
  const stop = new AbortController();
  const forward = () => stop.abort();
  options.signal?.addEventListener('abort', forward, { once: true });
  if (options.signal?.aborted) stop.abort();
  // One folder for the run, the workers' cases included; each case's state folder is a path inside it, named by the
  // case's index, that fire creates only when a case keeps state.
  const stateRoot = mkdtempSync(path.join(tmpdir(), 'peri-hooks-cases-'));
  const cache = runSettingsCache();
  const progress: Progress = { done: 0, total: cases.length, passed: 0, failed: 0 };
  // A suite's hooks start from spawner helpers, small processes that fork faster than this one or a worker
  // (platform/spawner.ts), one per core since each forks one hook at a time: the cases run here, several per core.
  // Where there is no helper (Deno), in worker processes.
  const spawning =
    cases.length >= CASES_PER_WORKER && options.spawner !== false && (await useSpawner(availableParallelism()));
  const jobs = Math.max(
    1,
    Math.min(options.jobs ?? availableParallelism() * (spawning ? CASES_PER_CORE : 1), cases.length),
  );
  const workers = spawning ? [] : startWorkers(options, cases.length, jobs, env, stateRoot);
  const stopWorkers = () => {
    for (const worker of workers) worker.stop();
  };
  stop.signal.addEventListener('abort', stopWorkers, { once: true });
  const inProcess = (testCase: TestCase, index: number) =>
    runCase(testCase, env, {
      ...options,
      signal: stop.signal,
      stateDir: path.join(stateRoot, String(index)),
      load: cache.load,
    });
  // Lane i hands its cases to worker i % workers; it runs them here while that worker starts, or if it is gone.
  const lanes = Array.from(
    { length: jobs },
    (_, lane) =>
      async (testCase: TestCase, index: number): Promise<CaseResult | undefined> => {
        const worker = workers.length > 0 ? workers[lane % workers.length] : undefined;
        const outcome =
          (await worker?.run(index, caseToRun(testCase), options.recording === true)) ??
          (await inProcess(testCase, index));
        const result = { testCase, ...outcome };
        // A case that ends after the stop was interrupted: it counts as not run, not as a failure of its own.
        if (stop.signal.aborted) return undefined;
        progress.done++;
        if (result.status === 'passed') progress.passed++;
        else progress.failed++;
        if (options.bail && result.status !== 'passed') stop.abort();
        options.onResult?.(result, { ...progress });
        return result;
      },
  );
  let settled: Array<CaseResult | undefined>;
  const workerFiles: string[] = [];
  const workersEnded: string[] = [];
  try {
    settled = await runLanesUntil(cases, lanes, () => stop.signal.aborted);
  } finally {
    options.signal?.removeEventListener('abort', forward);
    stop.signal.removeEventListener('abort', stopWorkers);
    for (const closed of await Promise.all(workers.map((worker) => worker.close()))) {
      workerFiles.push(...closed.watched);
      if (closed.ended !== undefined) workersEnded.push(closed.ended);
    }
    rmSync(stateRoot, { recursive: true, force: true });
  }
  const results = settled.filter((result) => result !== undefined);
  const passed = results.filter((result) => result.status === 'passed').length;
  return {
    files,
    results,
    errors,
    passed,
    failed: results.length - passed + errors.length,
    notRun: cases.length - results.length,
    leftOut: all.length - cases.length,
    watched: [...new Set([...files.map((file) => file.file), ...cache.files(), ...workerFiles])].sort(),
    workersEnded,
    durationMs: nowMs() - started,
  };
}

/** One worker process per core the jobs can use, when each has enough cases; none without a way to start one. */
function startWorkers(
  options: SuiteOptions,
  caseCount: number,
  jobs: number,
  env: Record<string, string | undefined>,
  stateRoot: string,
): CaseWorker[] {
  const count = Math.min(jobs, availableParallelism(), Math.floor(caseCount / CASES_PER_WORKER));
  if (!options.selfCommand || count < 2) return [];
  return Array.from({ length: count }, () => startCaseWorker(options.selfCommand!, env, options.cwd, stateRoot));
}

function caseToRun(testCase: TestCase): CaseToRun {
  const { locate: _, ...rest } = testCase;
  return rest;
}

/** --filter, then --shard: the shard takes every count-th case of the filtered suite, in file and index order. */
export function selectCases(cases: readonly TestCase[], options: Pick<SuiteOptions, 'filter' | 'shard'>): TestCase[] {
  const filtered = options.filter ? cases.filter((testCase) => options.filter!.test(testCase.name)) : [...cases];
  const shard = options.shard;
  return shard ? filtered.filter((_, index) => index % shard.count === shard.index - 1) : filtered;
}
