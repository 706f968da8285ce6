// `type: "command"` hooks (spec §5.2, §9.4, §10.1): one process group per hook, killed whole on timeout,
// never left behind (platform/process-group.ts).
import { accessSync, closeSync, constants, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { CommandHook } from '../config/schema.ts';
import { labelOf } from '../hook-label.ts';
import { asyncMarker } from '../outcome.ts';
import { BoundedMap } from '../platform/bounded-map.ts';
import { nowMs } from '../platform/clock.ts';
import { isDirectory } from '../platform/files.ts';
import {
  Capture,
  reapAfterGrace,
  signalGroup,
  signalGroupOnExit,
  terminateGroup,
  truncation,
} from '../platform/process-group.ts';
import { type Pipes, spawnHook } from '../platform/spawner.ts';
import { timerMs } from '../platform/timer.ts';
import type { LoadedHook, RawOutcome, RunContext } from '../types.ts';

const PLUGIN_PLACEHOLDER = /\$\{CLAUDE_PLUGIN_(ROOT|DATA)\}/;

export async function runCommandHook(hook: LoadedHook, ctx: RunContext): Promise<RawOutcome> {
  const started = nowMs();
  const handler = hook.handler as CommandHook;
  const failed = (error: string): RawOutcome => ({
    exitCode: null,
    stdout: '',
    stderr: '',
    timedOut: false,
    error,
    durationMs: nowMs() - started,
  });

  const pluginRoot = hook.provenance.pluginRoot;
  if (!pluginRoot && [handler.command, ...(handler.args ?? [])].some((part) => PLUGIN_PLACEHOLDER.test(part))) {
    return failed(
      `\${CLAUDE_PLUGIN_ROOT} and \${CLAUDE_PLUGIN_DATA} are only available in hooks defined in a plugin: ${handler.command}`,
    );
  }
  if (pluginRoot && !existsSync(pluginRoot)) return failed(`Plugin directory does not exist: ${pluginRoot}`);

  const env = hookEnvironment(hook, ctx);
  const cwd = workingDirectory(ctx);
  if (cwd.warning) ctx.warn(cwd.warning);
  const [file, args] = commandLine(hook.pinned ? { ...handler, ...hook.pinned } : handler, env, ctx.env, cwd.path);

  const stdout = new Capture();
  const stderr = new Capture();
  const child = await spawnHook({ file, args, cwd: cwd.path, env, stdin: stdinOf(ctx) });
  if ('spawnError' in child)
    return failed(`Error occurred while executing hook command: ${labelOf(hook)}: ${child.spawnError}`);
  void stdout.attach(child.stdout);
  void stderr.attach(child.stderr);
  const pid = child.pid;
  // Ends the escalations, timers and listeners of this run; the group itself is killed separately.
  const cleanups: Array<() => void> = [];
  const stopAll = () => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  };
  let timedOut = false;
  let cancelled = false;
  if (pid !== undefined) {
    cleanups.push(signalGroupOnExit(pid, 'SIGTERM'));
    const timeout = setTimeout(() => {
      timedOut = true;
      cleanups.push(terminateGroup(pid));
    }, timerMs(ctx.timeoutMs));
    cleanups.push(() => clearTimeout(timeout));
    const cancel = () => {
      cancelled = true;
      cleanups.push(terminateGroup(pid));
    };
    if (ctx.signal.aborted) cancel();
    else {
      ctx.signal.addEventListener('abort', cancel, { once: true });
      cleanups.push(() => ctx.signal.removeEventListener('abort', cancel));
    }
    // A background child that inherited our pipes must not hang the firing: once the hook itself has exited,
    // give such children a short grace, then kill the group and stop waiting for the pipes.
    cleanups.push(child.onExit(() => cleanups.push(reapAfterGrace(pid, [child.stdout, child.stderr]))));
  }
  const moved = new Promise<{ asyncTimeoutMs: number }>((resolve) => {
    if (!ctx.moveToBackground) return;
    const out = child.stdout;
    // Only a chunk with a newline (or the capture bound) can complete the first line: no re-join per chunk.
    const onData = (chunk: Buffer) => {
      if (!chunk.includes(10) && !stdout.truncated) return;
      const text = stdout.text();
      const newline = text.indexOf('\n');
      if (newline < 0 && !stdout.truncated) return;
      out.off('data', onData);
      const marker = asyncMarker(newline < 0 ? text : text.slice(0, newline));
      if (!marker || pid === undefined) return;
      // Everything read so far is in the captures; the supervisor reads the rest from the same pipes.
      const handOver = (pipes: Pipes) => {
        pipes.stdout.pause();
        pipes.stderr.pause();
        const taken = ctx.moveToBackground!({
          pid,
          stdout: pipes.stdout,
          stderr: pipes.stderr,
          stdoutSoFar: stdout.text(),
          stderrSoFar: stderr.text(),
          asyncTimeoutMs: marker.asyncTimeoutMs,
        });
        if (!taken) {
          pipes.stdout.resume();
          pipes.stderr.resume();
          return;
        }
        // The hook is the supervisor's now: none of this run's timers, kills or listeners may reach it.
        stopAll();
        pipes.stdout.destroy();
        pipes.stderr.destroy();
        child.release();
        resolve(marker);
      };
      const pipes = child.takePipes();
      if (pipes instanceof Promise) void pipes.then(handOver);
      else handOver(pipes);
    };
    out.on('data', onData);
  });
  const settled = await Promise.race([child.finished, moved]);
  if ('asyncTimeoutMs' in settled) {
    return {
      exitCode: null,
      stdout: stdout.text(),
      stderr: stderr.text(),
      timedOut: false,
      durationMs: nowMs() - started,
      background: settled,
    };
  }
  const result = settled;
  stopAll();
  // Reap background jobs that redirected their output and would otherwise outlive the firing (the spawner
  // helper has done it already for a hook it started).
  if (pid !== undefined && !result.groupKilled) signalGroup(pid, 'SIGKILL');

  const outcome: RawOutcome = {
    exitCode: result.exitCode ?? null,
    stdout: stdout.text(),
    stderr: stderr.text(),
    timedOut,
    durationMs: nowMs() - started,
    ...truncation(stdout, stderr),
  };
  if (cancelled) return { ...outcome, error: 'cancelled: peri-hooks was interrupted' };
  if (result.spawnError !== undefined && !outcome.timedOut) {
    return { ...outcome, error: `Error occurred while executing hook command: ${labelOf(hook)}: ${result.spawnError}` };
  }
  if (result.exitCode === undefined && result.signal !== undefined && !outcome.timedOut) {
    return { ...outcome, error: `hook command was killed by ${result.signal}: ${labelOf(hook)}` };
  }
  return outcome;
}

/** The bytes every command hook of one input reads, made once and shared (10 MB x 200 hooks cost 10 MB, not 2 GB). */
const stdinBytes = new WeakMap<object, Buffer>();
function stdinOf(ctx: RunContext): Buffer {
  let bytes = stdinBytes.get(ctx.input);
  if (!bytes) {
    bytes = Buffer.from(`${ctx.inputJson}\n`, 'utf8');
    stdinBytes.set(ctx.input, bytes);
  }
  return bytes;
}

/** Shell form runs under /bin/sh -c as Claude Code 2.1.332 does; `shell` and exec form are honoured. */
function commandLine(
  handler: CommandHook,
  env: Record<string, string | undefined>,
  callerEnv: Record<string, string | undefined>,
  cwd: string,
): [string, string[]] {
  if (handler.args) {
    return [substitute(handler.command, env), handler.args.map((arg) => substitute(arg, env))];
  }
  if (handler.shell === 'powershell') return ['pwsh', ['-NoProfile', '-NonInteractive', '-Command', handler.command]];
  const prefix = callerEnv.CLAUDE_CODE_SHELL_PREFIX;
  if (handler.shell === undefined && !prefix && isPlainScript(handler.command, cwd)) {
    // `sh -c path` would only exec the script: starting it directly saves a shell per run. PWD as sh exports it.
    env.PWD = cwd;
    return [handler.command, []];
  }
  const command = prefix ? `${prefix} ${shellQuote(handler.command)}` : handler.command;
  return [handler.shell === 'bash' ? 'bash' : '/bin/sh', ['-c', command]];
}

/**
 * A command that is one path (no shell syntax at all) to an executable file starting with `#!`: what `sh -c`
 * would exec as it is. Anything else (a missing or non-executable file, a script without `#!`, which sh runs
 * itself) goes through sh, so that exit codes and messages stay the shell's.
 */
function isPlainScript(command: string, cwd: string): boolean {
  if (!/^[\w@%+:,./-]+$/.test(command) || !command.includes('/')) return false;
  const file = path.resolve(cwd, command);
  // A suite or a server runs the same scripts over and over: one stat tells whether the file is still the one
  // looked at (its mode, owner and content change its ctime), instead of access, open, fstat, read and close.
  const stamp = fileStamp(file);
  const known = stamp === undefined ? undefined : plainScripts.get(file);
  if (known !== undefined && known.stamp === stamp) return known.plain;
  const plain = lookedAtPlainScript(file);
  if (stamp !== undefined) plainScripts.set(file, { stamp, plain });
  return plain;
}

const plainScripts = new BoundedMap<string, { stamp: string; plain: boolean }>(256);

function fileStamp(file: string): string | undefined {
  try {
    const stats = statSync(file, { bigint: true, throwIfNoEntry: false });
    return stats && `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  } catch {
    return undefined;
  }
}

function lookedAtPlainScript(file: string): boolean {
  let fd: number | undefined;
  try {
    accessSync(file, constants.X_OK);
    fd = openSync(file, 'r');
    if (!fstatSync(fd).isFile()) return false;
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head.toString('latin1') === '#!';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Exec form: placeholders are substituted as plain strings in the command and every argument. */
function substitute(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}/g,
    (whole, name: string) => env[name] ?? whole,
  );
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function hookEnvironment(hook: LoadedHook, ctx: RunContext): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...ctx.env, CLAUDE_PROJECT_DIR: ctx.projectDir };
  const sessionId = ctx.input.session_id;
  if (typeof sessionId === 'string') env.CLAUDE_CODE_SESSION_ID = sessionId;
  const effort = (ctx.input.effort as { level?: unknown } | undefined)?.level;
  if (typeof effort === 'string') env.CLAUDE_EFFORT = effort;
  const { pluginRoot, pluginName } = hook.provenance;
  if (pluginRoot) {
    env.CLAUDE_PLUGIN_ROOT = pluginRoot;
    const configDir = ctx.env.CLAUDE_CONFIG_DIR ?? `${ctx.env.HOME ?? homedir()}/.claude`;
    env.CLAUDE_PLUGIN_DATA = `${configDir}/plugins/data/${pluginName ?? 'plugin'}`;
  }
  return env;
}

/** The input's cwd; if it is gone, the original cwd, the project root, then home, with a warning (§5.2). */
function workingDirectory(ctx: RunContext): { path: string; warning?: string } {
  const candidates = [ctx.cwd, process.cwd(), ctx.projectDir, ctx.env.HOME ?? homedir()];
  const path = candidates.find((candidate) => candidate !== '' && isDirectory(candidate)) ?? '/';
  return path === ctx.cwd
    ? { path }
    : { path, warning: `the input cwd ${JSON.stringify(ctx.cwd)} does not exist; hooks run in ${path}` };
}
