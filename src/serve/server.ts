// `peri-hooks serve`: the fire pipeline behind HTTP (TCP or a unix socket). Settings are loaded once per project
// and revalidated per request (config/settings-cache.ts); every firing is `fire` itself, with the cache as its loader.

import { realpathSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { unenforcedLines } from '../config/codes.ts';
import { SERVE_PROJECT_HEADER } from '../config/registration.ts';
import { settingsCache } from '../config/settings-cache.ts';
import { type ErrorCode, PeriHooksError } from '../errors.ts';
import { canBlock, EVENT_NAMES, type EventName, isEventName } from '../events.ts';
import { type FireOptions, fire } from '../fire.ts';
import { createConnectionPool } from '../mcp/pool.ts';
import { nowMs } from '../platform/clock.ts';
import { isDirectory } from '../platform/files.ts';
import { preferNodeCrypto } from '../platform/hash.ts';
import { VERSION } from '../platform/version.ts';
import { reportDocument } from '../report/document.ts';
import type { FireReport } from '../report/types.ts';
import { closeStores } from '../session/store.ts';
import { printable } from '../text.ts';
import { authorized } from './auth.ts';
import { failClosedBlock, httpAnswer } from './http-answer.ts';
import { limiter } from './limiter.ts';
import type { Metrics } from './metrics.ts';

export const BODY_LIMIT_BYTES = 10 * 1024 * 1024;
/** The request header (or `project` query parameter) naming the project, as CLAUDE_PROJECT_DIR does for fire. */
const PROJECT_HEADER = SERVE_PROJECT_HEADER.toLowerCase();

export interface ServeOptions {
  /** What every firing shares: source options, fail-closed, state folder, env, selfCommand. */
  fire: Omit<FireOptions, 'signal' | 'load' | 'inputSource' | 'stopGuard' | 'onHookStart' | 'mcpPool'>;
  /** Bearer token every request but /healthz must carry. */
  token?: string;
  /**
   * Folders (real paths) whose projects' own settings and MCP servers may load. A client names the project, so
   * without a token (or the 0600 socket) only a listed project brings its files: loopback is no authentication.
   */
  projectRoots: readonly string[];
  /** Served on a unix socket made 0600: only the server's own user can ask. */
  socket?: boolean;
  /** Firings at once, and firings that may wait for a slot; beyond both a request gets 503. */
  maxActive: number;
  maxQueued: number;
  /** How long a stop waits for in-flight firings before their hooks are killed. */
  stopGraceMs: number;
  /** One line per request: never a header, a body or a query. */
  log: (line: string) => void;
  /** Counts the firings; `GET /metrics` shows them (with the token, as every request but /healthz). */
  metrics?: Metrics;
}

export interface RunningServer {
  server: Server;
  /** Stops accepting, lets in-flight firings finish within the grace, then kills what still runs. */
  stop(): Promise<void>;
  /** Ends the grace now: every running hook is killed and its firing answered. */
  abort(): void;
}

type Route = { kind: 'health' } | { kind: 'metrics' } | { kind: 'fire'; answer: 'claude' | 'report'; event: string };

const ROUTES: ReadonlyArray<{ prefix: string; method: string; route: (rest: string) => Route | undefined }> = [
  { prefix: '/healthz', method: 'GET', route: (rest) => (rest === '' ? { kind: 'health' } : undefined) },
  { prefix: '/metrics', method: 'GET', route: (rest) => (rest === '' ? { kind: 'metrics' } : undefined) },
  {
    prefix: '/hooks/',
    method: 'POST',
    route: (event) => (event && !event.includes('/') ? { kind: 'fire', answer: 'claude', event } : undefined),
  },
  {
    prefix: '/v1/fire/',
    method: 'POST',
    route: (event) => (event && !event.includes('/') ? { kind: 'fire', answer: 'report', event } : undefined),
  },
];

/** Input errors are the client's (400); the rest are the server's own failures. */
const CLIENT_ERRORS: readonly ErrorCode[] = ['empty-input', 'invalid-json', 'invalid-input', 'event-mismatch'];

export function createHookServer(options: ServeOptions): RunningServer {
  preferNodeCrypto();
  const cache = settingsCache();
  // MCP connections outlive a firing: one per server, reused by the next request, reconnected after a crash.
  const mcpPool = createConnectionPool();
  const slots = limiter(options.maxActive, options.maxQueued);
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  let closing = false;

  /** Answers `request`; `parsed.url` holds its URL once parsed (for the log line, which need not parse it again). */
  const handle = async (request: IncomingMessage, response: ServerResponse, parsed: { url?: URL }): Promise<number> => {
    const url = new URL(request.url ?? '/', 'http://peri-hooks');
    parsed.url = url;
    const match = ROUTES.find(
      (candidate) => url.pathname === candidate.prefix.replace(/\/$/, '') || url.pathname.startsWith(candidate.prefix),
    );
    const route = match?.route(url.pathname.slice(match.prefix.length));
    // Answered before the body is read: the connection is closed after the answer, or a client that reuses it
    // would send its next request into the unread rest of this body (and see the socket hang up).
    const early = (status: number, body: unknown) => {
      if (!request.complete) response.setHeader('connection', 'close');
      return send(response, status, body);
    };
    if (!match || !route)
      return early(404, {
        error: `no such path ${url.pathname}`,
        paths: ['GET /healthz', 'GET /metrics', 'POST /hooks/<Event>', 'POST /v1/fire/<Event>'],
      });
    if (request.method !== match.method) {
      response.setHeader('allow', match.method);
      return early(405, { error: `${request.method} is not allowed on ${match.prefix}; use ${match.method}` });
    }
    const unauthorized = !authorized(request.headers.authorization, options.token);
    if (route.kind === 'health') {
      // Open to health checks; a token that is sent is checked, so that a client (doctor) can test its own without firing.
      if (request.headers.authorization !== undefined && unauthorized) return refuse(response, early);
      return early(200, { ok: true, version: VERSION, tokenRequired: options.token !== undefined });
    }
    if (unauthorized) return refuse(response, early);
    if (route.kind === 'metrics') return scrape(response);
    if (!isEventName(route.event))
      return early(404, { error: `unknown hook event "${route.event}"`, events: EVENT_NAMES });
    const body = await readBody(request);
    if (body === undefined) {
      response.setHeader('connection', 'close');
      return send(response, 413, {
        error: `the request body is larger than ${BODY_LIMIT_BYTES} bytes`,
        fix: 'send one hook input per request',
      });
    }
    if (closing) {
      response.setHeader('connection', 'close');
      return send(response, 503, { error: 'the server is stopping' });
    }
    const project = requestedProject(request, url);
    if ('error' in project) return send(response, 400, project);
    const firing = slots.run(() => fireOnce(route.event as EventName, body, route.answer, project.dir));
    if (!firing) {
      options.metrics?.failed(route.event, 'overload');
      const overloaded = `overloaded: ${options.maxActive} firings run and ${options.maxQueued} wait`;
      // Claude Code reads a 503 as a non-blocking error and runs the tool: fail-closed answers the block instead.
      if (route.answer === 'claude' && options.fire.failClosed === true && canBlock(route.event))
        return send(response, 200, failClosedBlock(route.event, overloaded));
      response.setHeader('retry-after', '1');
      return send(response, 503, {
        error: overloaded,
        fix: 'retry, or start the server with a larger --max-active / --max-queued',
      });
    }
    const answer = await firing;
    const status = send(response, answer.status, answer.body);
    answer.answered?.();
    return status;
  };

  // Who may name a project whose own files load: anyone who holds the token or reaches the 0600 socket, else only listed roots.
  const refusedProjects = new Set<string>();
  const projectFiles = (projectDir: string): boolean => {
    if (options.token !== undefined || options.socket === true || underRoot(projectDir, options.projectRoots))
      return true;
    if (!refusedProjects.has(projectDir) && refusedProjects.size < 1000) {
      refusedProjects.add(projectDir);
      options.log(
        `the project settings and .mcp.json of ${printable(projectDir)} are not loaded: it is under no --project-root (and the server has no --token-file)`,
      );
    }
    return false;
  };

  // Read once: each firing copies its environment, and a copy of process.env asks the C++ side for every variable.
  const env = options.fire.env ?? { ...process.env };
  const fireOnce = async (
    event: EventName,
    body: string,
    form: 'claude' | 'report',
    projectDir: string | undefined,
  ): Promise<{ status: number; body?: unknown; answered?: () => void }> => {
    const fireOptions: FireOptions = {
      ...options.fire,
      inputSource: 'the request body',
      load: cache.load,
      mcpPool,
      signal: stopping.signal,
      projectFiles,
      env: projectDir ? { ...env, CLAUDE_PROJECT_DIR: projectDir } : env,
      // Claude Code caps Stop loops itself, as for `fire --output claude`.
      ...(form === 'claude' ? { stopGuard: false } : {}),
    };
    let report: FireReport;
    const started = nowMs();
    try {
      report = await fire(event, body, fireOptions);
    } catch (error) {
      return failure(event, error, form);
    }
    const durationMs = nowMs() - started;
    if (stopping.signal.aborted) {
      options.metrics?.fired(report, durationMs);
      return failure(
        event,
        new PeriHooksError('internal', 'the server stopped before the firing ended; its hooks were killed'),
        form,
      );
    }
    // Counted and logged once the answer is on its way: the client waits for neither.
    const answered = () => {
      options.metrics?.fired(report, durationMs);
      // The operator hears it too: the answer's systemMessage reaches only the user of this one session.
      for (const line of unenforcedLines(event, report.warnings))
        options.log(`${event}: ${report.failClosed ? 'blocked, ' : ''}policy not enforced, it did not load: ${line}`);
    };
    // As `fire --output json` prints it: the versioned document.
    if (form === 'report') return { status: 200, body: reportDocument(report), answered };
    const answer = httpAnswer(report);
    return { status: answer.status, ...(answer.body ? { body: answer.body } : {}), answered };
  };

  /** A firing that could not run: the client's input (400) or the server's failure (500); fail-closed blocks. */
  const failure = (event: EventName, error: unknown, form: 'claude' | 'report'): { status: number; body: unknown } => {
    const known = error instanceof PeriHooksError;
    const message = known ? error.message : `internal error: ${error instanceof Error ? error.message : String(error)}`;
    const blocks = options.fire.failClosed === true && canBlock(event);
    const status = known && CLIENT_ERRORS.includes(error.code) ? 400 : 500;
    options.metrics?.failed(event, status === 400 ? 'input' : 'internal');
    if (form === 'claude' && blocks) return { status: 200, body: failClosedBlock(event, message) };
    return {
      status,
      body: {
        error: message,
        ...(known ? { code: error.code, ...(error.fix ? { fix: error.fix } : {}) } : {}),
        exitCode: blocks ? 2 : 1,
        ...(blocks ? { failClosed: true } : {}),
      },
    };
  };

  /** The Prometheus text; a server started without metrics (an embedder's) has none to show. */
  const scrape = async (response: ServerResponse): Promise<number> => {
    if (!options.metrics) return send(response, 404, { error: 'this server counts no metrics' });
    const { contentType, text } = await options.metrics.scrape();
    response.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
    response.end(text);
    return 200;
  };

  const tracked = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    return promise.finally(() => inFlight.delete(promise));
  };

  const server = createServer((request, response) => {
    const started = nowMs();
    const parsed: { url?: URL } = {};
    void tracked(
      handle(request, response, parsed).then(
        (status) =>
          options.log(`${request.method} ${parsed.url?.pathname} ${status} ${(nowMs() - started).toFixed(1)}ms`),
        (error: unknown) => {
          options.log(`${request.method} request failed: ${error instanceof Error ? error.message : String(error)}`);
          if (!response.headersSent) send(response, 500, { error: 'internal error' });
          else response.destroy();
        },
      ),
    );
  });
  // A slow client must not hold a connection forever; firings themselves are bounded by their hooks' timeouts.
  server.requestTimeout = 60_000;
  server.headersTimeout = 30_000;

  return {
    server,
    abort: () => stopping.abort(),
    async stop() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, options.stopGraceMs).unref());
      await Promise.race([Promise.allSettled([...inFlight]), grace]);
      // What still runs is aborted: fire kills every hook's process group and answers.
      stopping.abort();
      await Promise.allSettled([...inFlight]);
      server.closeAllConnections();
      await Promise.all([closed, closeStores(), mcpPool.close()]);
    },
  };
}

/**
 * A body over the limit but within this is still read to its end, and dropped, before the 413: closing a socket
 * with unread data resets it, and a client still sending would see EPIPE or ECONNRESET instead of the answer.
 */
const DRAINED_BYTES = 2 * BODY_LIMIT_BYTES;

/** The body as text, or undefined when it exceeds the limit. */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  if (Number(request.headers['content-length'] ?? 0) > DRAINED_BYTES) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT_BYTES) chunks.push(chunk);
      else if (size > DRAINED_BYTES) resolve(undefined);
      else chunks.length = 0;
    });
    request.on('end', () => resolve(size > BODY_LIMIT_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    // Before the body's end, the client went away. After it (every request: 'close' follows 'end') nothing is
    // made: an Error takes its stack, 40 to 50 µs between the body and the firing.
    request.on('close', () => {
      if (!request.complete) reject(new Error('the client closed the connection before the body ended'));
    });
  });
}

/** The project a request names (header, else `project` query parameter); it must be an absolute folder. */
function requestedProject(request: IncomingMessage, url: URL): { dir?: string } | { error: string; fix: string } {
  const header = request.headers[PROJECT_HEADER];
  const value = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('project') ?? undefined;
  if (value === undefined || value === '') return {};
  if (!path.isAbsolute(value) || !isDirectory(value)) {
    return {
      error: `the requested project ${JSON.stringify(value)} is not an absolute path of a folder`,
      fix: `send the project root in the ${PROJECT_HEADER} header (or ?project=), as CLAUDE_PROJECT_DIR would be`,
    };
  }
  return { dir: value };
}

/** The folder is one of the roots or inside one, symbolic links resolved. */
function underRoot(dir: string, roots: readonly string[]): boolean {
  // Without roots nothing to resolve; else one realpath(3) call, not an lstat per folder of the path.
  if (roots.length === 0) return false;
  let real: string;
  try {
    real = realpathSync.native(dir);
  } catch {
    return false;
  }
  return roots.some((root) => {
    const relative = path.relative(root, real);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  });
}

function refuse(response: ServerResponse, answer: (status: number, body: unknown) => number): number {
  response.setHeader('www-authenticate', 'Bearer');
  return answer(401, {
    error: 'missing or wrong bearer token',
    fix: "send Authorization: Bearer <the token in the server's --token-file>",
  });
}

function send(response: ServerResponse, status: number, body: unknown): number {
  const text = body === undefined ? '' : `${JSON.stringify(body)}\n`;
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
  return status;
}
