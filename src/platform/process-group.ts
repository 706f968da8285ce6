// A process group of peri-hooks' own starting (a hook, an async hook's supervisor, a stdio MCP server): signal
// it whole, end it (SIGTERM, then SIGKILL), kill it when peri-hooks exits, reap the children that keep our pipes
// after the hook exits, and keep its output up to a bound in bytes. Process killing follows the recipe measured in shared notes/toolchain.md §6.
import type { Readable } from 'node:stream';

/** Output kept per stream, in bytes; the rest is drained and dropped, and the outcome says so. */
export const OUTPUT_LIMIT_BYTES = 10 * 1024 * 1024;
/** SIGTERM -> SIGKILL for the whole group. */
const FORCE_KILL_AFTER_MS = 1000;
/** After the hook's own process exits, how long a background child may keep our pipes open. */
const BACKGROUND_GRACE_MS = 200;
/** After the group is killed, how long its pipes get to drain before they are closed (setsid escapees). */
const PIPE_DRAIN_MS = 100;

/**
 * Signals every process in the group `pid` leads. Safe after the leader exited: the pid stays reserved
 * while it is the group id of a live process. False when the group is gone.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  // The group is usually gone (every hook's group is killed once it ends): the thrown error is dropped, so it
  // takes no stack, which Node captures whole, async frames included (about 0.1 ms per hook in a busy server).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return process.kill(-pid, signal);
  } catch {
    return false;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

const killedOnExit = new Set<() => void>();
let exitHookInstalled = false;

/**
 * Groups still running when peri-hooks exits, however it exits, get `signal` (what execa's `cleanup` did): hooks
 * and MCP servers must not outlive it. Returns the cancel, for when the group ended on its own.
 */
export function signalGroupOnExit(pid: number, signal: NodeJS.Signals): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const each of killedOnExit) each();
    });
  }
  const kill = () => signalGroup(pid, signal);
  killedOnExit.add(kill);
  return () => killedOnExit.delete(kill);
}

/** SIGTERM to the group, SIGKILL after FORCE_KILL_AFTER_MS. Returns the cancel of the escalation. */
export function terminateGroup(pid: number): () => void {
  signalGroup(pid, 'SIGTERM');
  const force = setTimeout(() => signalGroup(pid, 'SIGKILL'), FORCE_KILL_AFTER_MS);
  return () => clearTimeout(force);
}

/**
 * The hook's own process exited, but a child of it may hold the pipes: after a short grace, kill the group,
 * then close the pipes so that waiting on them ends. Returns the cancel.
 */
export function reapAfterGrace(pid: number, pipes: readonly Readable[]): () => void {
  const timers: NodeJS.Timeout[] = [];
  timers.push(
    setTimeout(() => {
      signalGroup(pid, 'SIGKILL');
      timers.push(
        setTimeout(() => {
          for (const pipe of pipes) pipe.destroy();
        }, PIPE_DRAIN_MS),
      );
    }, BACKGROUND_GRACE_MS),
  );
  return () => timers.forEach(clearTimeout);
}

/** Keeps the first OUTPUT_LIMIT_BYTES of a stream and drains the rest, so the hook never blocks on a full pipe. */
export class Capture {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  /** `soFar`: what an earlier reader of the same stream already kept (an adopted async hook). */
  constructor(soFar = '') {
    if (soFar !== '') this.keep(Buffer.from(soFar, 'utf8'));
  }

  /** Reads `stream` to its end; resolves when it closes or fails. */
  attach(stream: Readable | null | undefined): Promise<void> {
    if (!stream) return Promise.resolve();
    return new Promise((resolve) => {
      stream.on('data', (chunk: Buffer | string) =>
        this.keep(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk),
      );
      stream.on('error', () => resolve());
      stream.on('close', () => resolve());
    });
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }

  private keep(chunk: Buffer): void {
    const room = OUTPUT_LIMIT_BYTES - this.size;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }
}

/** The `truncated` field of a raw outcome, when either capture hit the bound. */
export function truncation(stdout: Capture, stderr: Capture): { truncated?: { stdout?: true; stderr?: true } } {
  if (!stdout.truncated && !stderr.truncated) return {};
  return {
    truncated: { ...(stdout.truncated ? { stdout: true } : {}), ...(stderr.truncated ? { stderr: true } : {}) },
  };
}
