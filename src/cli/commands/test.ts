// `peri-hooks test [paths...]`: run hook test cases, report, exit 0 when every case passes, else 1.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXIT, PeriHooksError } from '../../errors.ts';
import { renderGithub } from '../../cases/report-github.ts';
import { renderHuman } from '../../cases/report-human.ts';
import { renderJunit } from '../../cases/report-junit.ts';
import { relativePath, type ReportContext } from '../../cases/report-common.ts';
import { renderTap } from '../../cases/report-tap.ts';
import { runSuite, type SuiteResult } from '../../cases/run.ts';
import { interruptible, list, parseJobs, type ColourChoice, useColour, write } from '../io.ts';

export interface TestFlags {
  color?: ColourChoice;
  jobs?: unknown;
  reporter?: unknown;
  outputFile?: string;
  update?: boolean;
}

const REPORTERS = ['default', 'tap', 'junit', 'github'] as const;
type ReporterName = (typeof REPORTERS)[number];
const CONSOLE: Record<Exclude<ReporterName, 'junit'>, (suite: SuiteResult, context: ReportContext) => string> = { default: renderHuman, tap: renderTap, github: renderGithub };
export const DEFAULT_JUNIT_FILE = 'peri-hooks-junit.xml';

export async function testCommand(paths: readonly string[], flags: TestFlags): Promise<number> {
  const reporters = parseReporters(flags.reporter);
  if (flags.outputFile !== undefined && !reporters.includes('junit')) {
    throw new PeriHooksError('usage', '--output-file names the JUnit file, but --reporter junit is not given', 'add --reporter junit, or drop --output-file');
  }
  const jobs = parseJobs(flags.jobs, 'default: the number of cores');
  const cwd = process.cwd();
  const { value: suite, aborted } = await interruptible((signal) => runSuite({ paths, cwd, signal, recording: flags.update === true, ...(jobs !== undefined ? { jobs } : {}) }));
  if (aborted) return EXIT.runnerError;

  let notes = '';
  if (flags.update) {
    const { recordExpectations } = await import('../../cases/update.ts');
    const outcome = recordExpectations(suite);
    for (const entry of outcome.recorded) notes += `peri-hooks: recorded expectations in ${relativePath(entry.file, cwd)} for ${entry.cases.map((name) => JSON.stringify(name)).join(', ')}\n`;
    for (const file of outcome.skipped) notes += `peri-hooks: warning: ${relativePath(file, cwd)} changed while the cases ran; nothing recorded there\n  fix: run peri-hooks test --update again\n`;
  }
  const consoleReporter = reporters.find((name): name is Exclude<ReporterName, 'junit'> => name !== 'junit') ?? 'default';
  const context: ReportContext = { cwd, colour: consoleReporter === 'default' && useColour(process.stdout, flags.color) };
  if (reporters.includes('junit')) {
    const file = path.resolve(cwd, flags.outputFile ?? DEFAULT_JUNIT_FILE);
    try {
      writeFileSync(file, renderJunit(suite, { cwd, colour: false }));
    } catch (error) {
      throw new PeriHooksError('usage', `cannot write the JUnit report ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'pass a writable path to --output-file');
    }
    notes += `peri-hooks: JUnit report written to ${relativePath(file, cwd)}\n`;
  }
  await write(process.stdout, CONSOLE[consoleReporter](suite, context));
  await write(process.stderr, notes);
  return suite.failed > 0 ? EXIT.runnerError : EXIT.ok;
}

/** At most one reporter writes to the console; junit writes a file and combines with any of them. */
function parseReporters(value: unknown): ReporterName[] {
  const names = (list(value) ?? ['default']).flatMap((item) => item.split(',')).map((item) => item.trim());
  for (const name of names) {
    if (!REPORTERS.includes(name as ReporterName)) throw new PeriHooksError('usage', `unknown --reporter "${name}"`, `use one of: ${REPORTERS.join(', ')}`);
  }
  if (names.filter((name) => name !== 'junit').length > 1) {
    throw new PeriHooksError('usage', `--reporter ${names.join(', ')}: only one of default, tap and github can write to the console`, 'pick one of them; junit writes a file and combines with any');
  }
  return names as ReporterName[];
}
