// `--update`: write the actual result into cases that have no expectations yet. Cases with expectations are
// never touched; the rest of the file keeps its text and formatting (jsonc-parser edits in place).
import { readFileSync, writeFileSync } from 'node:fs';
import { applyEdits, modify } from 'jsonc-parser';
import type { Actual } from './expect.ts';
import { hasExpectations } from './expect.ts';
import type { SuiteResult } from './run.ts';
import type { Expectation } from './schema.ts';

export interface Recorded {
  file: string;
  cases: string[];
}

export interface UpdateOutcome {
  recorded: Recorded[];
  /** Files changed on disk while the cases ran: left alone. */
  skipped: string[];
}

export function recordExpectations(suite: SuiteResult): UpdateOutcome {
  const recorded: Recorded[] = [];
  const skipped: string[] = [];
  for (const file of suite.files) {
    const targets = suite.results.filter(
      (result) =>
        result.testCase.file === file.file &&
        result.status === 'passed' &&
        result.actual &&
        !hasExpectations(result.testCase.spec.expect),
    );
    if (targets.length === 0) continue;
    let current: string;
    try {
      current = readFileSync(file.file, 'utf8');
    } catch {
      skipped.push(file.file);
      continue;
    }
    if (current !== file.text) {
      skipped.push(file.file);
      continue;
    }
    const formattingOptions = formatting(current);
    let text = current;
    for (const result of targets) {
      const path = [
        ...result.testCase.pointer
          .split('/')
          .slice(1)
          .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment)),
        'expect',
      ];
      text = applyEdits(text, modify(text, path, expectationOf(result.actual!), { formattingOptions }));
    }
    writeFileSync(file.file, text);
    recorded.push({ file: file.file, cases: targets.map((result) => result.testCase.name) });
  }
  return { recorded, skipped };
}

/** The decision, the exit code, and the reason and rewrite when there is one. */
export function expectationOf(actual: Actual): Expectation {
  return {
    decision: actual.decision,
    exitCode: actual.exitCode,
    ...(actual.reason !== undefined && actual.reason !== '' ? { reasonContains: actual.reason } : {}),
    ...(actual.updatedInput !== undefined ? { updatedInput: actual.updatedInput } : {}),
  };
}

function formatting(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}
