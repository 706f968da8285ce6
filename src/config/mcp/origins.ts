// Where each MCP server that hooks name comes from, for `explain` and `doctor`: its scope, file and entry,
// or why a hook would find it "not connected". Looks the configuration up; connects to nothing.

import { lookupServers } from './lookup.ts';
import type { LookupOptions } from './lookup-options.ts';
import { missingServer, type ServerScope } from './servers.ts';

export type ServerOrigin =
  | {
      server: string;
      scope: ServerScope;
      file: string;
      pointer: string;
      transport: 'stdio' | 'http' | 'sse';
      target: string;
    }
  | { server: string; missing: string; fix: string };

export async function serverOrigins(servers: readonly string[], options: LookupOptions): Promise<ServerOrigin[]> {
  if (servers.length === 0) return [];
  const catalogue = await lookupServers(options);
  return [...new Set(servers)].map((server): ServerOrigin => {
    const defined = catalogue.servers.get(server);
    if (!defined) {
      const { message, fix } = missingServer(catalogue, server);
      return { server, missing: message, fix };
    }
    const { entry, source } = defined;
    return {
      server,
      scope: source.scope,
      file: source.file,
      pointer: source.pointer,
      transport: entry.type,
      target: entry.type === 'stdio' ? [entry.command, ...(entry.args ?? [])].join(' ') : entry.url,
    };
  });
}

/** One line per server, for people. */
export function originLine(origin: ServerOrigin): string {
  if ('missing' in origin) return `MCP server ${origin.server}: ${origin.missing} (${origin.fix})`;
  return `MCP server ${origin.server}: ${origin.transport} ${origin.target}, ${origin.scope} scope, ${origin.file}#${origin.pointer}`;
}
