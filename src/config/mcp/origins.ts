// Where each MCP server that hooks name comes from, for `explain` and `doctor`: its scope, file and entry,
// or why a hook would find it "not connected", from the servers the load found. Connects to nothing.

import { missingServer, type ServerCatalogue, type ServerScope } from './servers.ts';

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

export function serverOrigins(servers: readonly string[], catalogue: ServerCatalogue): ServerOrigin[] {
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
