// Where session state lives and how it is read and changed: one small JSON file per session, replaced
// atomically (write a temporary file, rename), changed only under the session's lock. Problems with the
// store are warnings: the firing then goes on as if the session were new. The state folder may be shared
// (`--state-dir .`): peri-hooks writes, and sweeps, only files with its own distinctive names.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { PeriHooksError } from '../errors.ts';
import { BoundedMap } from '../platform/bounded-map.ts';
import { isoTime } from '../platform/clock.ts';
import { randomHex, sha256Hex } from '../platform/hash.ts';
import { acquireLock, type LockOptions } from './lock.ts';
import { parseSession } from './read.ts';
import type { SessionState } from './schema.ts';
import { emptyState, SESSION_MAX_AGE_MS } from './state.ts';

export const STATE_DIR_VARIABLE = 'PERI_HOOKS_STATE_DIR';
/** The sweep for old sessions runs at most this often, and only from a firing that writes anyway. */
const SWEEP_EVERY_MS = 3600 * 1000;
const SWEEP_STAMP = '.peri-hooks-last-sweep';
const SESSION_SUFFIX = '.peri-session.json';
const JOB_SUFFIX = '.peri-job.json';
/** Session files with their lock, a lock moved aside as stale, and temporary files (lock.ts, writeAtomic). */
const OWN_SESSION_FILE = /^[0-9a-f]{64}\.peri-session\.json(\.lock(\.stale-\d+-[0-9a-f]+)?|\.\d+-[0-9a-f]+\.tmp)?$/;
const OWN_JOB_FILE = /^[0-9a-z]+-[0-9a-f]+\.peri-job\.json$/;
const SHORT_LIVED = /\.(tmp|lock)$|\.stale-/;

export interface SessionRef {
  /** The state folder; with a Redis store it still holds the async jobs' files. */
  dir: string;
  sessionId: string;
  /** A `redis://` or `rediss://` URL: the session lives there instead of in `dir` (redis-store.ts). */
  store?: string;
}

export interface ReadResult {
  state: SessionState;
  /** False when there was no file (or it was unusable). */
  exists: boolean;
  warning?: string;
}

/** `--state-dir`, else PERI_HOOKS_STATE_DIR, else the XDG state directory. Touches nothing on disk. */
export function resolveStateDir(env: Record<string, string | undefined>, home: string, override?: string): string {
  if (override) return path.resolve(override);
  const explicit = env[STATE_DIR_VARIABLE];
  if (explicit) return path.resolve(explicit);
  const xdg = env.XDG_STATE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'state'), 'peri-hooks');
}

/**
 * A session's file: the hash of its id, so that any id is one safe name (`../x`, NUL, 10,000 characters) and
 * ids that differ only in letter case stay apart on case-insensitive disks. Hashed as JSON, which keeps lone
 * surrogates apart (UTF-8 would turn each into U+FFFD).
 */
export function sessionFile(ref: SessionRef): string {
  let name = sessionNames.get(ref.sessionId);
  if (name === undefined) {
    name = `${sha256Hex(JSON.stringify(ref.sessionId))}${SESSION_SUFFIX}`;
    sessionNames.set(ref.sessionId, name);
  }
  return path.join(ref.dir, name);
}

/** A resident server fires for the same few sessions over and over: each id is hashed once. */
const sessionNames = new BoundedMap<string, string>(64);

/** An async job's file, in the `jobs` folder beside the sessions (run/background.ts). */
export function jobFileName(jobId: string): string {
  return `${jobId}${JOB_SUFFIX}`;
}

/** One read of the session file; a missing file is a new session, a corrupt one a warning and a new session. */
export async function readSession(ref: SessionRef): Promise<ReadResult> {
  const file = sessionFile(ref);
  let text: string;
  try {
    // A new session (most firings without session hooks) has no file: asked without a thrown ENOENT, which costs
    // ten times the stat. A file removed in between still throws ENOENT below.
    if (!statSync(file, { throwIfNoEntry: false })) return { state: emptyState(ref.sessionId), exists: false };
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: emptyState(ref.sessionId), exists: false };
    return {
      state: emptyState(ref.sessionId),
      exists: false,
      warning: `cannot read the session state ${file} (${code ?? (error as Error).message}); this firing goes on as if the session were new`,
    };
  }
  return parseSession(text, ref, file);
}

/** The session as one firing sees it: the one read at its start. */
export interface FiringSession {
  ref: SessionRef;
  /** The state as read when the firing began. */
  snapshot: SessionState;
  /** Epoch ms: the end of the firing's time budget, until which its lock sections wait for the lock. */
  deadline: number;
}

export interface StateOptions {
  noState?: boolean;
  stateDir?: string;
  /** A Redis URL: sessions live there (the folder keeps the async jobs' files). */
  stateUrl?: string;
  env: Record<string, string | undefined>;
  home: string;
  /** Epoch ms: the end of the firing's time budget. */
  deadline: number;
}

/** The one read of the session file at the start of a firing; undefined with --no-state. */
export async function openSession(
  sessionId: string,
  options: StateOptions,
): Promise<{ session?: FiringSession; warnings: string[] }> {
  if (options.noState) return { warnings: [] };
  const ref = { dir: resolveStateDir(options.env, options.home, options.stateDir), sessionId };
  const read = await readSession(ref);
  return {
    session: { ref, snapshot: read.state, deadline: options.deadline },
    warnings: read.warning ? [read.warning] : [],
  };
}

/**
 * openSession for any store: the Redis store is asked over the network, and loaded only when named. A store that
 * cannot be reached is an error where the firing's hooks need the session (`needed`); elsewhere the firing goes
 * on without it, with a warning: a policy that keeps no state does not fail with the store.
 */
export async function openFiringSession(
  sessionId: string,
  options: StateOptions & { needed?: boolean },
): Promise<{ session?: FiringSession; warnings: string[] }> {
  if (options.noState || !options.stateUrl) return openSession(sessionId, options);
  const ref = { dir: resolveStateDir(options.env, options.home, options.stateDir), sessionId, store: options.stateUrl };
  let read: ReadResult;
  try {
    read = await readStoredSession(ref, options.deadline);
  } catch (error) {
    if (options.needed !== false || !(error instanceof PeriHooksError)) throw error;
    return {
      warnings: [
        `${error.message}; this firing's hooks keep no session state, so they run without it (results of earlier async hooks wait for a later firing)`,
      ],
    };
  }
  return {
    session: { ref, snapshot: read.state, deadline: options.deadline },
    warnings: read.warning ? [read.warning] : [],
  };
}

/** One read of a session from the store its ref names: Redis (an error when unreachable), else its file. */
export async function readStoredSession(ref: SessionRef, deadline?: number): Promise<ReadResult> {
  return ref.store
    ? (await redisStore()).readRedisSession({
        ...ref,
        store: ref.store,
        ...(deadline !== undefined ? { deadline } : {}),
      })
    : readSession(ref);
}

/** Where a session is kept, as messages and `peri-hooks state` name it; a store URL without its password. */
export async function sessionPlace(ref: SessionRef): Promise<string> {
  return ref.store ? (await redisStore()).redisSessionPlace({ ...ref, store: ref.store }) : sessionFile(ref);
}

let redisModule: Promise<typeof import('./redis-store.ts')> | undefined;

function redisStore(): Promise<typeof import('./redis-store.ts')> {
  return (redisModule ??= import('./redis-store.ts'));
}

/** Ends the connections of network stores, so that a process that is done can exit. */
export async function closeStores(): Promise<void> {
  if (redisModule) await (await redisModule).closeRedisClients();
}

export type Update<T> = { ok: true; value: T; warnings: string[] } | { ok: false; warnings: string[] };

/**
 * Read, change and write the session under its lock. `change` gets the current state (a new one when the
 * file is missing or corrupt), edits it in place and returns what the caller needs. Never throws for I/O.
 */
export async function updateSession<T>(
  ref: SessionRef,
  change: (state: SessionState) => T,
  lock: LockOptions,
): Promise<Update<T>> {
  if (ref.store) return (await redisStore()).updateRedisSession({ ...ref, store: ref.store }, change, lock.deadline);
  const warnings: string[] = [];
  const file = sessionFile(ref);
  try {
    mkdirSync(ref.dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    return {
      ok: false,
      warnings: [
        `cannot create the state directory ${ref.dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); session state is not kept`,
      ],
    };
  }
  let lockError: string | undefined;
  const release = await acquireLock(`${file}.lock`, {
    ...lock,
    onError: (reason) => {
      lockError = reason;
    },
  });
  if (!release) {
    const why = lockError === undefined ? 'stayed locked' : `could not be locked: ${lockError}`;
    return {
      ok: false,
      warnings: [`the session state ${file} ${why}; this firing goes on as if the session were new`],
    };
  }
  try {
    const read = await readSession(ref);
    if (read.warning) warnings.push(read.warning);
    const value = change(read.state);
    read.state.updatedAt = isoTime();
    try {
      writeAtomic(file, `${JSON.stringify(read.state)}\n`);
    } catch (error) {
      return {
        ok: false,
        warnings: [
          ...warnings,
          `cannot write the session state ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); this firing's changes are lost`,
        ],
      };
    }
    return { ok: true, value, warnings };
  } finally {
    release();
    sweep(ref.dir);
  }
}

/** Readers see the old file or the new one, never half of either. */
export function writeAtomic(file: string, text: string): void {
  const temporary = `${file}.${process.pid}-${randomHex(4)}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      /* never written */
    }
    throw error;
  }
}

/**
 * Removes sessions (and left-over temporary, lock and job files) older than the age bound, at most hourly.
 * Only peri-hooks' own names: whatever else shares the folder is never touched.
 */
export function sweep(dir: string, now = Date.now(), maxAgeMs = SESSION_MAX_AGE_MS): void {
  const stamp = path.join(dir, SWEEP_STAMP);
  try {
    if (now - statSync(stamp).mtimeMs < SWEEP_EVERY_MS) return;
  } catch {
    // First sweep.
  }
  try {
    writeFileSync(stamp, '');
    utimesSync(stamp, now / 1000, now / 1000);
    for (const [folder, own] of [
      [dir, OWN_SESSION_FILE],
      [path.join(dir, 'jobs'), OWN_JOB_FILE],
    ] as const) {
      for (const name of list(folder)) {
        if (!own.test(name)) continue;
        const full = path.join(folder, name);
        const age = now - statSync(full).mtimeMs;
        // Temporary and stale-lock files never live long; sessions and job files get the age bound.
        const limit = SHORT_LIVED.test(name) ? SWEEP_EVERY_MS : maxAgeMs;
        if (age > limit) unlinkSync(full);
      }
    }
  } catch {
    // The sweep is housekeeping: a failure costs nothing but disk space.
  }
}

function list(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
