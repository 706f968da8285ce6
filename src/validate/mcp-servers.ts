// The `mcp-server-unknown` rule: an mcp_tool hook must name a server that the MCP configuration defines (and,
// for a project .mcp.json server, that the user approved), else it fails at every firing. The lookup is the
// one fire makes of the same sources and --mcp-config values (mcp/lookup-options.ts).
import { missingServer } from '../config/mcp/servers.ts';
import type { LoadedHook } from '../types.ts';
import type { Finding, LintContext, Rule } from './rules.ts';

export const mcpServerRule: Rule<readonly LoadedHook[]> = {
  code: 'mcp-server-unknown',
  severity: 'error',
  summary: 'an mcp_tool hook naming a server that no MCP configuration defines (or an unapproved .mcp.json server)',
  check: async (hooks, ctx: LintContext): Promise<Finding[]> => {
    const mcpHooks = hooks.filter((hook) => hook.handler.type === 'mcp_tool');
    if (mcpHooks.length === 0) return [];
    const catalogue = await ctx.mcpServers();
    return mcpHooks.flatMap((hook) => {
      const server = hook.handler.type === 'mcp_tool' ? hook.handler.server : '';
      if (catalogue.servers.has(server)) return [];
      const { fix } = missingServer(catalogue, server);
      const unapproved = catalogue.unapproved.get(server);
      const message = unapproved
        ? `the MCP server "${server}" of ${unapproved.source.file} is ${unapproved.disabled ? 'disabled' : 'not approved'}, so it is never started: this hook fails at every firing`
        : `no MCP configuration defines the server "${server}": this hook fails at every firing as "MCP server '${server}' not connected"`;
      return [
        {
          file: hook.provenance.file,
          pointer: `${hook.provenance.pointer}/server`,
          message,
          fix: unapproved ? fix : `${fix} (fire --mcp-config adds servers at run time)`,
        },
      ];
    });
  },
};
