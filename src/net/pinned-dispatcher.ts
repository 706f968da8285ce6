// An undici Agent that connects only to addresses the SSRF guard has checked (spec §11.4).
// Names: the socket's own `lookup` resolves, checks every answer and hands Node only those answers, so
// the address connected to is one that was checked (no second DNS query that a rebinding could change).
// Literal IPs: Node skips `lookup` for them, so the connector checks them before opening the socket.

import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { Agent, buildConnector } from 'undici';
import { assertAddressAllowed, assertHostAllowed, normalizeHost } from './ssrf.ts';

/** Resolves a host name to all its addresses (the seam tests use instead of DNS). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

/** Resolves `host` and returns its answers only if every one of them is allowed. */
export async function resolveChecked(host: string, resolve: Resolver): Promise<LookupAddress[]> {
  assertHostAllowed(host);
  const bare = normalizeHost(host);
  if (isIP(bare) !== 0) return [{ address: bare, family: isIP(bare) }];
  const answers = await resolve(host);
  for (const { address } of answers) assertAddressAllowed(host, address);
  // The family comes from the address itself, not from what the resolver claimed.
  return answers.map(({ address }) => ({ address, family: isIP(address) }));
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
}

/** A `net.connect` lookup that answers only with checked addresses. */
export function createPinnedLookup(resolve: Resolver): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolveChecked(hostname, resolve).then(
      (answers) => {
        const wanted =
          options.family === 4 || options.family === 6 ? answers.filter((a) => a.family === options.family) : answers;
        const first = wanted[0];
        if (!first) callback(notFound(hostname), []);
        else if (options.all) callback(null, wanted);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, []),
    );
  };
}

type Undici = typeof import('undici');
type Connector = buildConnector.connector;

/** Refuses literal IP hosts (and metadata names) before the wrapped connector opens a socket. */
function guardConnector(connect: Connector): Connector {
  return (options, callback) => {
    try {
      assertHostAllowed(options.hostname);
    } catch (error) {
      callback(error as Error, null);
      return;
    }
    connect(options, callback);
  };
}

/** What the pinned agent hands the connector that opens sockets. */
export interface SocketOptions {
  lookup: LookupFunction;
  autoSelectFamily: boolean;
}

export interface PinnedAgentOptions {
  resolve?: Resolver;
  /** Test seam: builds the connector that opens sockets (default: undici's). */
  buildConnector?: (options: SocketOptions) => Connector;
}

export function createPinnedAgent(undici: Undici, options: PinnedAgentOptions = {}): Agent {
  const build: (socketOptions: SocketOptions) => Connector = options.buildConnector ?? undici.buildConnector;
  const connect = build({ lookup: createPinnedLookup(options.resolve ?? systemResolver), autoSelectFamily: true });
  // Timeouts are the caller's (one abort signal for the whole hook), not undici's 300 s defaults.
  return new undici.Agent({ connect: guardConnector(connect), headersTimeout: 0, bodyTimeout: 0 });
}
