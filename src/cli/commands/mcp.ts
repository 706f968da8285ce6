// `peri-hooks mcp`: the hook pipeline as an MCP server on stdin/stdout, for the agent to start itself. It runs
// until its stdin closes (the agent's session ends), then kills every hook still running and exits.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { EXIT } from '../../errors.ts';
import { createMcpHookServer } from '../../mcp-server/server.ts';
import { closeStores } from '../../session/store.ts';
import { type ResidentFlags, residentFiring } from '../resident.ts';
import { flushSpans } from './fire.ts';

export type McpFlags = ResidentFlags;

export async function mcpCommand(flags: McpFlags): Promise<number> {
  const hooks = createMcpHookServer({ fire: residentFiring(flags) });
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, resolve);
  });
  await hooks.server.connect(transport);
  await ended;
  await hooks.close();
  await closeStores();
  await flushSpans();
  // Exit now: a stdio transport and a settings watcher would otherwise keep the process alive.
  process.exit(EXIT.ok);
}
