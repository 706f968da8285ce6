// Test helpers for install, uninstall and doctor: a copy of the built npm artefacts in a temporary "package"
// folder (so the registration names a known path, whatever ROOT/dist holds), run as a real process.

import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import type { ServerEntry } from '../../src/config/mcp/servers.ts';
import type { ConnectionPool } from '../../src/types.ts';
import { type CliResult, type Project, ROOT, runCli } from '../helpers/cli.ts';

export interface Package {
  dir: string;
  /** What install registers for this copy: this Node and the copied bin. */
  runner: string;
  run(
    args: string[],
    project: Project,
    options?: { env?: Record<string, string>; stdin?: string; cwd?: string },
  ): Promise<CliResult>;
  cleanup(): void;
}

export function packageCopy(): Package {
  const dir = mkdtempSync(join(tmpdir(), 'peri-hooks-package-'));
  mkdirSync(join(dir, 'dist'));
  for (const name of ['peri-hooks.cjs', 'peri-hooks.bundle.cjs'])
    copyFileSync(join(ROOT, 'dist', name), join(dir, 'dist', name));
  const bin = join(dir, 'dist/peri-hooks.cjs');
  return {
    dir,
    runner: `${process.execPath} ${bin}`,
    run: (args, project, options = {}) =>
      runCli(args, {
        cli: [process.execPath, [bin]],
        cwd: options.cwd ?? project.dir,
        env: { ...project.env(), ...options.env },
        ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
      }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The settings file as JSON, comments allowed. */
export function readSettings(
  file: string,
): { hooks?: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>> } & Record<string, unknown> {
  return parse(readFileSync(file, 'utf8'));
}

/** The registration's command for `event` as a policy of `policies` is registered by `runner`. */
export function registration(runner: string, event: string, policies: string[], extra: string[] = []): string {
  return [
    runner,
    'fire',
    event,
    '--output',
    'claude',
    ...policies.flatMap((policy) => ['--settings', policy]),
    '--setting-sources',
    'none',
    ...extra,
  ].join(' ');
}

/** What the portable registration says where neither the project nor PATH has peri-hooks (a project whose package.json does not list it). */
export const NOT_FOUND =
  'peri-hooks cannot start here: neither node_modules/.bin/peri-hooks (with node on PATH) nor peri-hooks on PATH; fix: put the peri-hooks single binary on PATH (or npm install --save-dev peri-hooks, Node >= 22.19)';

/**
 * The project scope's registration, written out: the project from $CLAUDE_PROJECT_DIR, peri-hooks from its
 * node_modules/.bin or PATH, policies relative to the project; fail-closed (install's default) unless told.
 */
export function portable(event: string, policies: string[], extra: string[] = [], failClosed = true): string {
  const blocks =
    failClosed &&
    !['Notification', 'SessionStart', 'SessionEnd', 'StopFailure', 'SubagentStart', 'PostCompact'].includes(event);
  const message = `${NOT_FOUND}${blocks ? '; blocking because the registration is --fail-closed' : ''}`;
  return (
    `d="$CLAUDE_PROJECT_DIR"; p="$d"/node_modules/.bin/peri-hooks; { [ -x "$p" ] && command -v node >/dev/null; } || p=$(command -v peri-hooks) || { echo '${message}' >&2; exit ${blocks ? 2 : 1}; }; exec "$p" ` +
    [
      'fire',
      event,
      '--output',
      'claude',
      ...policies.flatMap((policy) => ['--settings', `"$d"/${policy}`]),
      '--setting-sources',
      'none',
      ...(failClosed ? ['--fail-closed'] : []),
      ...extra,
    ].join(' ')
  );
}

/** The project's node_modules/.bin/peri-hooks, as `npm install` of the package makes it: a link to the bin. */
export function linkIntoProject(pkg: Package, projectDir: string): void {
  mkdirSync(join(projectDir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(join(pkg.dir, 'dist/peri-hooks.cjs'), join(projectDir, 'node_modules/.bin/peri-hooks'));
}

/**
 * Calls the registered peri-hooks server's `fire` tool as the agent does, with the arguments the agent substitutes
 * into the hook's `input`; the tool's text (a tool error fails the test).
 */
export async function callFireTool(
  pool: ConnectionPool,
  server: { entry: ServerEntry; file: string },
  args: Record<string, unknown>,
  project: Project,
): Promise<string> {
  const answer = await pool.call(
    { name: 'peri-hooks', entry: server.entry, source: { scope: 'project', file: server.file, pointer: '' } },
    'fire',
    args,
    {
      timeoutMs: 30_000,
      signal: AbortSignal.timeout(60_000),
      projectDir: project.dir,
      env: project.env(),
      urlPatterns: undefined,
    },
  );
  assert.equal(answer.kind, 'result', JSON.stringify(answer));
  const result = answer as { content: Array<{ text: string }>; isError?: boolean };
  assert.notEqual(result.isError, true, result.content[0]?.text);
  return result.content[0]?.text ?? '';
}
