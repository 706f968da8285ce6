// The guard MCP server of these tests (guard-server.ts), as a configuration entry for stdio and as a running
// Streamable HTTP server on 127.0.0.1, with its log of starts and calls.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.ts';
import { until } from '../helpers/wait.ts';

export const GUARD_SERVER = join(ROOT, 'test/mcp/guard-server.ts');

export interface LogEntry {
  pid: number;
  event: 'start' | 'call' | 'hang' | 'cancelled' | 'request';
  tool?: string;
  arguments?: Record<string, unknown>;
  child?: number;
  env?: string;
  projectDir?: string;
  header?: string;
  path?: string;
}

export function readLog(file: string): LogEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogEntry);
}

/** A stdio server entry that starts the guard with Node, logging to `log`. */
export function stdioGuard(log: string, env: Record<string, string> = {}): object {
  return { command: process.execPath, args: [GUARD_SERVER, 'stdio'], env: { GUARD_LOG: log, ...env } };
}

export interface HttpGuard {
  url: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/** The guard over Streamable HTTP on 127.0.0.1 (a port of its own choosing). */
export async function startHttpGuard(dir: string, log: string): Promise<HttpGuard> {
  const portFile = join(dir, `guard-port-${Date.now()}-${Math.random()}`);
  const child = spawn(process.execPath, [GUARD_SERVER, 'http', portFile], {
    env: { ...process.env, GUARD_LOG: log },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await until('the guard HTTP server to start', () => existsSync(portFile) && readFileSync(portFile, 'utf8') !== '');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `http://127.0.0.1:${readFileSync(portFile, 'utf8')}/mcp`,
    process: child,
    stop: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
