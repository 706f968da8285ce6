// Run a suite: load every case file, fire each case in-process through a bounded pool, each case with its
// own state folder, and check its expectations.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_DIR_RULES } from '../config/sources.ts';
import { fire } from '../fire.ts';
import { formatError } from '../errors.ts';
import { loaderCodeCost } from '../config/codes.ts';
import type { Diagnostic } from '../types.ts';
import { discoverCaseFiles } from './discover.ts';
import { expandInput } from './expand.ts';
import { actualOf, check, hasExpectations, type Actual, type Failure } from './expect.ts';
import { loadCaseFile, type LoadedFile, type TestCase } from './load.ts';
import { runPool } from './pool.ts';

export interface HookStderr {
  hook: string;
  exitCode: number | null;
  timedOut: boolean;
  stderr: string;
}

export interface CaseResult {
  testCase: TestCase;
  /** `error`: the case could not run (its input is invalid, its settings cannot be read). */
  status: 'passed' | 'failed' | 'error';
  failures: Failure[];
  actual?: Actual;
  /** Every hook that ran, with its stderr, for the report of a failing case. */
  hooks: HookStderr[];
  /** Non-blocking hook errors, as Claude Code would show them. */
  hookErrors: string[];
  /** What the reader should know even of a passing case (no hooks found for its event). */
  notes?: string[];
  error?: string;
  durationMs: number;
}

export interface SuiteResult {
  files: LoadedFile[];
  results: CaseResult[];
  /** Files and cases that cannot be read: each one counts as a failure. */
  errors: Diagnostic[];
  passed: number;
  failed: number;
  durationMs: number;
}

export interface SuiteOptions {
  paths: readonly string[];
  cwd: string;
  jobs?: number;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Cases without expectations pass and keep their actual result, for --update. */
  recording?: boolean;
}

export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const started = performance.now();
  const discovered = discoverCaseFiles(options.paths, options.cwd);
  const files = await Promise.all(discovered.files.map(loadCaseFile));
  const errors = [...discovered.errors, ...files.flatMap((file) => file.errors)];
  const cases = files.flatMap((file) => file.cases);
  const env = options.env ?? process.env;
  const results = await runPool(cases, options.jobs ?? availableParallelism(), (testCase) => runCase(testCase, env, options));
  const passed = results.filter((result) => result.status === 'passed').length;
  return { files, results, errors, passed, failed: results.length - passed + errors.length, durationMs: performance.now() - started };
}

export async function runCase(testCase: TestCase, env: Record<string, string | undefined>, options: Pick<SuiteOptions, 'signal' | 'recording'> = {}): Promise<CaseResult> {
  const started = performance.now();
  const { spec } = testCase;
  const input = expandInput({
    event: testCase.event,
    key: `${testCase.file}#${testCase.name}`,
    projectDir: testCase.projectDir,
    ...(env.HOME ? { home: env.HOME } : {}),
    ...(spec.tool !== undefined ? { tool: spec.tool } : {}),
    ...(spec.toolInput !== undefined ? { toolInput: spec.toolInput } : {}),
    ...(spec.toolResponse !== undefined ? { toolResponse: spec.toolResponse } : {}),
    ...(testCase.inputFromFile || typeof spec.input === 'object' ? { input: { ...testCase.inputFromFile, ...(typeof spec.input === 'object' ? spec.input : {}) } } : {}),
  });
  // Each case gets its own state folder, so that `once` hooks and loop guards never leak between cases.
  const stateDir = mkdtempSync(path.join(tmpdir(), 'peri-hooks-case-'));
  const base = { testCase, hooks: [], hookErrors: [], failures: [] };
  try {
    const report = await fire(testCase.event, input, {
      projectDir: testCase.projectDir,
      env: { ...env, PERI_HOOKS_STATE_DIR: stateDir },
      ...(testCase.settings ? { settings: testCase.settings, settingSources: [] } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const actual = actualOf(report);
    const hooks = report.hooks.filter((hook) => hook.status === 'ran').map((hook) => ({ hook: hook.label, exitCode: hook.exitCode ?? null, timedOut: hook.timedOut === true, stderr: hook.stderr ?? '' }));
    // A settings file that the case names and that cannot be read makes the case an error, not a pass with no hooks.
    const unreadable = testCase.settings ? report.warnings.filter((warning) => loaderCodeCost(warning.code) === 'file') : [];
    if (unreadable.length > 0) {
      return { ...base, status: 'error', error: unreadable.map((warning) => `${warning.file}: ${warning.message}`).join('\n'), actual, hooks, durationMs: performance.now() - started };
    }
    // A call that meets no hook at all is said out loud, not left as a quiet "no decision".
    const from = report.projectDirFrom ? ` (${PROJECT_DIR_RULES[report.projectDirFrom]})` : '';
    const notes = report.noHooksFound ? [`no ${testCase.event} hooks found for project ${report.projectDir}${from}; searched: ${report.noHooksFound.searched.join(', ')}`] : [];
    const failures = hasExpectations(spec.expect)
      ? check(spec.expect!, report, actual)
      : options.recording ? [] : [{ key: 'expect', message: 'the case has no expectations', expected: 'an "expect" object', actual: actual.decision }];
    return { ...base, status: failures.length === 0 ? 'passed' : 'failed', failures, actual, hooks, hookErrors: report.errors, notes, durationMs: performance.now() - started };
  } catch (error) {
    return { ...base, status: 'error', error: formatError(error).replace(/^peri-hooks: /, ''), durationMs: performance.now() - started };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}
