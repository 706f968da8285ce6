// A real `peri-hooks serve` process for tests: started on a free port (or a socket), its address read from
// its first line, stopped with SIGTERM (SIGKILL if it does not go) and awaited; or its request handler in this
// process (serveInProcess).
import { type ChildProcess, spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createHookServer, type ServeOptions } from '../../src/serve/server.ts';
import { cliCommand, type Project, ROOT } from './cli.ts';

export interface Served {
  url: string;
  child: ChildProcess;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then the exit code (SIGKILL after `killAfterMs`). */
  stop(killAfterMs?: number): Promise<number | null>;
  /** The exit code, once the server exits on its own (after a signal the test sent). */
  exited: Promise<number | null>;
}

export async function startServe(args: string[], env: Record<string, string>): Promise<Served> {
  const [command, prefix] = cliCommand('serve');
  const child = spawn(command, [...prefix, 'serve', ...args], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /listening on (\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening: ${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    exited,
    async stop(killAfterMs = 30_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
}

/** One HTTP request; `url` may be `unix:<socket>` followed by the path after a space-free `:`. */
export function call(
  url: string,
  method: string,
  body?: string,
  headers: Record<string, string> = {},
  socketPath?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        method,
        path: target.pathname + target.search,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(socketPath ? { socketPath } : { host: target.hostname, port: target.port }),
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, text, json: () => JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface InProcessServe {
  /** Source options and --fail-closed, as the serve command passes them to every firing. */
  fire?: Omit<ServeOptions['fire'], 'env' | 'home' | 'managedDir' | 'stateDir'>;
  /** --project-root folders beside the project's own. */
  roots?: string[];
  token?: string;
}

/**
 * The serve request handler in this process (createHookServer, as `peri-hooks serve` builds it), on a free port of
 * 127.0.0.1, with the project's HOME, managed folder, environment and a state folder in its HOME. The process
 * (signals, the stop grace, the socket, the exit code) is what startServe is for.
 */
export async function serveInProcess(
  project: Project,
  options: InProcessServe = {},
): Promise<Pick<Served, 'url' | 'stderr' | 'stop'>> {
  let log = '';
  const running = createHookServer({
    fire: {
      ...options.fire,
      env: project.env(),
      home: project.home,
      managedDir: project.managed,
      stateDir: join(project.home, 'state'),
    },
    projectRoots: [project.dir, ...(options.roots ?? [])].map((dir) => realpathSync(dir)),
    ...(options.token !== undefined ? { token: options.token } : {}),
    maxActive: 64,
    maxQueued: 256,
    stopGraceMs: 10_000,
    log: (line) => {
      log += `peri-hooks serve: ${line}\n`;
    },
  });
  await new Promise<void>((resolve) => running.server.listen(0, '127.0.0.1', resolve));
  const { port } = running.server.address() as AddressInfo;
  let stopped: Promise<number | null> | undefined;
  const stop = () => {
    stopped ??= running.stop().then(() => 0);
    return stopped;
  };
  return { url: `http://127.0.0.1:${port}`, stderr: () => log, stop };
}
