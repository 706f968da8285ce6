// `--reporter github`: GitHub Actions workflow commands, so that failures show as annotations on the lines
// of the case files; then the summary line.

import { workflowCommand } from '../report/workflow-command.ts';
import {
  errorTitle,
  failurePosition,
  problems,
  type ReportContext,
  relativePath,
  summaryLine,
} from './report-common.ts';
import type { SuiteResult } from './run.ts';

export function renderGithub(suite: SuiteResult, context: ReportContext): string {
  const lines: string[] = [];
  for (const result of suite.results) {
    if (result.status === 'passed') continue;
    const file = relativePath(result.testCase.file, context.cwd);
    const title = `peri-hooks test: ${result.testCase.name}`;
    const stderr = result.hooks
      .filter((hook) => hook.stderr !== '')
      .map((hook) => `[${hook.hook}] stderr: ${hook.stderr.trimEnd()}`);
    if (result.status === 'error') {
      lines.push(
        command(
          { file, line: result.testCase.line, col: result.testCase.column, title },
          [...problems(result), ...stderr].join('\n'),
        ),
      );
      continue;
    }
    for (const failure of result.failures) {
      const at = failurePosition(result, failure.key);
      const message = failure.key === 'expect' ? problems(result)[0]! : failure.message;
      lines.push(command({ file, line: at.line, col: at.column, title }, [message, ...stderr].join('\n')));
    }
  }
  for (const error of suite.errors) {
    const properties = error.file
      ? {
          file: relativePath(error.file, context.cwd),
          ...(error.line !== undefined ? { line: error.line, col: error.column ?? 1 } : {}),
          title: 'peri-hooks test: case file error',
        }
      : { title: 'peri-hooks test' };
    lines.push(
      command(
        properties,
        `${errorTitle(error, context.cwd)}: ${error.message}${error.fix ? `\nfix: ${error.fix}` : ''}`,
      ),
    );
  }
  lines.push(summaryLine(suite));
  return `${lines.join('\n')}\n`;
}

function command(properties: Record<string, string | number>, message: string): string {
  return workflowCommand('error', properties, message);
}
