// The default reporter: one line per case (only the failing ones when the lines already streamed); for a
// failing case, expected against actual and the hooks' stderr; then the errors; then the summary line.
import pc from 'picocolors';
import { formatDiagnostic } from '../text.ts';
import { caseLine, problems, type ReportContext, relativePath, summaryLine } from './report-common.ts';
import type { SuiteResult } from './run.ts';

const STDERR_LINES = 20;

export function renderHuman(suite: SuiteResult, context: ReportContext): string {
  const c = pc.createColors(context.colour);
  const lines: string[] = [];
  const shown = context.streamed ? suite.results.filter((result) => result.status !== 'passed') : suite.results;
  if (context.streamed && shown.length > 0) lines.push('', c.red(`${shown.length} failed:`));
  for (const result of shown) {
    lines.push(caseLine(result, context));
    if (result.status === 'passed') continue;
    const { testCase } = result;
    lines.push(`    ${c.dim(`at ${relativePath(testCase.file, context.cwd)}:${testCase.line}:${testCase.column}`)}`);
    for (const problem of problems(result))
      lines.push(...indent(problem, `    ${c.red(result.status === 'error' ? 'error:' : '-')} `, '      '));
    for (const hook of result.hooks) {
      const exit = hook.timedOut ? 'timed out' : `exit ${hook.exitCode ?? '-'}`;
      lines.push(`    ${c.dim('hook')} ${hook.hook} ${c.dim(`(${exit})`)}`);
      const stderr = hook.stderr
        .trimEnd()
        .split('\n')
        .filter((line) => line !== '');
      for (const line of stderr.slice(0, STDERR_LINES)) lines.push(`      ${c.dim('stderr |')} ${line}`);
      if (stderr.length > STDERR_LINES)
        lines.push(`      ${c.dim(`stderr | ... ${stderr.length - STDERR_LINES} more lines`)}`);
    }
    for (const error of result.hookErrors) lines.push(`    ${c.yellow('hook error')} ${error}`);
  }
  if (suite.errors.length > 0) {
    lines.push('', c.red(`${suite.errors.length} case file ${suite.errors.length === 1 ? 'error' : 'errors'}:`));
    for (const error of suite.errors)
      lines.push(
        formatDiagnostic({ ...error, ...(error.file ? { file: relativePath(error.file, context.cwd) } : {}) }),
      );
  }
  const line = summaryLine(suite);
  lines.push('', suite.failed > 0 ? c.red(line) : c.green(line));
  return `${lines.join('\n')}\n`;
}

function indent(text: string, first: string, rest: string): string[] {
  return text.split('\n').map((line, index) => `${index === 0 ? first : rest}${line}`);
}
