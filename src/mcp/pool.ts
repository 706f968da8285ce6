// MCP connections for the mcp_tool runner. One connection per server definition: the mcp_tool hooks of one
// firing that name the same server share it, and `serve` can keep a pool across firings (a server that went
// away is connected again on its next call). Closing the pool closes every connection, which kills stdio servers.

import type { DefinedServer } from '../config/mcp/servers.ts';
import { isUrlAllowed } from '../net/url-allowlist.ts';
import { timerMs } from '../platform/timer.ts';
import { shownUrl } from '../text.ts';
import type { McpCallOptions as CallOptions, McpCallResult as CallResult, ConnectionPool } from '../types.ts';
import type { Connection } from './connect.ts';

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

// The shapes of a call are the runners' contract (types.ts), which the pool fulfils.
export type { ConnectionPool, McpCallOptions as CallOptions, McpCallResult as CallResult } from '../types.ts';

/** Same definition, same connection; a definition that changes (serve reloading settings) gets a new one. */
function keyOf(server: DefinedServer, projectDir: string): string {
  return JSON.stringify([server.name, server.entry, projectDir]);
}

export function createConnectionPool(): ConnectionPool {
  const connections = new Map<string, Promise<Connection>>();
  // Connecting is the pool's, not one hook's: a hook that gives up leaves the connection to the others; close() ends it.
  const closing = new AbortController();

  const connection = (server: DefinedServer, options: CallOptions): Promise<Connection> => {
    const key = keyOf(server, options.projectDir);
    let pending = connections.get(key);
    if (!pending) {
      pending = import('./connect.ts').then(({ connect }) =>
        connect(server, { projectDir: options.projectDir, env: options.env, signal: closing.signal }),
      );
      connections.set(key, pending);
      // A failed or ended connection is forgotten, so the next call connects again.
      pending.then(
        (open) =>
          open.closed.then(() => {
            if (connections.get(key) === pending) connections.delete(key);
          }),
        () => {
          if (connections.get(key) === pending) connections.delete(key);
        },
      );
    }
    return pending;
  };

  return {
    async call(server, tool, args, options) {
      const { entry } = server;
      if (entry.type !== 'stdio') {
        const url = URL.canParse(entry.url) ? new URL(entry.url) : undefined;
        if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
          return { kind: 'not-connected', why: `its URL must be an http or https URL: ${entry.url}` };
        if (!isUrlAllowed(url, options.urlPatterns))
          return { kind: 'not-connected', why: `${shownUrl(url)} does not match any pattern in allowedHttpHookUrls` };
      }
      // As in Claude Code, the hook's timeout is the request's; connecting has its own limit, MCP_TIMEOUT.
      let connected: Connection;
      try {
        connected = await raced(
          connection(server, options),
          AbortSignal.any([options.signal, AbortSignal.timeout(connectTimeoutMs(options.env))]),
        );
      } catch (error) {
        if (options.signal.aborted) return { kind: 'interrupted' };
        return {
          kind: 'not-connected',
          why:
            error instanceof TimeoutError
              ? `it did not connect within ${connectTimeoutMs(options.env) / 1000} s (MCP_TIMEOUT)`
              : (error as Error).message,
        };
      }
      const timer = new AbortController();
      const timeout = setTimeout(() => timer.abort(), timerMs(options.timeoutMs));
      try {
        const result = await connected.client.callTool(
          { name: tool, arguments: args },
          { signal: AbortSignal.any([options.signal, timer.signal]), timeout: timerMs(options.timeoutMs) },
        );
        return {
          kind: 'result',
          content: Array.isArray(result.content) ? result.content : [],
          isError: result.isError === true,
        };
      } catch (error) {
        const given: CallResult | undefined = options.signal.aborted
          ? { kind: 'interrupted' }
          : timer.signal.aborted
            ? { kind: 'timeout' }
            : undefined;
        if (given) connected.cancelled = true;
        return given ?? { kind: 'error', message: connected.failure() ?? (error as Error).message };
      } finally {
        clearTimeout(timeout);
      }
    },
    async close() {
      closing.abort();
      const open = [...connections.values()];
      connections.clear();
      await Promise.all(
        open.map((pending) =>
          pending.then(
            (connection) => connection.close(),
            () => undefined,
          ),
        ),
      );
    },
  };
}

/** Claude Code's limit on connecting to a server: MCP_TIMEOUT milliseconds, else 30 s. */
function connectTimeoutMs(env: Record<string, string | undefined>): number {
  const value = Number(env.MCP_TIMEOUT);
  return Number.isFinite(value) && value > 0 ? timerMs(value) : DEFAULT_CONNECT_TIMEOUT_MS;
}

class TimeoutError extends Error {}

/** `promise`, or a rejection as soon as `signal` aborts (a TimeoutError when it timed out). */
function raced<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  const rejection = () =>
    signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError'
      ? new TimeoutError('timed out')
      : new Error('aborted');
  if (signal.aborted) return Promise.reject(rejection());
  return new Promise((resolve, reject) => {
    const abort = () => reject(rejection());
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
