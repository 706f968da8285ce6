// Hooks started by a small helper process rather than by a resident server (issue 34): a fork copies the page
// tables of the process that forks and write-protects its memory, so a spawn from a busy server costs more than
// one from a bare Node. The helper (a bare Node, or the single executable's `__spawner` mode, which loads no
// bundle) spawns each hook in its own process group, writes its stdin and relays its output and exit over the IPC
// channel: two process hops per hook, and no more (passing the pipes themselves costs an acknowledged round trip
// each). The runner kills the group by pid as for a hook it spawned; an async hook's pipes are passed over only
// when it asks to go to the background. When the server goes, the helper kills every hook still running and
// exits. A helper that cannot start or has gone costs speed, never a hook: spawnHook then spawns in this process.
import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { sameEntries } from './records.ts';

/** How long a starting helper may take to say it is ready (tens of milliseconds on an idle machine). */
const READY_WITHIN_MS = 10_000;

/** The single executable's internal mode that runs spawnerMain (cli/sea.ts). */
export const SPAWNER_COMMAND = '__spawner';

/** How a hook's process ended: an exit code, a signal, or the reason it could not start. */
export interface Ended {
  exitCode?: number;
  signal?: NodeJS.Signals;
  spawnError?: string;
  /** Its group was killed once it ended (by the helper, before it said so): the runner need not kill it again. */
  groupKilled?: true;
}

/** A hook's stdout and stderr as pipes another process can inherit (the async supervisor). */
export interface Pipes {
  stdout: Readable;
  stderr: Readable;
}

/** A started hook, spawned here or by the helper. */
export interface HookProcess extends Pipes {
  pid: number | undefined;
  /** Settles once the hook has exited and both pipes have closed. */
  finished: Promise<Ended>;
  /** Calls `listener` once the hook's own process has exited (its children may still hold the pipes); returns the off. */
  onExit(listener: () => void): () => void;
  /** The pipes themselves, to hand to the async supervisor; what was read before stays in stdout and stderr. */
  takePipes(): Pipes | Promise<Pipes>;
  /** The hook is the async supervisor's now: nothing here keeps it, waits for it or kills it at exit. */
  release(): void;
}

export interface SpawnRequest {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** What the hook reads on stdin. */
  stdin: Buffer;
}

/**
 * From the helper: what happened to a hook, several facts in one message (in this order: its pid, output, exit,
 * the pipes' end). Bytes travel as latin1 strings: one character per byte, as they were.
 */
type Reply =
  | {
      id: number;
      pid?: number;
      out?: string;
      err?: string;
      exit?: number | null;
      signal?: NodeJS.Signals | null;
      closed?: true;
      /** With `closed`: the helper killed the hook's group first. */
      killed?: true;
      pipe?: 'stdout' | 'stderr';
      error?: string;
    }
  | { ready: true };

interface Relayed {
  started: (hook: HookProcess | { spawnError: string }) => void;
  stdout: Readable;
  stderr: Readable;
  events: EventEmitter;
  exited?: Ended;
  /** The helper killed its group once it ended. */
  groupKilled?: true;
  /** The pipes, once asked for (takePipes). */
  pipes?: { stdout?: Socket; stderr?: Socket; arrived: (pipes: Pipes) => void };
}

/** `ready` once the helper has said so: a helper that never answers (no IPC in its runtime) is never used. */
interface Helper {
  child: ChildProcess;
  hooks: Map<number, Relayed>;
  ready: Promise<boolean>;
  isReady: boolean;
  /** The environment of the last hook sent: the helper keeps it, and a hook with the same one is sent without. */
  lastEnv?: Record<string, string | undefined>;
}

/** The running helpers; a hook goes to the one with the fewest hooks running. */
const helpers: Helper[] = [];
let nextId = 0;

/**
 * The helper's own code, run as `node -e` (its source text) or by the single executable: Node built-ins only, no
 * reference outside this function. Messages: `{id, file, args, cwd, env, stdin}` starts a hook, `{adopt: id}`
 * passes its pipes over, `{release: id}` forgets it, `{drop: id}` closes its pipes.
 */
export function spawnerMain(): void {
  const { spawn } = process.getBuiltinModule('node:child_process');
  /** A hook still silent this long has its pid sent on its own (the server's timeout and kills need it). */
  const PID_ALONE_AFTER_MS = 5;
  interface Request extends Omit<SpawnRequest, 'stdin' | 'env'> {
    id: number;
    stdin: string;
    /** Absent: the environment of the hook before. */
    env?: SpawnRequest['env'];
    adopt?: number;
    release?: number;
    drop?: number;
  }
  type Pipe = NonNullable<ReturnType<typeof spawn>['stdout']>;
  /** Hooks still running, by id: their groups are killed when the server goes. */
  const running = new Map<number, { pid: number; stdout: Pipe; stderr: Pipe }>();
  const send = (message: object, handle?: unknown, done?: () => void) => {
    // With a callback, a send to a server that has just gone fails there, not as an 'error' that ends the helper.
    if (process.connected) process.send!(message, handle as never, {}, () => done?.());
  };
  let env: SpawnRequest['env'] = {};
  process.on('message', (request: Request) => {
    if (request.release !== undefined) {
      running.delete(request.release);
      return;
    }
    const id = request.adopt ?? request.drop;
    if (id !== undefined) {
      const hook = running.get(id);
      if (!hook) return;
      for (const name of ['stdout', 'stderr'] as const) {
        const pipe = hook[name] as Pipe & { _handle: { readStop(): void } | null };
        pipe.removeAllListeners('data');
        if (request.drop !== undefined || !pipe._handle) {
          pipe.destroy();
          continue;
        }
        // Stopped before the event loop turns, so no byte more is read here; not readable, so that the hook's
        // exit does not resume it (flushStdio) while the handle waits for its acknowledgement.
        pipe._handle.readStop();
        pipe.readable = false;
        send({ id, pipe: name }, pipe._handle, () => pipe.destroy());
      }
      return;
    }
    env = request.env ?? env;
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(request.file, request.args, { cwd: request.cwd, env, detached: true, stdio: 'pipe' });
    } catch (error) {
      send({ id: request.id, error: (error as Error).message });
      return;
    }
    const pid = child.pid;
    if (pid === undefined) {
      // It could not start (a missing file, not executable): 'error' follows on the next tick.
      child.once('error', (error) => send({ id: request.id, error: error.message }));
      for (const pipe of child.stdio) pipe?.destroy();
      return;
    }
    const stdout = child.stdout!;
    const stderr = child.stderr!;
    running.set(request.id, { pid, stdout, stderr });
    child.on('error', () => {});
    child.stdin!.on('error', () => {});
    child.stdin!.end(Buffer.from(request.stdin, 'latin1'));
    // Each message wakes the server. The pid goes with the hook's first news (output, its exit), or on its own
    // after a few milliseconds, and the exit with the pipes' end when they come in one turn: a hook that ends at
    // once is one message.
    let pidUntold: { pid: number } | undefined = { pid };
    const tell = (message: object) => {
      send(pidUntold ? { id: request.id, ...pidUntold, ...message } : { id: request.id, ...message });
      pidUntold = undefined;
    };
    const pidLate = setTimeout(() => pidUntold && tell({}), PID_ALONE_AFTER_MS);
    stdout.on('data', (chunk: Buffer) => tell({ out: chunk.toString('latin1') }));
    stderr.on('data', (chunk: Buffer) => tell({ err: chunk.toString('latin1') }));
    let exited: { exit: number | null; signal: NodeJS.Signals | null } | undefined;
    child.once('exit', (exit, signal) => {
      exited = { exit, signal };
      setImmediate(() => {
        if (exited) tell(exited);
        exited = undefined;
      });
    });
    child.once('close', () => {
      clearTimeout(pidLate);
      // Its group is killed here, before the server hears of the end, rather than by the runner after it: the
      // background jobs that redirected their output go as before, and the server's answer waits for no kill. A
      // hook released to the async supervisor is no longer in `running`: its group is the supervisor's.
      const owned = running.delete(request.id);
      if (owned) killGroup(pid, 'SIGKILL');
      tell({ ...exited, closed: true, ...(owned ? { killed: true } : {}) });
      exited = undefined;
    });
  });
  /** Signals the group `pid` leads; false when it is gone (its error dropped without a stack, as signalGroup does). */
  function killGroup(pid: number, signal: NodeJS.Signals): boolean {
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
  const killAll = (signal: NodeJS.Signals) => {
    for (const { pid } of running.values()) killGroup(pid, signal);
  };
  send({ ready: true });
  // The server has gone (exited, crashed, killed): its hooks go with it.
  process.on('disconnect', () => {
    if (running.size === 0) process.exit(0);
    killAll('SIGTERM');
    setTimeout(() => {
      killAll('SIGKILL');
      process.exit(0);
    }, 1000);
  });
}

/**
 * Starts `count` helpers for the hooks of this process (serve and mcp one; test one per core, since a helper forks
 * one hook at a time). Resolves once they take hooks (until then hooks spawn here); false when none can start, or
 * under Deno, whose hooks spawn here.
 */
export function useSpawner(count = 1): Promise<boolean> {
  if ('Deno' in globalThis) return Promise.resolve(false);
  for (let started = true; started && helpers.length < count; ) started = startHelper();
  return Promise.all(helpers.map(({ ready }) => ready)).then((ready) => ready.includes(true));
}

function startHelper(): boolean {
  const sea = process.getBuiltinModule?.('node:sea')?.isSea() ?? false;
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, sea ? [SPAWNER_COMMAND] : ['-e', `(${spawnerMain.toString()})()`], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      // Its own group: a terminal's ^C reaches the server, which ends its hooks itself; the helper follows it.
      detached: true,
    });
  } catch {
    return false;
  }
  const hooks = new Map<number, Relayed>();
  let settleReady: (ready: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => {
    settleReady = resolve;
  });
  const current: Helper = { child, hooks, ready, isReady: false };
  helpers.push(current);
  const gone = () => {
    settleReady(false);
    if (helpers.includes(current)) helpers.splice(helpers.indexOf(current), 1);
    for (const [id, hook] of hooks) {
      hooks.delete(id);
      hook.started({ spawnError: 'the hook spawner process exited' });
      hook.exited ??= { spawnError: 'the hook spawner process exited' };
      hook.events.emit('exit');
      hook.stdout.push(null);
      hook.stderr.push(null);
    }
  };
  // A helper that does not answer in time is not used (a runtime without IPC would hang every hook).
  const late = setTimeout(() => {
    if (!current.isReady) child.kill();
  }, READY_WITHIN_MS);
  late.unref();
  child.on('error', gone);
  child.on('exit', gone);
  child.on('disconnect', gone);
  child.on('message', (reply: Reply, handle?: unknown) => {
    if ('ready' in reply) {
      current.isReady = true;
      clearTimeout(late);
      settleReady(true);
      refWhileBusy(current);
      return;
    }
    const hook = hooks.get(reply.id);
    if (!hook) return;
    if (reply.pid !== undefined) hook.started(relayed(reply.id, reply.pid, hook, current));
    if (reply.out !== undefined) hook.stdout.push(Buffer.from(reply.out, 'latin1'));
    if (reply.err !== undefined) hook.stderr.push(Buffer.from(reply.err, 'latin1'));
    if (reply.exit !== undefined) {
      hook.exited = {
        ...(reply.exit !== null ? { exitCode: reply.exit } : {}),
        ...(reply.signal ? { signal: reply.signal } : {}),
      };
      hook.events.emit('exit');
    }
    if (reply.closed) {
      if (reply.killed) hook.groupKilled = true;
      hooks.delete(reply.id);
      hook.stdout.push(null);
      hook.stderr.push(null);
    }
    if (reply.pipe !== undefined && hook.pipes) {
      // Not read before the runner takes it (manualStart): a hook that has ended would close it unseen.
      hook.pipes[reply.pipe] = new Socket({ handle, readable: true, writable: false, manualStart: true } as never);
      const { stdout, stderr } = hook.pipes;
      if (stdout && stderr) hook.pipes.arrived({ stdout, stderr });
    }
    if (reply.error !== undefined) {
      hooks.delete(reply.id);
      hook.started({ spawnError: reply.error });
    }
    refWhileBusy(current);
  });
  refWhileBusy(current);
  child.unref();
  return true;
}

/** A helper's channel keeps this process alive only while a hook of it runs. */
function refWhileBusy(helper: Helper): void {
  // Also while it starts: whoever awaits useSpawner() must not see this process exit under it (bounded below).
  if (helper.hooks.size > 0 || !helper.isReady) helper.child.channel?.ref();
  else helper.child.channel?.unref();
}

/** A hook `helper` started: its output arrives in stdout and stderr, its exit as an event. */
function relayed(id: number, pid: number, hook: Relayed, helper: Helper): HookProcess {
  const closed = (stream: Readable) => new Promise<void>((resolve) => stream.once('close', () => resolve()));
  const exited = new Promise<Ended>((resolve) => {
    if (hook.exited) resolve(hook.exited);
    else hook.events.once('exit', () => resolve(hook.exited!));
  });
  const tell = (message: object) => {
    if (helper.child.connected) helper.child.send(message);
  };
  // The runner destroys the streams when it stops waiting for a hook's children: the helper closes its pipes.
  hook.stdout.once('close', () => {
    if (helper.hooks.has(id)) tell({ drop: id });
  });
  return {
    pid,
    stdout: hook.stdout,
    stderr: hook.stderr,
    finished: Promise.all([exited, closed(hook.stdout), closed(hook.stderr)]).then(([ended]) =>
      hook.groupKilled ? { ...ended, groupKilled: true } : ended,
    ),
    onExit(listener) {
      if (hook.exited) {
        queueMicrotask(listener);
        return () => {};
      }
      hook.events.once('exit', listener);
      return () => hook.events.off('exit', listener);
    },
    takePipes() {
      return new Promise<Pipes>((resolve) => {
        hook.pipes = {
          arrived: (pipes) => {
            // Unread until the supervisor takes them; if it does not, the runner resumes them and their bytes
            // go on into stdout and stderr.
            for (const name of ['stdout', 'stderr'] as const) {
              pipes[name].once('resume', () => {
                pipes[name].on('data', (chunk: Buffer) => hook[name].push(chunk));
                pipes[name].once('close', () => hook[name].push(null));
              });
            }
            resolve(pipes);
          },
        };
        tell({ adopt: id });
      });
    },
    release() {
      if (helper.hooks.delete(id)) {
        tell({ release: id });
        refWhileBusy(helper);
      }
    },
  };
}

/** Starts a hook in its own process group, through the least busy helper when there is one, else here. */
export function spawnHook(
  request: SpawnRequest,
): HookProcess | { spawnError: string } | Promise<HookProcess | { spawnError: string }> {
  let current: Helper | undefined;
  for (const candidate of helpers)
    if (candidate.isReady && candidate.child.connected && candidate.hooks.size < (current?.hooks.size ?? Infinity))
      current = candidate;
  if (!current) return spawnHere(request);
  const id = ++nextId;
  return new Promise((resolve) => {
    const stream = () => new Readable({ read() {} });
    current.hooks.set(id, { started: resolve, stdout: stream(), stderr: stream(), events: new EventEmitter() });
    // latin1: the bytes as they are, one character each.
    // The environment (tens of variables, most of the message) is sent only when it differs from the last one.
    const { env, ...rest } = request;
    const sameEnv = current.lastEnv !== undefined && sameEntries(current.lastEnv, env);
    if (!sameEnv) current.lastEnv = { ...env };
    current.child.send({ id, ...rest, ...(sameEnv ? {} : { env }), stdin: request.stdin.toString('latin1') });
    refWhileBusy(current);
  });
}

/**
 * Spawns in this process. node:child_process, not execa: the runner sets its own timer, kill on exit,
 * interruption and capture, so execa added nothing here but its start-up, 21 ms of every firing that runs a hook.
 */
function spawnHere(request: SpawnRequest): HookProcess | { spawnError: string } {
  let child: ChildProcess;
  try {
    child = spawn(request.file, request.args, { cwd: request.cwd, env: request.env, detached: true, stdio: 'pipe' });
  } catch (error) {
    // Refused before it started: a NUL in an argument, or a runtime that denies starting processes.
    return { spawnError: (error as Error).message };
  }
  child.stdin!.on('error', () => {});
  child.stdin!.end(request.stdin);
  const finished = new Promise<Ended>((resolve) => {
    // A process that cannot start (missing file, not executable) reports it here, then still closes.
    let spawnError: string | undefined;
    child.once('error', (error) => {
      spawnError ??= error.message;
    });
    child.once('close', (code, signal) => {
      resolve(
        spawnError !== undefined
          ? { spawnError }
          : { ...(code !== null ? { exitCode: code } : {}), ...(signal !== null ? { signal } : {}) },
      );
    });
  });
  return {
    pid: child.pid,
    stdout: child.stdout!,
    stderr: child.stderr!,
    finished,
    onExit(listener) {
      child.once('exit', listener);
      return () => child.off('exit', listener);
    },
    takePipes: () => ({ stdout: child.stdout!, stderr: child.stderr! }),
    release() {
      child.stdin!.destroy();
      child.unref();
    },
  };
}
