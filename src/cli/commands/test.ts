// `peri-hooks test [paths...]`: run hook test cases, stream each result as it finishes, report, exit 0 when
// every case passes, else 1. `--watch` runs again on every change of the suite's files, until interrupted.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { caseLine, progressLine, type ReportContext, relativePath } from '../../cases/report-common.ts';
import { renderGithub } from '../../cases/report-github.ts';
import { renderHuman } from '../../cases/report-human.ts';
import { renderJson } from '../../cases/report-json.ts';
import { renderJunit } from '../../cases/report-junit.ts';
import { renderTap } from '../../cases/report-tap.ts';
import {
  type CaseResult,
  type Progress,
  runSuite,
  type Shard,
  type SuiteOptions,
  type SuiteResult,
} from '../../cases/run.ts';
import { EXIT, PeriHooksError } from '../../errors.ts';
import { workflowLines } from '../../report/workflow-command.ts';
import { type ColourChoice, interruptible, list, parseJobs, useColour, write } from '../io.ts';
import { selfCommand } from './fire.ts';

export interface TestFlags {
  color?: ColourChoice;
  jobs?: unknown;
  reporter?: unknown;
  outputFile?: string;
  update?: boolean;
  filter?: unknown;
  bail?: boolean;
  shard?: unknown;
  watch?: boolean;
}

const REPORTERS = ['default', 'tap', 'junit', 'github', 'json'] as const;
type ReporterName = (typeof REPORTERS)[number];
type ConsoleReporter = Exclude<ReporterName, 'junit'>;
const CONSOLE: Record<ConsoleReporter, (suite: SuiteResult, context: ReportContext) => string> = {
  default: renderHuman,
  tap: renderTap,
  github: renderGithub,
  json: renderJson,
};
export const DEFAULT_JUNIT_FILE = 'peri-hooks-junit.xml';

export async function testCommand(paths: readonly string[], flags: TestFlags): Promise<number> {
  const reporters = parseReporters(flags.reporter);
  if (flags.outputFile !== undefined && !reporters.includes('junit')) {
    throw new PeriHooksError(
      'usage',
      '--output-file names the JUnit file, but --reporter junit is not given',
      'add --reporter junit, or drop --output-file',
    );
  }
  if (flags.watch && flags.update)
    throw new PeriHooksError(
      'usage',
      '--watch and --update cannot be combined: every change would record again',
      'run peri-hooks test --update once, then --watch',
    );
  const jobs = parseJobs(flags.jobs, 'default: four per core');
  const filter = parseFilter(flags.filter);
  const shard = parseShard(flags.shard);
  const cwd = process.cwd();
  const consoleReporter = reporters.find((name): name is ConsoleReporter => name !== 'junit') ?? 'default';
  const options: Omit<SuiteOptions, 'signal' | 'onResult'> = {
    paths,
    cwd,
    recording: flags.update === true,
    // Deno would start a worker without this run's permissions.
    ...('Deno' in globalThis ? {} : { selfCommand: selfCommand() }),
    ...(jobs !== undefined ? { jobs } : {}),
    ...(filter ? { filter } : {}),
    ...(shard ? { shard } : {}),
    ...(flags.bail ? { bail: true } : {}),
  };
  const once = async (signal: AbortSignal): Promise<SuiteResult> => {
    const live = liveOutput(consoleReporter, cwd, flags.color);
    const suite = await runSuite({ ...options, signal, onResult: live.onResult });
    live.end();
    return suite;
  };
  const { value: code, aborted } = await interruptible(async (signal) => {
    let suite = await once(signal);
    if (signal.aborted) return EXIT.runnerError;
    let last = await report(suite, flags, reporters, consoleReporter, cwd);
    if (!flags.watch) return last;
    const { watchChanges } = await import('../../cases/watch.ts');
    for (let watch = watchChanges(suite.watched, signal); ; ) {
      if (!watch.changed())
        await write(
          process.stderr,
          `peri-hooks: watching ${suite.watched.length} files (case files, settings, hook scripts); Ctrl-C ends\n`,
        );
      const changed = await watch.next;
      if (changed === undefined) return last;
      await write(process.stderr, `peri-hooks: ${relativePath(changed, cwd)} changed; running again\n`);
      // Armed before the run, so that a change saved while the cases run starts another run right after.
      const during = watchChanges(suite.watched, signal);
      suite = await once(signal);
      if (signal.aborted) return last;
      last = await report(suite, flags, reporters, consoleReporter, cwd);
      // The run may have found other files (a new hook script): watch those, unless a change already came.
      if (during.changed()) watch = during;
      else {
        during.close();
        watch = watchChanges(suite.watched, signal);
      }
    }
  });
  return aborted && !flags.watch ? EXIT.runnerError : code;
}

/**
 * Results as cases finish: the default reporter owns stdout, so it streams there (one line per case when
 * piped, a progress line on a terminal, cleared before the report); the other reporters' stdout is a
 * document, so their progress goes to stderr.
 */
function liveOutput(
  reporter: ConsoleReporter,
  cwd: string,
  colour: ColourChoice,
): { onResult: (result: CaseResult, progress: Progress) => void; end: () => void } {
  const stream = reporter === 'default' ? process.stdout : process.stderr;
  const context: ReportContext = { cwd, colour: useColour(stream, colour) };
  if (!stream.isTTY)
    return {
      onResult: (result) => {
        void write(stream, `${caseLine(result, context)}\n`);
      },
      end: () => {},
    };
  let shown = false;
  return {
    onResult: (_, progress) => {
      shown = true;
      stream.write(`\r\x1b[2K${progressLine(progress)}`);
    },
    end: () => {
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}

async function report(
  suite: SuiteResult,
  flags: TestFlags,
  reporters: ReporterName[],
  consoleReporter: ConsoleReporter,
  cwd: string,
): Promise<number> {
  let notes = '';
  if (flags.update) {
    const { recordExpectations } = await import('../../cases/update.ts');
    const outcome = recordExpectations(suite);
    for (const entry of outcome.recorded)
      notes += `peri-hooks: recorded expectations in ${relativePath(entry.file, cwd)} for ${entry.cases.map((name) => JSON.stringify(name)).join(', ')}\n`;
    for (const file of outcome.skipped)
      notes += `peri-hooks: warning: ${relativePath(file, cwd)} changed while the cases ran; nothing recorded there\n  fix: run peri-hooks test --update again\n`;
  }
  // Piped, the default reporter's case lines already streamed: the report then repeats only the failures.
  const context: ReportContext = {
    cwd,
    colour: consoleReporter === 'default' && useColour(process.stdout, flags.color),
    streamed: consoleReporter === 'default' && !process.stdout.isTTY,
  };
  if (reporters.includes('junit')) {
    const file = path.resolve(cwd, flags.outputFile ?? DEFAULT_JUNIT_FILE);
    try {
      writeFileSync(file, renderJunit(suite, { cwd, colour: false }));
    } catch (error) {
      throw new PeriHooksError(
        'usage',
        `cannot write the JUnit report ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        'pass a writable path to --output-file',
      );
    }
    notes += `peri-hooks: JUnit report written to ${relativePath(file, cwd)}\n`;
  }
  if (suite.notRun > 0)
    notes += `peri-hooks: --bail: stopped after the first failure; ${suite.notRun} ${suite.notRun === 1 ? 'case was' : 'cases were'} not run\n`;
  for (const ended of suite.workersEnded)
    notes += `peri-hooks: warning: a case worker ${ended}; its cases ran in the test process instead\n`;
  await write(process.stdout, CONSOLE[consoleReporter](suite, context));
  // In GitHub Actions the annotations come as well, as vitest's do: after the default report, else on stderr.
  if (consoleReporter !== 'github' && process.env.GITHUB_ACTIONS === 'true') {
    const annotations = workflowLines(CONSOLE.github(suite, context));
    if (annotations !== '') await write(consoleReporter === 'default' ? process.stdout : process.stderr, annotations);
  }
  await write(process.stderr, notes);
  return suite.failed > 0 ? EXIT.runnerError : EXIT.ok;
}

/** At most one reporter writes to the console; junit writes a file and combines with any of them. */
function parseReporters(value: unknown): ReporterName[] {
  const names = (list(value) ?? ['default']).flatMap((item) => item.split(',')).map((item) => item.trim());
  for (const name of names) {
    if (!REPORTERS.includes(name as ReporterName))
      throw new PeriHooksError('usage', `unknown --reporter "${name}"`, `use one of: ${REPORTERS.join(', ')}`);
  }
  if (names.filter((name) => name !== 'junit').length > 1) {
    throw new PeriHooksError(
      'usage',
      `--reporter ${names.join(', ')}: only one of default, tap, github and json can write to the console`,
      'pick one of them; junit writes a file and combines with any',
    );
  }
  return names as ReporterName[];
}

function parseFilter(value: unknown): RegExp | undefined {
  if (value === undefined) return undefined;
  try {
    return new RegExp(String(value));
  } catch (error) {
    throw new PeriHooksError(
      'usage',
      `--filter "${String(value)}" is not a valid regular expression: ${(error as Error).message}`,
      'escape the special characters, e.g. -t "force push \\\\(main\\\\)"',
    );
  }
}

/** `--shard i/n`: 1 ≤ i ≤ n. */
export function parseShard(value: unknown): Shard | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(String(value).trim());
  const shard = match ? { index: Number(match[1]), count: Number(match[2]) } : undefined;
  if (!shard || shard.count < 1 || shard.index < 1 || shard.index > shard.count) {
    throw new PeriHooksError(
      'usage',
      `--shard must be i/n with 1 ≤ i ≤ n, not "${String(value)}"`,
      'e.g. --shard 1/4 on the first of four CI runners, --shard 4/4 on the last',
    );
  }
  return shard;
}
