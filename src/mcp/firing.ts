// The MCP side of one firing: the servers the load stage found are looked up once, on the first mcp_tool hook
// that runs, and the hooks share the connections; at the end of the firing its own connections close (stdio
// servers die). A pool given from outside (`serve`) stays open across firings.
import type { ServerCatalogue } from '../config/mcp/servers.ts';
import type { McpContext } from '../types.ts';
import { type ConnectionPool, createConnectionPool } from './pool.ts';

export interface McpSetup {
  /** The load's `mcpServers`. */
  servers: () => Promise<ServerCatalogue>;
  /** A pool that outlives the firing; without it the firing opens and closes its own. */
  pool?: ConnectionPool;
}

export function mcpForFiring(setup: McpSetup): { context: McpContext; close: () => Promise<void> } {
  let catalogue: Promise<ServerCatalogue> | undefined;
  const pool = setup.pool ?? createConnectionPool();
  return {
    context: { servers: () => (catalogue ??= setup.servers()), pool },
    close: setup.pool ? async () => {} : () => pool.close(),
  };
}
