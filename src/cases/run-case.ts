// One case of a suite, run: its input built, fired, its expectations checked. Apart from run.ts (the suite), so
// that a case worker (worker.ts) loads neither the case-file reader nor zod, which only the suite needs.

import { loaderCodeCost } from '../config/codes.ts';
import { formatError } from '../errors.ts';
import { type FireOptions, fire } from '../fire.ts';
import { nowMs } from '../platform/clock.ts';
import { expandInput } from './expand.ts';
import { type Actual, actualOf, check, type Failure, hasExpectations } from './expect.ts';
import type { TestCase } from './load.ts';

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
  error?: string;
  durationMs: number;
}

/** What running a case gives, before the case itself is attached: what a case worker sends back. */
export type CaseOutcome = Omit<CaseResult, 'testCase'>;
/** A case as a case worker receives it (JSON: no functions). */
export type CaseToRun = Omit<TestCase, 'locate'>;

export interface CaseOptions {
  signal?: AbortSignal;
  recording?: boolean;
  /** The case's own state folder, so that `once` hooks and loop guards never leak between cases. */
  stateDir: string;
  load?: FireOptions['load'];
}

export async function runCase(
  testCase: CaseToRun,
  env: Record<string, string | undefined>,
  options: CaseOptions,
): Promise<CaseOutcome> {
  const started = nowMs();
  const { spec } = testCase;
  const input = expandInput({
    event: testCase.event,
    key: `${testCase.file}#${testCase.name}`,
    projectDir: testCase.projectDir,
    ...(env.HOME ? { home: env.HOME } : {}),
    ...(spec.tool !== undefined ? { tool: spec.tool } : {}),
    ...(spec.toolInput !== undefined ? { toolInput: spec.toolInput } : {}),
    ...(spec.toolResponse !== undefined ? { toolResponse: spec.toolResponse } : {}),
    ...(testCase.inputFromFile || typeof spec.input === 'object'
      ? { input: { ...testCase.inputFromFile, ...(typeof spec.input === 'object' ? spec.input : {}) } }
      : {}),
  });
  const base = { hooks: [], hookErrors: [], failures: [] };
  try {
    const report = await fire(testCase.event, input, {
      inputSource: `${testCase.file}, case "${testCase.name}"`,
      projectDir: testCase.projectDir,
      // A suite tests the policy's content, which the developer runs on purpose (as `npm test`): trust is for agents.
      env: { ...env, PERI_HOOKS_STATE_DIR: options.stateDir, PERI_HOOKS_REQUIRE_TRUST: undefined },
      ...(testCase.settings ? { settings: testCase.settings, settingSources: [] } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.load ? { load: options.load } : {}),
    });
    const actual = actualOf(report);
    const hooks = report.hooks
      .filter((hook) => hook.status === 'ran')
      .map((hook) => ({
        hook: hook.label,
        exitCode: hook.exitCode ?? null,
        timedOut: hook.timedOut === true,
        stderr: hook.stderr ?? '',
      }));
    // A settings file that the case names and that cannot be read makes the case an error, not a pass with no hooks.
    const unreadable = testCase.settings
      ? report.warnings.filter((warning) => loaderCodeCost(warning.code) === 'file')
      : [];
    if (unreadable.length > 0) {
      return {
        ...base,
        status: 'error',
        error: unreadable.map((warning) => `${warning.file}: ${warning.message}`).join('\n'),
        actual,
        hooks,
        durationMs: nowMs() - started,
      };
    }
    const failures = report.noHooksFound
      ? [noHooksFailure(testCase, report.noHooksFound.searched)]
      : hasExpectations(spec.expect)
        ? check(spec.expect!, report, actual)
        : options.recording
          ? []
          : [
              {
                key: 'expect',
                message: 'the case has no expectations',
                expected: 'an "expect" object',
                actual: actual.decision,
              },
            ];
    return {
      ...base,
      status: failures.length === 0 ? 'passed' : 'failed',
      failures,
      actual,
      hooks,
      hookErrors: report.errors,
      durationMs: nowMs() - started,
    };
  } catch (error) {
    return {
      ...base,
      status: 'error',
      error: formatError(error).replace(/^peri-hooks: /, ''),
      durationMs: nowMs() - started,
    };
  }
}

/** A call that meets no hook at all enforces nothing: a silent "no decision" must not pass as green. */
function noHooksFailure(testCase: CaseToRun, searched: string[]): Failure {
  const where = testCase.settings
    ? `the case's "settings" hold no ${testCase.event} hooks`
    : `no settings of project ${testCase.projectDir} (chosen by ${testCase.projectDirFrom}) hold ${testCase.event} hooks`;
  return {
    key: 'noHooks',
    message: `no ${testCase.event} hooks loaded: ${where}; searched: ${searched.join(', ') || 'nothing'}; fix: set "projectDir" in the case file to the project whose .claude/settings.json has the hooks, or name them in "settings"`,
    expected: `at least one ${testCase.event} hook`,
    actual: 'none',
  };
}
