// What every real-agent test shares: a run folder (HOME, XDG folders, a project), hook scripts that record
// what they received and answer as told, and the agent run as a real process whose whole group is killed at
// the end. Each agent's own harness (test/hosts/real/<agent>.ts) builds on these.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkOwnProject, ROOT, writeUnder } from '../../helpers/cli.ts';

export interface RunFolder {
  root: string;
  home: string;
  project: string;
  /** HOME, every XDG folder and TMPDIR inside the run folder, PATH as the test's. */
  env: Record<string, string>;
  /** Writes a file under the project (JSON for objects; executable when it ends in .sh). */
  write(relative: string, content: string | object): string;
  writeHome(relative: string, content: string | object): string;
  cleanup(): void;
}

export function runFolder(prefix: string): RunFolder {
  const root = mkdtempSync(join(tmpdir(), `peri-hooks-${prefix}-`));
  const home = join(root, 'home');
  const project = join(root, 'project');
  const xdg = {
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
  };
  for (const folder of [home, project, join(root, 'tmp'), join(project, 'node_modules/.bin'), ...Object.values(xdg)])
    mkdirSync(folder, { recursive: true });
  // As the project's npm install leaves it: install --host's portable registration starts this.
  symlinkSync(join(ROOT, 'dist/peri-hooks.cjs'), join(project, 'node_modules/.bin/peri-hooks'));
  checkOwnProject(project, home);
  return {
    root,
    home,
    project,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: join(root, 'tmp'), ...xdg },
    write: writeUnder(project),
    writeHome: writeUnder(home),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface HookAnswer {
  stdout?: string | object;
  stderr?: string;
  exit?: number;
  /** Seconds to sleep before answering (for timeouts). */
  sleep?: number;
}

/**
 * The shell line that reads the hook's stdin into `$input` and appends it to `file` as one JSON line. Under a lock:
 * agents run hooks of parallel calls at the same time, and two unlocked appends can interleave within a line.
 */
export function recordInput(file: string): string {
  return `input=$(cat); { flock 9; printf '%s\\n' "$input" | tr -d '\\n' >&9; echo >&9; } 9>> ${shellQuote(file)}`;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * Writes `<root>/hooks/<name>.sh`, which appends its stdin as one JSON line to `<root>/seen/<name>.jsonl` and
 * answers as told; returns its path. The same script serves the native registration and the peri-hooks policy.
 */
export function recordingHook(folder: RunFolder, name: string, answer: HookAnswer = {}): string {
  const stdout = typeof answer.stdout === 'object' ? JSON.stringify(answer.stdout) : (answer.stdout ?? '');
  const seen = join(folder.root, 'seen', `${name}.jsonl`);
  mkdirSync(dirname(seen), { recursive: true });
  const path = join(folder.root, 'hooks', `${name}.sh`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      recordInput(seen),
      answer.sleep ? `sleep ${answer.sleep}` : '',
      `printf '%s' ${shellQuote(stdout)}`,
      `printf '%s' ${shellQuote(answer.stderr ?? '')} >&2`,
      `exit ${answer.exit ?? 0}`,
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

/** The inputs a recording hook received, one per call. */
export function seen(folder: RunFolder, name: string): Array<Record<string, any>> {
  const file = join(folder.root, 'seen', `${name}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

export interface AgentResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The run was killed at its time bound. */
  timedOut: boolean;
}

/** Runs an agent in its own process group with stdin closed; kills the whole group at the bound or at the end. */
export function runAgent(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number; signal?: AbortSignal },
): Promise<AgentResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const bound = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs ?? 180_000);
    // Aborting ends the run as the bound does (for a run that is expected to wait for good).
    options.signal?.addEventListener('abort', () => {
      timedOut = true;
      killGroup();
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(bound);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(bound);
      killGroup();
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** `peri-hooks` as the registration runs it: the built bundle (npm run build), for install, doctor and the like. */
export function periHooks(args: string[], options: { cwd: string; env: Record<string, string> }): Promise<AgentResult> {
  return runAgent(process.execPath, [join(ROOT, 'dist/peri-hooks.cjs'), ...args], { ...options, timeoutMs: 60_000 });
}
