// A real `peri-hooks serve` process for tests: started on a free port (or a socket), its address read from
// its first line, stopped with SIGTERM (SIGKILL if it does not go) and awaited.
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { cliCommand, ROOT } from './cli.ts';

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
