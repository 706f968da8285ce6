// `peri-hooks mcp`: the hook pipeline as an MCP server on stdin/stdout, for the agent to start itself. It runs
// until its stdin closes (the agent's session ends), then kills every hook still running and exits.
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { EXIT, PeriHooksError } from '../../errors.ts';
import { checkHost } from '../../hosts/detect.ts';
import { HOSTS } from '../../hosts/table.ts';
import type { HostName } from '../../hosts/types.ts';
import { createMcpHookServer } from '../../mcp-server/server.ts';
import { isLoopback } from '../../serve/auth.ts';
import { createMetrics, listenMetrics, type Metrics } from '../../serve/metrics.ts';
import { closeStores } from '../../session/store.ts';
import { type ResidentFlags, residentFiring } from '../resident.ts';
import { flushSpans } from './fire.ts';
import { parseListen } from './serve.ts';

/**
 * `--metrics <host:port>`: GET /metrics on a loopback address (stdout is the MCP channel, so the URL goes to
 * stderr). Loopback only: this listener has no token, and the counts say what the policy decides.
 */
async function metricsListener(value: string): Promise<Metrics> {
  const { host, port } = parseListen(value, '--metrics');
  if (!isLoopback(host))
    throw new PeriHooksError(
      'usage',
      `--metrics ${host} is reachable from other machines; the metrics listener has no token`,
      'listen on loopback, e.g. --metrics 127.0.0.1:9464, and let a local Prometheus agent scrape it',
    );
  const metrics = await createMetrics();
  try {
    const { url } = await listenMetrics(metrics, host, port);
    process.stderr.write(`peri-hooks mcp: metrics on ${url}\n`);
  } catch (error) {
    throw new PeriHooksError(
      'usage',
      `cannot listen on ${value} for --metrics: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      'pick a free port, or port 0 for any free one',
    );
  }
  return metrics;
}

export interface McpFlags extends ResidentFlags {
  metrics?: string;
  host?: string;
}

/** `--host`: an agent whose mcp_tool hooks pass its own payload and read the tool's text as a command's stdout. */
function mcpHost(name: string | undefined): HostName | undefined {
  if (name === undefined) return undefined;
  const host = checkHost(String(name));
  if (!HOSTS[host].install.mcpFields)
    throw new PeriHooksError(
      'usage',
      `peri-hooks mcp --host ${host}: ${HOSTS[host].title} has no mcp_tool hooks that reach this server`,
      `register ${HOSTS[host].title} with commands (peri-hooks install --host ${host}); --host takes ${Object.values(
        HOSTS,
      )
        .filter((def) => def.install.mcpFields)
        .map((def) => def.name)
        .join(', ')}`,
    );
  return host;
}

export async function mcpCommand(flags: McpFlags): Promise<number> {
  const host = mcpHost(flags.host);
  const metrics = flags.metrics === undefined ? undefined : await metricsListener(String(flags.metrics));
  const hooks = createMcpHookServer({
    fire: await residentFiring(flags),
    ...(metrics ? { metrics } : {}),
    ...(host ? { host } : {}),
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
  await flushSpans();
  // Exit now: a stdio transport and a settings watcher would otherwise keep the process alive.
  process.exit(EXIT.ok);
}
