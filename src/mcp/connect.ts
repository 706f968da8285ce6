// One client connection to one MCP server: stdio (a process group of its own), Streamable HTTP or legacy
// SSE, the HTTP ones through the SSRF guard's pinned agent (net/), as http hooks are. No OAuth: a server
// that asks for it is "not connected" and no browser opens (spec harnesses §4.2).
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import type { Agent } from 'undici';
import type { DefinedServer } from '../config/mcp/servers.ts';
import { VERSION } from '../platform/version.ts';
import { printable } from '../text.ts';
import { GroupStdioTransport } from './stdio-transport.ts';

export interface ConnectOptions {
  projectDir: string;
  /** The user's environment, which stdio servers get with CLAUDE_PROJECT_DIR. */
  env: Record<string, string | undefined>;
  signal: AbortSignal;
}

/** How long close() waits for the server to acknowledge a cancellation (a ping answered after it). */
const CANCEL_FLUSH_MS = 1000;

export interface Connection {
  client: Client;
  /** Set when a request was given up: close() first lets the server read its notifications/cancelled. */
  cancelled: boolean;
  /** Why the transport gave up on the server (an answer over its size limit), when it did. */
  failure: () => string | undefined;
  /** Resolves when the connection ends, by close() or because the server went away. */
  closed: Promise<void>;
  close: () => Promise<void>;
}

/** Why the server could not be reached, in a line. */
export class NotConnectedError extends Error {}

export async function connect(server: DefinedServer, options: ConnectOptions): Promise<Connection> {
  const { transport, release } = await openTransport(server, options);
  const client = new Client({ name: 'peri-hooks', version: VERSION });
  let markClosed = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  client.onclose = () => markClosed();
  const close = async () => {
    // The server handles messages in order: once it answers a ping, it has read the cancellation before it.
    if (connection.cancelled) await client.ping({ timeout: CANCEL_FLUSH_MS }).catch(() => undefined);
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    await release();
    markClosed();
  };
  const failure = () => (transport instanceof GroupStdioTransport ? transport.failure : undefined);
  const connection: Connection = { client, cancelled: false, failure, closed, close };
  try {
    await client.connect(transport, { signal: options.signal });
  } catch (error) {
    await close();
    throw new NotConnectedError(whyNotConnected(server, transport, error));
  }
  return connection;
}

async function openTransport(
  server: DefinedServer,
  options: ConnectOptions,
): Promise<{ transport: Transport; release: () => Promise<void> }> {
  const { entry } = server;
  if (entry.type === 'stdio') {
    const env = { ...options.env, ...entry.env, CLAUDE_PROJECT_DIR: options.projectDir };
    return {
      transport: new GroupStdioTransport({
        command: entry.command,
        args: entry.args ?? [],
        env,
        cwd: options.projectDir,
      }),
      release: async () => {},
    };
  }
  if (entry.oauth !== undefined)
    throw new NotConnectedError('it needs OAuth sign-in, which peri-hooks does not do (no token is stored for it)');
  const url = new URL(entry.url);
  const [undici, pinned] = await Promise.all([import('undici'), import('../net/pinned-dispatcher.ts')]);
  const agent: Agent = pinned.createPinnedAgent(undici);
  // The SDK calls fetch with WHATWG types; undici's fetch is the same implementation, pinned to checked addresses.
  const fetch = ((input: string | URL, init?: RequestInit) =>
    undici.fetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof globalThis.fetch;
  const requestInit = { headers: entry.headers ?? {} };
  const transport =
    entry.type === 'http'
      ? new StreamableHTTPClientTransport(url, { fetch, requestInit, redirectPolicy: 'same-origin' })
      : new SSEClientTransport(url, { fetch, requestInit });
  return { transport, release: () => agent.destroy().catch(() => undefined) };
}

function whyNotConnected(server: DefinedServer, transport: Transport, error: unknown): string {
  const chain: string[] = [];
  let status: unknown;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause.message && !chain.includes(cause.message)) chain.push(cause.message);
    // The SDK's HTTP errors carry the response's status in `data`.
    status ??= (cause as { data?: { status?: unknown } }).data?.status;
  }
  const text = chain.join(': ') || String(error);
  if (status === 401 || /\b401\b|unauthori[sz]ed/i.test(text))
    return 'it needs OAuth sign-in, which peri-hooks does not do (no token is stored for it)';
  const stderr =
    transport instanceof GroupStdioTransport
      ? printable(transport.stderr.text().trim().split('\n').slice(-3).join(' | '))
      : '';
  const target = server.entry.type === 'stdio' ? server.entry.command : server.entry.url;
  return `${text} (${target})${stderr ? `; its stderr: ${stderr}` : ''}`;
}
