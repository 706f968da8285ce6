// `--reporter tap`: TAP version 13, one test point per case and per unreadable file or case, failures
// described in a YAML block (values written as JSON, which YAML reads as they are).
import {
  caseTitle,
  errorTitle,
  failurePosition,
  hookStderr,
  problems,
  type ReportContext,
  relativePath,
  summaryLine,
} from './report-common.ts';
import type { SuiteResult } from './run.ts';

export function renderTap(suite: SuiteResult, context: ReportContext): string {
  const lines = ['TAP version 13', `1..${suite.results.length + suite.errors.length}`];
  let number = 0;
  for (const result of suite.results) {
    number++;
    const title = description(caseTitle(result, context.cwd));
    if (result.status === 'passed') {
      lines.push(`ok ${number} - ${title}`);
      continue;
    }
    const { testCase } = result;
    const first = result.failures[0];
    const at = first ? failurePosition(result, first.key) : { line: testCase.line, column: testCase.column };
    lines.push(`not ok ${number} - ${title}`, '  ---');
    lines.push(`  message: ${JSON.stringify(problems(result).join('\n'))}`);
    lines.push(`  severity: ${JSON.stringify(result.status === 'error' ? 'error' : 'fail')}`);
    lines.push(
      '  at:',
      `    file: ${JSON.stringify(relativePath(testCase.file, context.cwd))}`,
      `    line: ${at.line}`,
      `    column: ${at.column}`,
    );
    if (result.failures.length > 0) {
      lines.push('  failures:');
      for (const failure of result.failures) {
        lines.push(
          `    - expectation: ${JSON.stringify(failure.key)}`,
          `      expected: ${JSON.stringify(failure.expected ?? null)}`,
          `      actual: ${JSON.stringify(failure.actual ?? null)}`,
        );
      }
    }
    const stderr = hookStderr(result);
    if (stderr !== '') lines.push(`  stderr: ${JSON.stringify(stderr)}`);
    lines.push('  ...');
  }
  for (const error of suite.errors) {
    number++;
    lines.push(`not ok ${number} - ${description(`${errorTitle(error, context.cwd)} cannot be read`)}`, '  ---');
    lines.push(`  message: ${JSON.stringify(error.message)}`, '  severity: "error"');
    if (error.fix) lines.push(`  fix: ${JSON.stringify(error.fix)}`);
    lines.push('  ...');
  }
  lines.push(`# ${summaryLine(suite)}`);
  return `${lines.join('\n')}\n`;
}

/** A TAP description is one line; `#` would start a directive. */
function description(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replaceAll('\\', '\\\\')
    .replaceAll('#', '\\#');
}
