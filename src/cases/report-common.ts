// Shared pieces of the test reporters: names, places, and the summary line.
import { displayPath as relativePath } from '../text.ts';
import type { Diagnostic } from '../types.ts';
import type { CaseResult, SuiteResult } from './run.ts';

export interface ReportContext {
  /** Paths in reports are relative to this folder (GitHub annotations need repository-relative paths). */
  cwd: string;
  colour: boolean;
}

/** Report paths: relative to the report's folder when inside it, else as given. */
export { relativePath };

/** The stderr of every hook that printed some, one `[hook] text` block each. */
export function hookStderr(result: CaseResult): string {
  return result.hooks.filter((hook) => hook.stderr !== '').map((hook) => `[${hook.hook}] ${hook.stderr.trimEnd()}`).join('\n');
}

export function caseTitle(result: CaseResult, cwd: string): string {
  return `${relativePath(result.testCase.file, cwd)} > ${result.testCase.name}`;
}

/** Where to point a reader for a failure: the failing expectation's line, else the case's. */
export function failurePosition(result: CaseResult, key: string): { line: number; column: number } {
  const { testCase } = result;
  return key === 'expect' ? { line: testCase.line, column: testCase.column } : testCase.locate(`${testCase.pointer}/expect/${key}`);
}

/** The messages of a failed or errored case, one per line. */
export function problems(result: CaseResult): string[] {
  if (result.status === 'error') return [result.error ?? 'the case could not run'];
  return result.failures.map((failure) => (failure.key === 'expect'
    ? `${failure.message} (actual decision: ${String(failure.actual)}); add "expect", or run peri-hooks test --update to record the actual decision`
    : failure.message));
}

export function errorTitle(error: Diagnostic, cwd: string): string {
  const file = error.file ? relativePath(error.file, cwd) : 'peri-hooks test';
  return error.line !== undefined ? `${file}:${error.line}:${error.column ?? 1}` : file;
}

export function summaryLine(suite: SuiteResult): string {
  return `${suite.passed} passed, ${suite.failed} failed`;
}
