// Shared pieces of the test reporters: names, places, and the summary line.
import pc from 'picocolors';
import { displayPath as relativePath } from '../text.ts';
import type { Diagnostic } from '../types.ts';
import type { CaseResult, Progress, SuiteResult } from './run.ts';

export interface ReportContext {
  /** Paths in reports are relative to this folder (GitHub annotations need repository-relative paths). */
  cwd: string;
  colour: boolean;
  /** Each case's line was already printed as it finished: the report then repeats only the failures. */
  streamed?: boolean;
}

/** Report paths: relative to the report's folder when inside it, else as given. */
export { relativePath };

/** The stderr of every hook that printed some, one `[hook] text` block each. */
export function hookStderr(result: CaseResult): string {
  return result.hooks
    .filter((hook) => hook.stderr !== '')
    .map((hook) => `[${hook.hook}] ${hook.stderr.trimEnd()}`)
    .join('\n');
}

export function caseTitle(result: CaseResult, cwd: string): string {
  return `${relativePath(result.testCase.file, cwd)} > ${result.testCase.name}`;
}

/** Where to point a reader for a failure: the failing expectation's line, else (no such expectation) the case's. */
export function failurePosition(result: CaseResult, key: string): { line: number; column: number } {
  const { testCase } = result;
  // A key is a pointer below `expect`: `decision`, or `hooks/<selector>` for one hook's expectations.
  const field = key.split('/')[0]!;
  return testCase.spec.expect && field in testCase.spec.expect
    ? testCase.locate(`${testCase.pointer}/expect/${key}`)
    : { line: testCase.line, column: testCase.column };
}

/** The messages of a failed or errored case, one per line. */
export function problems(result: CaseResult): string[] {
  if (result.status === 'error') return [result.error ?? 'the case could not run'];
  return result.failures.map((failure) =>
    failure.key === 'expect'
      ? `${failure.message} (actual decision: ${String(failure.actual)}); add "expect", or run peri-hooks test --update to record the actual decision`
      : failure.message,
  );
}

export function errorTitle(error: Diagnostic, cwd: string): string {
  const file = error.file ? relativePath(error.file, cwd) : 'peri-hooks test';
  return error.line !== undefined ? `${file}:${error.line}:${error.column ?? 1}` : file;
}

export function summaryLine(suite: Pick<SuiteResult, 'passed' | 'failed' | 'notRun' | 'leftOut'>): string {
  const notRun = suite.notRun > 0 ? `, ${suite.notRun} not run (--bail)` : '';
  const leftOut = suite.leftOut > 0 ? `, ${suite.leftOut} left out (--filter, --shard)` : '';
  return `${suite.passed} passed, ${suite.failed} failed${notRun}${leftOut}`;
}

/** One case in one line: what streams as each case finishes, and the title line of the report. */
export function caseLine(result: CaseResult, context: ReportContext): string {
  const c = pc.createColors(context.colour);
  const mark = result.status === 'passed' ? c.green('✓') : c.red('✗');
  return `${mark} ${caseTitle(result, context.cwd)} ${c.dim(`(${Math.round(result.durationMs)} ms)`)}`;
}

/** The progress line a terminal shows while cases run. */
export function progressLine(progress: Progress): string {
  return `peri-hooks test: ${progress.done}/${progress.total} done, ${progress.passed} passed, ${progress.failed} failed`;
}
