// The CLI's edges: stdin, writing results, terminal detection, option normalisation.
import { fstatSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { ALL_SOURCES } from '../config/discover.ts';
import type { SourceOptions } from '../config/sources.ts';
import { PeriHooksError } from '../errors.ts';
import { shownUrl } from '../text.ts';

/** All of stdin, or '' when stdin is a terminal (nothing was piped). */
export async function readStdin(): Promise<string> {
  if (isTerminal(0)) return '';
  const chunks = readFdUntilBlocked(0);
  if (!chunks.done) for await (const chunk of process.stdin) chunks.read.push(chunk as Buffer);
  return Buffer.concat(chunks.read).toString('utf8');
}

/**
 * Whether a standard stream is a terminal, asking Node's stream object only for a character device: creating
 * process.stdin or process.stderr (streams, and a socket for a pipe) costs a firing milliseconds.
 */
export function isTerminal(fd: 0 | 2): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    // A closed descriptor: the stream object says what it is, as before.
  }
  return Boolean((fd === 0 ? process.stdin : process.stderr).isTTY);
}

/** Reads a pipe or file to its end without a stream; a non-blocking descriptor stops it early (done: false). */
function readFdUntilBlocked(fd: number): { read: Buffer[]; done: boolean } {
  const read: Buffer[] = [];
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let bytes: number;
    try {
      bytes = readSync(fd, buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EOF') return { read, done: true };
      return { read, done: false };
    }
    if (bytes === 0) return { read, done: true };
    read.push(Buffer.from(buffer.subarray(0, bytes)));
  }
}

/** `--input <file>` or stdin. */
export async function readInput(file: string | undefined): Promise<{ text: string; source: string }> {
  if (file === undefined) return { text: await readStdin(), source: 'stdin' };
  try {
    return { text: readFileSync(file, 'utf8'), source: file };
  } catch (error) {
    throw new PeriHooksError(
      'usage',
      `cannot read the input file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      'pass an existing JSON file to --input, or pipe the input on stdin',
    );
  }
}

/** cac gives a string for one use of a repeatable option and an array for several. */
export function list(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** What `--color` / `--no-color` asked for (the parser puts it in the flags as `color`), if anything. */
export type ColourChoice = 'always' | 'never' | undefined;

/**
 * Whether to colour `stream`: `--color`/`--no-color` first, then FORCE_COLOR (as Node reads it: set means on,
 * but 0 and false), then NO_COLOR when set and non-empty (no-color.org), then a terminal that is not dumb.
 */
export function useColour(stream: { isTTY?: boolean }, choice: unknown, env: NodeJS.ProcessEnv = process.env): boolean {
  if (choice === 'always' || choice === 'never') return choice === 'always';
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.NO_COLOR) return false;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

/** Writes and resolves once the data is flushed, so that the exit code never cuts output short. */
export function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  if (text === '') return Promise.resolve();
  // A reader that went away (EPIPE) cannot be told anything more; the exit code must stay the decision's.
  if (!ignoredErrors.has(stream)) {
    stream.on('error', () => {});
    ignoredErrors.add(stream);
  }
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

const ignoredErrors = new WeakSet<NodeJS.WriteStream>();

/** The flags that name settings sources; validate, explain and list take the same ones as fire. */
export interface SourceFlags {
  settings?: unknown;
  pluginDir?: unknown;
  settingSources?: unknown;
  projectDir?: string;
  managedDir?: string;
}

type Source = (typeof ALL_SOURCES)[number];

export function sourceOptions(flags: SourceFlags): SourceOptions {
  const settings = list(flags.settings);
  const pluginDirs = list(flags.pluginDir);
  const settingSources = parseSourceList(flags.settingSources);
  return {
    ...(flags.projectDir ? { projectDir: flags.projectDir } : {}),
    ...(flags.managedDir ? { managedDir: flags.managedDir } : {}),
    ...(settings ? { settings } : {}),
    ...(pluginDirs ? { pluginDirs } : {}),
    ...(settingSources ? { settingSources } : {}),
  };
}

/** The environment variable that names the Redis session store when `--state <url>` is not given. */
export const STATE_URL_VARIABLE = 'PERI_HOOKS_STATE_URL';

/** The flags that say where session state lives; fire and serve take the same ones. */
export interface StateFlags {
  stateDir?: string;
  /** A Redis URL (`--state <url>`), true for `--state` alone; cac turns `--no-state` into `state: false`. */
  state?: boolean | string;
  /** `--audit <file>`: where the firings are appended (auditOption). */
  audit?: unknown;
}

export function stateOptions(
  flags: StateFlags,
  env: NodeJS.ProcessEnv = process.env,
): { noState?: true; stateDir?: string; stateUrl?: string } {
  return {
    ...(flags.state === false ? { noState: true as const } : {}),
    ...(flags.stateDir ? { stateDir: String(flags.stateDir) } : {}),
    ...storeUrl(flags.state, env),
  };
}

/** `--audit <file>`, else PERI_HOOKS_AUDIT: the firings' audit log. */
export function auditOption(flag: unknown, env: NodeJS.ProcessEnv = process.env): { audit?: { file: string } } {
  const file = typeof flag === 'string' && flag !== '' ? flag : env.PERI_HOOKS_AUDIT || undefined;
  return file === undefined ? {} : { audit: { file: path.resolve(file) } };
}

/** `--state redis://…`, else PERI_HOOKS_STATE_URL (which keeps a password out of the process list). */
function storeUrl(flag: boolean | string | undefined, env: NodeJS.ProcessEnv): { stateUrl?: string } {
  const url = typeof flag === 'string' ? flag : flag === false ? undefined : env[STATE_URL_VARIABLE] || undefined;
  if (url === undefined) return {};
  if (!/^rediss?:\/\//.test(url)) {
    throw new PeriHooksError(
      'usage',
      `${typeof flag === 'string' ? '--state' : STATE_URL_VARIABLE} must be a redis:// or rediss:// URL, not ${JSON.stringify(shownUrl(url))}`,
      'e.g. --state redis://127.0.0.1:6379; without it sessions live in the state folder',
    );
  }
  return { stateUrl: url };
}

/** `--setting-sources managed,user,project,local`; an empty value (or `none`) loads only --settings and plugins. */
function parseSourceList(value: unknown): Source[] | undefined {
  const values = list(value);
  if (values === undefined) return undefined;
  const names = values
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter((item) => item !== '' && item !== 'none');
  for (const name of names) {
    if (!ALL_SOURCES.includes(name as Source)) {
      throw new PeriHooksError(
        'usage',
        `unknown setting source "${name}" in --setting-sources`,
        `use a comma-separated subset of ${ALL_SOURCES.join(',')}, or '' for none`,
      );
    }
  }
  return names as Source[];
}

/** `--output human|json`; without it, `fallback`. */
export function outputForm(value: string | undefined, fallback: 'human' | 'json'): 'human' | 'json' {
  return oneOf('--output', value, ['human', 'json'], fallback);
}

/** The value of an option that takes one of `choices`; without it, `fallback`. */
export function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new PeriHooksError('usage', `unknown ${flag} "${value}"`, `use one of: ${choices.join(', ')}`);
}

/** `--jobs <n>`: a whole number of at least 1; undefined without it. `defaults` says what happens without it. */
export function parseJobs(value: unknown, defaults: string): number | undefined {
  if (value === undefined) return undefined;
  const jobs = Number(value);
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new PeriHooksError(
      'usage',
      `--jobs must be a whole number of at least 1, not "${String(value)}"`,
      `e.g. --jobs 4 (${defaults})`,
    );
  return jobs;
}

const INTERRUPTS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `task` with a signal that SIGINT, SIGTERM and SIGHUP abort; the handlers are removed when it settles.
 * They stay for every signal until then (not `once`): a second signal within the kill grace would otherwise
 * end peri-hooks before it escalates to SIGKILL, and a hook that ignores SIGTERM would survive it.
 */
/** A firing that a signal ended: no decision was made, which the user hears, and --fail-closed blocks on. */
export function interruptedFiring(by: string | undefined): PeriHooksError {
  return new PeriHooksError(
    'interrupted',
    `interrupted by ${by ?? 'a signal'} during the firing: its hooks were killed and nothing was decided`,
    'nothing to fix if you stopped it; otherwise see what sent the signal (a supervisor, a closing terminal)',
  );
}

export async function interruptible<T>(
  task: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T; aborted: boolean; by?: string }> {
  const controller = new AbortController();
  const interrupt = (signal: string) => {
    if (!controller.signal.aborted) controller.abort(signal);
  };
  for (const signal of INTERRUPTS) process.on(signal, interrupt);
  try {
    const value = await task(controller.signal);
    return {
      value,
      aborted: controller.signal.aborted,
      ...(controller.signal.aborted ? { by: String(controller.signal.reason) } : {}),
    };
  } finally {
    for (const signal of INTERRUPTS) process.off(signal, interrupt);
  }
}
