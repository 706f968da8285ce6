// `--reporter json`: the whole run as one versioned JSON document on stdout, cases in file and index order,
// every key present, as its published schema says (cases/document.ts).

import { documentText } from '../report/shape.ts';
import { testReportDocumentSchema } from './document.ts';
import { failurePosition, problems, type ReportContext, relativePath } from './report-common.ts';
import type { SuiteResult } from './run.ts';

export function renderJson(suite: SuiteResult, context: ReportContext): string {
  const cases = suite.results.map((result) => {
    const { testCase } = result;
    return {
      file: relativePath(testCase.file, context.cwd),
      name: testCase.name,
      line: testCase.line,
      column: testCase.column,
      status: result.status,
      durationMs: Math.round(result.durationMs),
      messages: result.status === 'passed' ? [] : problems(result),
      failures: result.failures.map((failure) => ({ ...failure, ...failurePosition(result, failure.key) })),
      actual: result.actual,
      hooks: result.hooks,
      hookErrors: result.hookErrors,
    };
  });
  const errors = suite.errors.map((error) => ({
    ...error,
    ...(error.file ? { file: relativePath(error.file, context.cwd) } : {}),
  }));
  const summary = {
    passed: suite.passed,
    failed: suite.failed,
    notRun: suite.notRun,
    leftOut: suite.leftOut,
    durationMs: Math.round(suite.durationMs),
  };
  return documentText(testReportDocumentSchema(), { summary, cases, errors });
}
