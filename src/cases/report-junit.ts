// `--reporter junit`: a JUnit XML file for CI systems. One <testsuite> per case file; a file or case that
// cannot be read is a <testcase> with an <error>.
import type { Diagnostic } from '../types.ts';
import {
  errorTitle,
  failurePosition,
  hookStderr,
  problems,
  type ReportContext,
  relativePath,
} from './report-common.ts';
import type { CaseResult, SuiteResult } from './run.ts';

export function renderJunit(suite: SuiteResult, context: ReportContext): string {
  const byFile = new Map<string, { results: CaseResult[]; errors: Diagnostic[] }>();
  const group = (file: string) => {
    let entry = byFile.get(file);
    if (!entry) byFile.set(file, (entry = { results: [], errors: [] }));
    return entry;
  };
  for (const file of suite.files) group(file.file);
  for (const result of suite.results) group(result.testCase.file).results.push(result);
  for (const error of suite.errors) group(error.file ?? 'peri-hooks test').errors.push(error);

  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failures = suite.results.filter((result) => result.status === 'failed').length;
  const errors = suite.results.filter((result) => result.status === 'error').length + suite.errors.length;
  lines.push(
    `<testsuites name="peri-hooks test" tests="${suite.results.length + suite.errors.length}" failures="${failures}" errors="${errors}" time="${seconds(suite.durationMs)}">`,
  );
  for (const [file, entry] of byFile) {
    const name = relativePath(file, context.cwd);
    const suiteFailures = entry.results.filter((result) => result.status === 'failed').length;
    const suiteErrors = entry.results.filter((result) => result.status === 'error').length + entry.errors.length;
    const time = entry.results.reduce((total, result) => total + result.durationMs, 0);
    lines.push(
      `  <testsuite name="${attr(name)}" tests="${entry.results.length + entry.errors.length}" failures="${suiteFailures}" errors="${suiteErrors}" time="${seconds(time)}">`,
    );
    for (const result of entry.results) {
      const { testCase } = result;
      const open = `    <testcase name="${attr(testCase.name)}" classname="${attr(name)}" file="${attr(name)}" line="${testCase.line}" time="${seconds(result.durationMs)}"`;
      if (result.status === 'passed') {
        lines.push(`${open}/>`);
        continue;
      }
      lines.push(`${open}>`);
      const message = problems(result).join('\n');
      if (result.status === 'error')
        lines.push(`      <error message="${attr(message)}" type="error">${text(message)}</error>`);
      else {
        const details = result.failures
          .map((failure) => {
            const at = failurePosition(result, failure.key);
            return `${name}:${at.line}:${at.column}: ${failure.message}`;
          })
          .join('\n');
        lines.push(`      <failure message="${attr(message)}" type="assertion">${text(details)}</failure>`);
      }
      const stderr = hookStderr(result);
      if (stderr !== '') lines.push(`      <system-err>${text(stderr)}</system-err>`);
      lines.push('    </testcase>');
    }
    for (const error of entry.errors) {
      const message = `${error.message}${error.fix ? `\nfix: ${error.fix}` : ''}`;
      lines.push(
        `    <testcase name="${attr(`${errorTitle(error, context.cwd)} cannot be read`)}" classname="${attr(name)}" file="${attr(name)}"${error.line !== undefined ? ` line="${error.line}"` : ''} time="0">`,
      );
      lines.push(`      <error message="${attr(error.message)}" type="${attr(error.code)}">${text(message)}</error>`);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Characters XML 1.0 cannot hold at all (hooks may print anything) are replaced. */
function clean(value: string): string {
  return value.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
}

function text(value: string): string {
  return clean(value).replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function attr(value: string): string {
  return text(value)
    .replaceAll('"', '&quot;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\r', '&#13;')
    .replaceAll('\t', '&#9;');
}
