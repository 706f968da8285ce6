// A settings file's regex, tested in bounded time. Matchers stay real JavaScript regexes (Claude Code builds
// them with `new RegExp`), but Node has no regex timeout, and limiting the tested value would not help: it is a
// tool name or another short value, and a catastrophic regex needs only ~30 characters to run for hours. So:
// - a regex that V8's linear-time engine can run (no lookahead, no backreference, no large counted
//   repetition) runs here, and V8 is told to switch to that engine when the usual one backtracks too much:
//   the same answer, in time linear in the value;
// - any other regex runs in a worker thread, stopped after RUN_BUDGET_MS; one that has not answered by then
//   matches nothing and is reported, like an invalid regex.
// On a runtime that refuses the V8 flags (Deno without --v8-flags), every regex takes the worker path.
import type { Worker } from 'node:worker_threads';
import { BoundedMap } from '../platform/bounded-map.ts';

export type RegexResult =
  /** One answer per value. */
  | { matches: boolean[] }
  /** V8's message: the regex does not compile (some only fail when first run: "Stack overflow", "too large"). */
  | { invalid: string }
  /** The value on which it did not answer within RUN_BUDGET_MS. */
  | { tooSlow: string };

export const RUN_BUDGET_MS = 1000;
/** Starting a worker thread is not part of a regex's budget; this only catches a runtime that cannot start one. */
const START_BUDGET_MS = 30_000;

const WAITING = 0;
const RUNNING = 1;
const DONE = 2;

export function testRegex(source: string, values: readonly string[]): RegexResult {
  const compiled = compile(source);
  if ('invalid' in compiled) return compiled;
  if (!compiled.linear) return testInWorker(source, values);
  try {
    return { matches: values.map((value) => compiled.regex.test(value)) };
  } catch (error) {
    const invalid = { invalid: (error as Error).message };
    compiledRegexes.set(source, invalid);
    return invalid;
  }
}

type Compiled = { regex: RegExp; linear: boolean } | { invalid: string };

/**
 * Entries each regex cache keeps: a resident server reloads settings (new matchers) and tests values from
 * requests, so that without a bound both would grow for as long as it runs.
 */
export const MAX_REMEMBERED = 1024;
/** A firing tests one matcher for every hook of its group, and validate tests it on every tool name. */
export const compiledRegexes = new BoundedMap<string, Compiled>(MAX_REMEMBERED);

function compile(source: string): Compiled {
  let compiled = compiledRegexes.get(source);
  if (compiled === undefined) {
    const linear = cannotBacktrack(source) || linearEngineRuns(source);
    try {
      compiled = { regex: new RegExp(source), linear };
    } catch (error) {
      compiled = { invalid: (error as Error).message };
    }
    compiledRegexes.set(source, compiled);
  }
  return compiled;
}

/**
 * Whether V8's usual engine runs the regex in time linear in the value, whatever the value: alternatives of plain
 * characters (escaped punctuation and `.` included), each `^`-anchored or not and ending in at most one `.*`, and
 * no other quantifier, group, class or `$`, so that nothing can backtrack. Such a regex (`mcp__.*`,
 * `Read|mcp__fs__.*`) needs neither the linear engine nor node:v8 to turn it on, which costs a firing ~3 ms.
 */
export function cannotBacktrack(source: string): boolean {
  let alternativeStart = true;
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!;
    if (char === '|') {
      alternativeStart = true;
      continue;
    }
    if (char === '^' && alternativeStart) {
      alternativeStart = false;
      continue;
    }
    alternativeStart = false;
    if (char === '\\') {
      if (index + 1 === source.length || /[A-Za-z0-9]/.test(source[index + 1]!)) return false;
      index++;
    } else if (char === '.' && source[index + 1] === '*') {
      if (index + 2 < source.length && source[index + 2] !== '|') return false;
      index++;
    } else if ('^$?*+()[]{}'.includes(char)) {
      return false;
    }
  }
  return true;
}

let linearEngine: boolean | undefined;

function linearEngineRuns(source: string): boolean {
  if (linearEngine === undefined) {
    // Loaded here, not imported: node:v8 and node:worker_threads cost ~4 ms of every firing's start-up otherwise.
    const v8 = process.getBuiltinModule('node:v8');
    v8.setFlagsFromString('--enable-experimental-regexp-engine');
    v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
    linearEngine = compiles('', 'l');
  }
  return linearEngine && compiles(source, 'l');
}

function compiles(source: string, flags: string): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}

// CommonJS, evaluated as a string: the bundle and the single executable carry no worker file.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ source, values, shared }) => {
  const state = new Int32Array(shared, 0, 2);
  Atomics.store(state, 0, ${RUNNING});
  Atomics.notify(state, 0);
  const answers = [];
  let reply;
  try {
    const regex = new RegExp(source);
    for (const value of values) {
      Atomics.store(state, 1, answers.length);
      answers.push(regex.test(value));
    }
    reply = { matches: answers };
  } catch (error) {
    reply = { invalid: String(error && error.message) };
  }
  const { written } = new TextEncoder().encodeInto(JSON.stringify(reply), new Uint8Array(shared, 8));
  Atomics.store(state, 1, written);
  Atomics.store(state, 0, ${DONE});
  Atomics.notify(state, 0);
});
`;

let worker: Worker | undefined;
/** Regexes and value lists that already ran out of time, with the value they stalled on: each costs its budget once per process. */
const tooSlow = new BoundedMap<string, string>(MAX_REMEMBERED);

function testInWorker(source: string, values: readonly string[]): RegexResult {
  const key = JSON.stringify([source, values]);
  const stalledOn = tooSlow.get(key);
  if (stalledOn !== undefined) return { tooSlow: stalledOn };
  // Room for V8's message, which quotes the regex (3 bytes per UTF-16 unit at most), or for the answers.
  const shared = new SharedArrayBuffer(8 + 3 * source.length + 8 * values.length + 1024);
  const state = new Int32Array(shared, 0, 2);
  worker ??= startWorker();
  worker.postMessage({ source, values, shared });
  const started = Atomics.wait(state, 0, WAITING, START_BUDGET_MS) !== 'timed-out';
  if (!started || Atomics.wait(state, 0, RUNNING, RUN_BUDGET_MS) === 'timed-out') {
    void worker.terminate();
    worker = undefined;
    const value = values[Atomics.load(state, 1)] ?? values[0] ?? '';
    tooSlow.set(key, value);
    return { tooSlow: value };
  }
  const reply = new Uint8Array(shared, 8, Atomics.load(state, 1)).slice();
  return JSON.parse(new TextDecoder().decode(reply)) as RegexResult;
}

function startWorker(): Worker {
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const started = new Worker(WORKER_SOURCE, { eval: true });
  started.unref();
  // A worker that dies leaves its request unanswered, which the wait above already handles.
  started.on('error', () => {});
  return started;
}
