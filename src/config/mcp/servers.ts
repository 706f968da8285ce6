// MCP server entries as Claude Code's configuration files write them (spec harnesses §4.2): stdio when
// `type` is absent, Streamable HTTP (`http`) and legacy SSE (`sse`). Unknown keys are ignored, as Claude Code does.
import * as z from 'zod';

const headers = z.record(z.string(), z.string()).optional();

export const serverEntrySchema = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('stdio'),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
  }),
  z.looseObject({ type: z.literal('http'), url: z.string().min(1), headers, oauth: z.unknown().optional() }),
  z.looseObject({ type: z.literal('sse'), url: z.string().min(1), headers, oauth: z.unknown().optional() }),
]);

export type ServerEntry = z.infer<typeof serverEntrySchema>;

/** Where a server is defined, in Claude Code's scope names; `flag` is `--mcp-config`. */
export type ServerScope = 'managed' | 'local' | 'project' | 'user' | 'plugin' | 'flag';

export interface ServerSource {
  scope: ServerScope;
  /** Absolute path of the file, or `--mcp-config` for inline JSON. */
  file: string;
  /** JSON pointer of the entry inside that file. */
  pointer: string;
}

export interface DefinedServer {
  /** The name a hook's `server` gives; plugin servers are `plugin:<plugin>:<server>`. */
  name: string;
  /** After `${VAR}` expansion. */
  entry: ServerEntry;
  source: ServerSource;
}

/** A project `.mcp.json` server the user has not approved: never started. */
export interface UnapprovedServer {
  name: string;
  source: ServerSource;
  /** Why it is not approved: not listed, or listed in disabledMcpjsonServers. */
  disabled: boolean;
}

export interface ServerCatalogue {
  /** The server each name resolves to, in precedence order. */
  servers: Map<string, DefinedServer>;
  unapproved: Map<string, UnapprovedServer>;
  /** Set when managed-mcp.json exists: it alone defines the servers. */
  exclusive?: string;
  /** Files that could not be read as configuration, unset variables: warnings, with file and fix. */
  warnings: Array<{ message: string; file: string; pointer?: string; fix: string }>;
}

/** How a hook names a server that is not there: Claude Code's words, and what to do about it. */
export function missingServer(catalogue: ServerCatalogue, name: string): { message: string; fix: string } {
  const unapproved = catalogue.unapproved.get(name);
  const message = `MCP server '${name}' not connected`;
  if (unapproved) {
    return {
      message: `${message}: it is defined in ${unapproved.source.file} but ${unapproved.disabled ? 'listed in disabledMcpjsonServers' : 'not approved'}, so peri-hooks does not start it`,
      fix: `approve it as Claude Code does: add "${name}" to "enabledMcpjsonServers" (or set "enableAllProjectMcpServers": true) in .claude/settings.local.json or ~/.claude/settings.json${unapproved.disabled ? ', and remove it from "disabledMcpjsonServers"' : ''}`,
    };
  }
  const known = [...catalogue.servers.keys()];
  return {
    message,
    fix: `${known.length > 0 ? `the configured servers are ${known.join(', ')}` : 'no MCP server is configured'}${catalogue.exclusive ? ` (${catalogue.exclusive} alone defines them)` : ''}; define it in .mcp.json, ~/.claude.json or a --mcp-config file`,
  };
}
