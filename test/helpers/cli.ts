// Test helpers: a temporary project with its own HOME and managed folder, real hook scripts, and the CLI run as a
// real process: the bundle by default (what users run, and a third of the start-up of the TypeScript sources);
// PERI_HOOKS_CLI=source, deno, or a path to a binary picks another.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findProject } from '../../src/config/sources.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NODE = process.execPath;

/** The narrowest Deno permissions per command (with command and loopback http hooks); docs/reference/artefacts.md, "Deno permissions", explains each. */
const FIRE_FLAGS = ['--allow-read', '--allow-env', '--allow-run', '--allow-net=127.0.0.1'];
export const DENO_FLAGS: Record<string, readonly string[]> = {
  fire: FIRE_FLAGS,
  validate: ['--allow-read', '--allow-env'],
  // Each case runs in its own temporary folder.
  test: [...FIRE_FLAGS, `--allow-write=${tmpdir()}`],
};

/** `deno run` of the sources; --no-prompt so that a missing permission fails instead of asking. */
export function denoCommand(flags: readonly string[] = FIRE_FLAGS): [string, string[]] {
  return [join(ROOT, 'node_modules/.bin/deno'), ['run', '--no-prompt', ...flags, join(ROOT, 'src/cli/bin.ts')]];
}

export function cliTarget(): string {
  return process.env.PERI_HOOKS_CLI || 'bundle';
}

/** The bundle `npm test` builds first; checked once per test process, so an edit of src/ never tests an old build. */
const BUNDLE = join(ROOT, 'dist/peri-hooks.bundle.cjs');
let bundleChecked = false;
export function checkBundle(): void {
  if (bundleChecked) return;
  const built = (() => {
    try {
      return statSync(BUNDLE).mtimeMs;
    } catch {
      return undefined;
    }
  })();
  const newer = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).find(
    (name) => built !== undefined && statSync(join(ROOT, 'src', name)).mtimeMs > built,
  );
  if (built === undefined || newer !== undefined)
    throw new Error(
      `${built === undefined ? 'dist/peri-hooks.bundle.cjs is missing' : `src/${newer} is newer than dist/peri-hooks.bundle.cjs`}: build it (node scripts/build.ts; npm test does), or run the sources with PERI_HOOKS_CLI=source`,
    );
  bundleChecked = true;
}

/** The command line that runs peri-hooks; under Deno the permissions depend on the command (`fire` when unknown). */
export function cliCommand(command?: string): [string, string[]] {
  const target = cliTarget();
  if (target === 'source') return [NODE, [join(ROOT, 'src/cli/bin.ts')]];
  if (target === 'bundle') {
    checkBundle();
    return [NODE, [join(ROOT, 'dist/peri-hooks.cjs')]];
  }
  if (target === 'deno') return denoCommand(DENO_FLAGS[command ?? 'fire'] ?? FIRE_FLAGS);
  return [target, []];
}

export interface Project {
  dir: string;
  home: string;
  managed: string;
  /** Writes a file under the project (JSON for objects; executable when the name ends in .sh). */
  write(relative: string, content: string | object): string;
  /** Writes a file under HOME. */
  writeHome(relative: string, content: string | object): string;
  writeManaged(relative: string, content: string | object): string;
  /** A real Claude Code 2.1.332 input for the event, with cwd pointing into this project. */
  input(fixture: string, overrides?: Record<string, unknown>): string;
  env(extra?: Record<string, string>): Record<string, string>;
  cleanup(): void;
}

export function makeProject(): Project {
  const base = mkdtempSync(join(tmpdir(), 'peri-hooks-test-'));
  const dir = join(base, 'project');
  const home = join(base, 'home');
  const managed = join(base, 'managed');
  for (const folder of [dir, home, managed]) mkdirSync(folder, { recursive: true });
  checkOwnProject(dir, home);
  return {
    dir,
    home,
    managed,
    write: writeUnder(dir),
    writeHome: writeUnder(home),
    writeManaged: writeUnder(managed),
    input(fixture, overrides = {}) {
      const text = readFileSync(join(ROOT, 'fixtures/claude-code-2.1.332/inputs', `${fixture}.json`), 'utf8');
      return JSON.stringify({ ...JSON.parse(text), cwd: dir, ...overrides });
    },
    env(extra = {}) {
      return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, PERI_HOOKS_MANAGED_DIR: managed, ...extra };
    },
    cleanup() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/**
 * A test project must be its own project, found as Claude Code finds it (findProject): project settings or a git
 * folder left in the temporary folder or above (by a run that was killed, or a tool run there) would capture
 * every test project, and dozens of tests would fail far from the cause. Said at once, with the fix.
 */
export function checkOwnProject(dir: string, home: string): void {
  const found = findProject(dir, home);
  if (found.projectDir !== dir)
    throw new Error(
      `${found.projectDir} holds ${found.projectDirFrom === 'git' ? 'a .git folder' : 'project settings (.claude/)'}, which makes it the project of every test project under it: remove it (a test or tool left it there)`,
    );
}

/** A writer of files under `root`: JSON for objects, executable when the name ends in .sh; returns the path. */
export function writeUnder(root: string): (relative: string, content: string | object) => string {
  return (relative, content) => {
    const path = join(root, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    if (path.endsWith('.sh')) chmodSync(path, 0o755);
    return path;
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export function runCli(
  args: string[],
  options: { stdin?: string; env: Record<string, string>; cwd?: string; cli?: [string, string[]] },
): Promise<CliResult> {
  const [command, prefix] = options.cli ?? cliCommand(args[0]);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...prefix, ...args], {
      env: options.env,
      cwd: options.cwd ?? ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, durationMs: performance.now() - started }));
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
  });
}

/** Settings with one matcher group per event. */
export function hooksSettings(groups: Record<string, Array<{ matcher?: string; hooks: object[] }>>): object {
  return { hooks: groups };
}
