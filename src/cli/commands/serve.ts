// `peri-hooks serve`: the hook pipeline as a resident server, in the foreground until SIGTERM or SIGINT.

import { chmodSync, lstatSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { EXIT, PeriHooksError } from '../../errors.ts';
import { checkExposure, readToken } from '../../serve/auth.ts';
import { createMetrics } from '../../serve/metrics.ts';
import { createHookServer } from '../../serve/server.ts';
import { list, write } from '../io.ts';
import { type ResidentFlags, residentFiring } from '../resident.ts';
import { flushSpans } from './fire.ts';

export interface ServeFlags extends ResidentFlags {
  listen?: string;
  socket?: string;
  tokenFile?: string;
  maxActive?: unknown;
  maxQueued?: unknown;
  stopGrace?: unknown;
  projectRoot?: unknown;
}

/** `--project-root` values, as real paths: each must be a folder. */
function projectRoots(value: unknown): string[] {
  return (list(value) ?? []).map((dir) => {
    try {
      if (statSync(dir).isDirectory()) return realpathSync.native(dir);
    } catch {
      // Said below.
    }
    throw new PeriHooksError(
      'usage',
      `--project-root ${dir} is not a folder`,
      'give a folder whose projects (it and every folder inside it) the server may load the settings of',
    );
  });
}

const DEFAULT_LISTEN = '127.0.0.1:7387';
const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

export async function serveCommand(flags: ServeFlags): Promise<number> {
  if (flags.listen !== undefined && flags.socket !== undefined) {
    throw new PeriHooksError('usage', '--listen and --socket name two places to serve on', 'give one of them');
  }
  // A resident server parses the same schemas per request: zod's compiled fast path pays off here (main.ts turns it off).
  const fire = await residentFiring(flags);
  const token = flags.tokenFile === undefined ? undefined : readToken(String(flags.tokenFile));
  const address = flags.socket === undefined ? parseListen(String(flags.listen ?? DEFAULT_LISTEN)) : undefined;
  if (address) checkExposure(address.host, token);
  const running = createHookServer({
    fire,
    ...(token === undefined ? {} : { token }),
    projectRoots: projectRoots(flags.projectRoot),
    ...(flags.socket !== undefined ? { socket: true } : {}),
    maxActive: count('--max-active', flags.maxActive, 64),
    maxQueued: count('--max-queued', flags.maxQueued, 256, 0),
    stopGraceMs: count('--stop-grace', flags.stopGrace, 10, 0) * 1000,
    log: (line) => process.stderr.write(`peri-hooks serve: ${line}\n`),
    metrics: await createMetrics(),
  });
  const { server } = running;
  // The handlers go in before listening: a client may fire, and a process manager signal, as soon as the address is out.
  const stopped = new Promise<void>((resolve) => {
    let stopping = false;
    // The handlers stay until the process ends: a later signal ends the grace instead of killing the server, whose hooks would live on.
    const stop = () => {
      if (stopping) {
        running.abort();
        return;
      }
      stopping = true;
      process.stderr.write('peri-hooks serve: stopping\n');
      void running.stop().then(resolve);
    };
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
  });
  const where = address ? await listenTcp(server, address) : await listenSocket(server, String(flags.socket));
  await write(process.stdout, `peri-hooks serve: listening on ${where}\n`);
  await stopped;
  if (flags.socket !== undefined) removeSocket(String(flags.socket));
  await flushSpans();
  await write(process.stderr, 'peri-hooks serve: stopped\n');
  // Exit with the stop handlers still in place: a natural exit first closes them, which restores the default
  // action, and a signal in the last moments of teardown would then end the process with 143.
  process.exit(EXIT.ok);
}

export function parseListen(value: string, flag = '--listen'): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(value);
  const port = Number(match?.[3]);
  if (!match || !Number.isInteger(port) || port > 65_535) {
    throw new PeriHooksError(
      'usage',
      `${flag} ${JSON.stringify(value)} is not <host>:<port>`,
      `e.g. ${flag} 127.0.0.1:7387 (port 0 picks a free one), or ${flag} [::1]:7387`,
    );
  }
  return { host: match[1] ?? match[2]!, port };
}

function count(flag: string, value: unknown, fallback: number, minimum = 1): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum)
    throw new PeriHooksError(
      'usage',
      `${flag} must be a whole number of at least ${minimum}, not "${String(value)}"`,
      `e.g. ${flag} ${fallback}`,
    );
  return number;
}

function listenTcp(server: import('node:http').Server, address: { host: string; port: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new PeriHooksError(
          'usage',
          `cannot listen on ${address.host}:${address.port}: ${error.code ?? error.message}`,
          'pick a free port, or port 0 for any free one',
        ),
      ),
    );
    server.listen(address.port, address.host, () => {
      const bound = server.address();
      const port = typeof bound === 'object' && bound ? bound.port : address.port;
      resolve(`http://${address.host.includes(':') ? `[${address.host}]` : address.host}:${port}`);
    });
  });
}

/** A socket file left by a server that is gone is replaced; one that answers is in use. */
async function listenSocket(server: import('node:http').Server, file: string): Promise<string> {
  if (isSocket(file)) {
    if (await answers(file))
      throw new PeriHooksError(
        'usage',
        `another server is listening on the socket ${file}`,
        'stop it, or give another --socket path',
      );
    removeSocket(file);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new PeriHooksError(
          'usage',
          `cannot listen on the socket ${file}: ${error.code ?? error.message}`,
          'give a --socket path in a folder you can write, where no other file sits',
        ),
      ),
    );
    server.listen(file, () => resolve());
  });
  chmodSync(file, 0o600);
  return `unix:${file}`;
}

function isSocket(file: string): boolean {
  try {
    return lstatSync(file).isSocket();
  } catch {
    return false;
  }
}

function answers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(file, () => {
      probe.destroy();
      resolve(true);
    });
    probe.on('error', () => resolve(false));
  });
}

function removeSocket(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
