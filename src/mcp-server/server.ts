// `peri-hooks mcp`: the fire pipeline as an MCP server over stdio, which the agent starts once per session and
// reaches through mcp_tool hooks: no process per tool call. One tool, `fire`, whose arguments are the hook input's
// fields as the agent substitutes them; its answer is the hook JSON the agent honours. Settings load once and are
// revalidated per call (as `serve` does); every call is `fire` itself, and calls run concurrently.
import { Server } from '@modelcontextprotocol/server';
import { MCP_FIRE_TOOL } from '../config/registration.ts';
import { settingsCache } from '../config/settings-cache.ts';
import { PeriHooksError } from '../errors.ts';
import { canBlock, type EventName, isEventName } from '../events.ts';
import { type FireOptions, fire } from '../fire.ts';
import { fireHost } from '../hosts/fire.ts';
import type { HostName } from '../hosts/types.ts';
import { createConnectionPool } from '../mcp/pool.ts';
import { nowMs } from '../platform/clock.ts';
import { VERSION } from '../platform/version.ts';
import { failClosedBlock, httpAnswer } from '../serve/http-answer.ts';
import type { Metrics } from '../serve/metrics.ts';
import { inputFromArguments } from './arguments.ts';

/** The one tool: what install --via mcp's hooks call. */
export const FIRE_TOOL = MCP_FIRE_TOOL;

export interface McpServeOptions {
  /** What every firing shares: source options, fail-closed, state folder, env, selfCommand. */
  fire: Omit<FireOptions, 'signal' | 'load' | 'inputSource' | 'stopGuard' | 'onHookStart' | 'mcpPool'>;
  /** Counts the calls (`mcp --metrics`). */
  metrics?: Metrics;
  /**
   * `mcp --host codex`: the arguments are that agent's own payload (its mcp_tool `input` passes the fields with
   * their JSON types), fired as `fire --host` fires it; the answer is the stdout of its command form, which the
   * agent reads from the tool's text.
   */
  host?: HostName;
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

export interface HookMcpServer {
  server: Server;
  /** One call of the fire tool, as the server answers it (for tests and embedders). */
  call(args: Record<string, unknown> | undefined): Promise<ToolResult>;
  /** Kills every running hook (their firings answer) and closes what the server holds. */
  close(): Promise<void>;
}

const text = (value: string, isError = false): ToolResult => ({
  content: [{ type: 'text', text: value }],
  ...(isError ? { isError: true } : {}),
});

export function createMcpHookServer(options: McpServeOptions): HookMcpServer {
  const cache = settingsCache();
  const mcpPool = createConnectionPool();
  const stopping = new AbortController();
  const env = options.fire.env ?? { ...process.env };
  // What every call fires with: the settings cache, the MCP connections and the stop signal this server holds.
  const firing = { ...options.fire, env, load: cache.load, mcpPool, signal: stopping.signal };
  const endedUnlessStopped = () => {
    if (stopping.signal.aborted)
      throw new PeriHooksError('internal', 'the server stopped before the firing ended; its hooks were killed');
  };

  const call = async (args: Record<string, unknown> | undefined): Promise<ToolResult> => {
    // Known before the rest is read, so that --fail-closed can block on arguments it cannot read.
    const named = args?.hook_event_name;
    const event = typeof named === 'string' && isEventName(named) ? named : undefined;
    try {
      if (options.host) return await hosted(options.host, args ?? {});
      const parsed = inputFromArguments(args);
      const started = nowMs();
      const report = await fire(parsed.event, JSON.stringify(parsed.input), {
        ...firing,
        inputSource: "the fire tool's arguments",
        // The agent caps Stop loops itself, as for `fire --output claude`.
        stopGuard: false,
      });
      endedUnlessStopped();
      options.metrics?.fired(report, nowMs() - started);
      // The agent reads the tool's text as a command hook's stdout: the same JSON an http hook answers with.
      const answer = httpAnswer(report);
      if (answer.status === 500) return text(String(answer.body?.error ?? 'a hook failed'), true);
      return text(JSON.stringify(answer.body ?? {}));
    } catch (error) {
      return failure(event, error);
    }
  };

  const hosted = async (host: HostName, args: Record<string, unknown>) => {
    const named = args.hook_event_name;
    if (typeof named !== 'string')
      throw new PeriHooksError(
        'invalid-input',
        `the fire tool's arguments name no hook event ($.hook_event_name is ${JSON.stringify(named ?? null)})`,
        'pass "hook_event_name": "${hook_event_name}" in the mcp_tool hook\'s input (peri-hooks install --host codex --via mcp writes it)',
      );
    const started = nowMs();
    const fired = await fireHost({
      host,
      event: named,
      text: JSON.stringify(args),
      source: "the fire tool's arguments",
      options: firing,
    });
    endedUnlessStopped();
    for (const report of fired.reports) options.metrics?.fired(report, nowMs() - started);
    // The agent reads the text as a command's stdout on exit 0; every block of the host's form carries its JSON
    // there (an exit 2 without it would be lost, so it is an error).
    if (fired.exitCode !== 0 && fired.stdout === '')
      return text(`peri-hooks: ${fired.stderr.trim() || `exit ${fired.exitCode}`}`, true);
    return text(fired.stdout.replace(/\n$/, ''));
  };

  /** A call that could not fire: a tool error (a non-blocking error for the agent), or under --fail-closed a block. */
  const failure = (event: EventName | undefined, error: unknown): ToolResult => {
    const input = error instanceof PeriHooksError && error.code !== 'internal';
    options.metrics?.failed(event ?? 'unknown', input ? 'input' : 'internal');
    const message =
      error instanceof PeriHooksError
        ? `${error.message}${error.fix ? `; ${error.fix}` : ''}`
        : `internal error: ${error instanceof Error ? error.message : String(error)}`;
    if (options.fire.failClosed !== true || event === undefined || !canBlock(event))
      return text(`peri-hooks: ${message}`, true);
    return text(JSON.stringify(failClosedBlock(event, message)));
  };

  const server = new Server({ name: 'peri-hooks', version: VERSION }, { capabilities: { tools: {} } });
  // No tool is listed: Claude Code offers every listed tool to the model (as mcp__peri-hooks__fire), and a
  // guard's tool is not the model's to call. Claude Code calls an mcp_tool hook's tool without looking it up in
  // the list (spec §20.4 item 2), so `fire` answers all the same.
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  server.setRequestHandler('tools/call', async (request) => {
    if (request.params.name !== FIRE_TOOL)
      return text(`peri-hooks: no tool "${request.params.name}"; the one tool is "${FIRE_TOOL}"`, true);
    return call(request.params.arguments as Record<string, unknown> | undefined);
  });

  return {
    server,
    call,
    async close() {
      stopping.abort();
      await Promise.allSettled([mcpPool.close(), server.close()]);
    },
  };
}
