// `peri-hooks mcp`: the hook pipeline as an MCP server on stdin/stdout, for the agent to start itself. It runs
// until its stdin closes (the agent's session ends), then kills every hook still running and exits.
import { config } from 'zod';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { EXIT } from '../../errors.ts';
import { createMcpHookServer } from '../../mcp-server/server.ts';
import { holdYoungGeneration } from '../../serve/young-generation.ts';
import { closeStores } from '../../session/store.ts';
import { list, sourceOptions, stateOptions, auditOption, type SourceFlags, type StateFlags } from '../io.ts';
import { selfCommand } from './fire.ts';

export interface McpFlags extends SourceFlags, StateFlags {
  failClosed?: boolean;
  mcpConfig?: unknown;
}

export async function mcpCommand(flags: McpFlags): Promise<number> {
  // A resident server parses the same schemas per call: zod's compiled fast path pays off here (main.ts turns it off).
  config({ jitless: false });
  // A server for the whole session: its young generation held at its start size, as serve's (serve/young-generation.ts).
  holdYoungGeneration();
  const hooks = createMcpHookServer({
    fire: {
      ...sourceOptions(flags),
      ...(flags.mcpConfig !== undefined ? { mcpConfigs: list(flags.mcpConfig)! } : {}),
      ...(flags.failClosed ? { failClosed: true } : {}),
      ...stateOptions(flags),
      ...auditOption(flags.audit),
      selfCommand: selfCommand(),
    },
  });
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
  // Exit now: a stdio transport and a settings watcher would otherwise keep the process alive.
  process.exit(EXIT.ok);
}
