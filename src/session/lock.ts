// An exclusive lock between processes, without native addons: a lock file created with O_EXCL that names
// its owner. A lock whose owner is dead (same host) or that is older than `staleMs` is broken; waiting lasts
// until the caller's deadline (a firing's: the end of its own time budget), so a lock can delay a firing but
// never hang it, and never costs it an update while it still has time.
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomHex } from '../platform/hash.ts';

export interface LockOptions {
  /** Epoch ms: give up then (the caller goes on without the lock). No fixed bound: a busy machine may need long. */
  deadline: number;
  /** A lock held longer than this is taken to be left over by a crash: no lock section lasts a second. */
  staleMs?: number;
  /** Told why, when the lock file cannot be created or written (a full disk, a read-only folder). */
  onError?: (reason: string) => void;
}

export type Release = () => void;

const DEFAULT_STALE_MS = 30_000;

/** Takes the lock at `path`; undefined when it could not be had by `deadline`. */
export async function acquireLock(path: string, options: LockOptions): Promise<Release | undefined> {
  const { deadline } = options;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const token = `${process.pid} ${hostname()} ${randomHex(6)}`;
  for (let attempt = 0; ; attempt++) {
    const outcome = tryCreate(path, token);
    if (outcome === 'taken') return () => release(path, token);
    if (outcome !== 'busy') {
      options.onError?.(outcome.error);
      return undefined;
    }
    if (isStale(path, staleMs)) {
      breakStale(path, staleMs);
      continue;
    }
    if (Date.now() >= deadline) return undefined;
    // Jittered back-off: lock sections take milliseconds, so short sleeps that grow a little.
    await sleep(Math.min(50, 2 + attempt) * (0.5 + Math.random()));
  }
}

function tryCreate(path: string, token: string): 'taken' | 'busy' | { error: string } {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EEXIST'
      ? 'busy'
      : { error: `cannot create ${path} (${errorCode(error)})` };
  }
  try {
    // A short write (a full disk) would leave a lock no one owns, which every later firing would wait out.
    if (writeSync(fd, token) === Buffer.byteLength(token)) return 'taken';
    tryUnlink(path);
    return { error: `cannot write ${path} (the disk is full)` };
  } catch (error) {
    tryUnlink(path);
    return { error: `cannot write ${path} (${errorCode(error)})` };
  } finally {
    closeSync(fd);
  }
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

function release(path: string, token: string): void {
  try {
    // Only our own lock: if it was broken as stale and taken by another, it is theirs now.
    if (readFileSync(path, 'utf8') === token) unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function isStale(path: string, staleMs: number): boolean {
  let owner: string;
  let mtimeMs: number;
  try {
    owner = readFileSync(path, 'utf8');
    mtimeMs = statSync(path).mtimeMs;
  } catch {
    return false;
  }
  if (Date.now() - mtimeMs > staleMs) return true;
  const [pid, host] = owner.split(' ');
  // An empty file is a lock being created right now.
  return host === hostname() && Number(pid) > 0 && !isAlive(Number(pid));
}

/**
 * Moves the stale lock aside and checks that what moved is still stale: between our look and the move,
 * another process may have broken it and taken a fresh lock, which is then put back.
 */
function breakStale(path: string, staleMs: number): void {
  const aside = `${path}.stale-${process.pid}-${randomHex(4)}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  if (isStale(aside, staleMs)) {
    tryUnlink(aside);
    return;
  }
  try {
    linkSync(aside, path);
  } catch {
    // Someone holds a newer lock already; the one we moved lost its file and its holder will notice on release.
  }
  tryUnlink(aside);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
