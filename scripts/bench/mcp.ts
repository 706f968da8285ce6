// The bench's `mcp` rows: `peri-hooks mcp` driven by the official MCP client over stdio, one call at a time,
// alternating with a bare MCP server of the same SDK (scripts/bench/bare-mcp-server.ts): a no-op firing against a
// tool that answers `{}`, one `true` hook against a server that spawns `sh -c true`, and the server's RSS across
// 100,000 calls.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { settings, type World } from './fixtures.ts';
import type { Row } from './report.ts';

const BARE = fileURLToPath(new URL('bare-mcp-server.ts', import.meta.url));

interface Connected {
  pid: number;
  callMs(args: Record<string, unknown>): Promise<number>;
  close(): Promise<void>;
}

async function connect(argv: readonly string[], world: World): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: argv[0]!,
    args: argv.slice(1) as string[],
    env: world.env,
    cwd: world.project,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return {
    pid: transport.pid!,
    async callMs(args) {
      const started = performance.now();
      const result = (await client.callTool({ name: 'fire', arguments: args })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      if (result.isError)
        throw new Error(`bench: the fire tool failed: ${result.content.map((block) => block.text).join('\n')}`);
      return performance.now() - started;
    },
    close: () => client.close(),
  };
}

/** The fixture input as Claude Code's substitution sends it: every value text, objects as compact JSON. */
function substituted(input: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(JSON.parse(input) as Record<string, unknown>).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

const percentile = (values: readonly number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
const round = (value: number) => Math.round(value * 100) / 100;

function rssMB(pid: number): number {
  const kB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kB / 102.4) / 10;
}

/** `calls` turns, each one call to `a` then one to `b`; the milliseconds of each. */
async function alternate(
  a: Connected,
  b: Connected,
  args: Record<string, unknown>,
  calls: number,
): Promise<[number[], number[]]> {
  const [first, second]: [number[], number[]] = [[], []];
  for (let i = 0; i < calls; i++) {
    first.push(await a.callMs(args));
    second.push(await b.callMs(args));
  }
  return [first, second];
}

export async function mcpRows(
  bin: readonly string[],
  binName: string,
  node: string,
  world: World,
  quick: boolean,
): Promise<Row[]> {
  const args = substituted(world.input);
  const policy = (name: string, body: object) => world.write(`mcp-${name}.json`, body);
  const serve = (file: string) => connect([...bin, 'mcp', '--settings', file, '--setting-sources', ''], world);
  const rows: Row[] = [];
  const calls = quick ? 200 : 2000;

  // 10. A no-op firing (hooks that do not match), against the bare server's `{}`.
  const noOp = await serve(
    policy(
      'no-op',
      settings(3, () => 'exit 2'),
    ),
  );
  const bare = await connect([node, BARE], world);
  try {
    await alternate(noOp, bare, args, 100);
    const [served, floor] = await alternate(noOp, bare, args, calls);
    const [p50, floorP50] = [percentile(served, 50), percentile(floor, 50)];
    rows.push({
      scenario: '10',
      command: `${binName} mcp: no-op firing, one call at a time`,
      baseline: 'a bare MCP server of the same SDK answering `{}`',
      runs: calls,
      medianMs: round(p50),
      baselineMedianMs: round(floorP50),
      ratio: p50 / floorP50,
      target: 'p50 within 1 ms',
      met: p50 - floorP50 <= 1,
      note: `p99 ${round(percentile(served, 99))} vs ${round(percentile(floor, 99))} ms`,
    });

    // 12. RSS across 100,000 no-op calls, once the heap has grown to its working size: sampled every 5,000 calls,
    // it grows until about 50,000 (docs/performance.md).
    const [warmUp, many] = quick ? [1000, 10_000] : [60_000, 100_000];
    for (let i = 0; i < warmUp; i++) await noOp.callMs(args);
    const before = rssMB(noOp.pid);
    for (let i = 0; i < many; i++) await noOp.callMs(args);
    const after = rssMB(noOp.pid);
    rows.push({
      scenario: '12',
      command: `${binName} mcp: RSS across ${many.toLocaleString('en')} no-op calls`,
      baseline: `RSS after ${warmUp.toLocaleString('en')} calls`,
      runs: many,
      peakMemoryMB: after,
      target: 'growth < 10 MB',
      met: after - before < 10,
      note: `${before} → ${after} MB, +${Math.round((after - before) * 10) / 10} MB`,
    });
  } finally {
    await Promise.all([noOp.close(), bare.close()]);
  }

  // 11. One matching `true` hook, against the bare server spawning `sh -c true` with the three pipes.
  const oneHook = await serve(
    policy(
      'true',
      settings(1, () => 'true', true),
    ),
  );
  const spawning = await connect([node, BARE, 'spawn'], world);
  try {
    await alternate(oneHook, spawning, args, 50);
    const [served, floor] = await alternate(oneHook, spawning, args, quick ? 100 : 500);
    const [p50, floorP50] = [percentile(served, 50), percentile(floor, 50)];
    rows.push({
      scenario: '11',
      command: `${binName} mcp: one hook \`true\`, one call at a time`,
      baseline: 'a bare MCP server spawning `sh -c true`',
      runs: served.length,
      medianMs: round(p50),
      baselineMedianMs: round(floorP50),
      ratio: p50 / floorP50,
      target: '≤ 1.15x',
      met: p50 / floorP50 <= 1.15,
      note: `+${(p50 - floorP50).toFixed(2)} ms per firing`,
    });
  } finally {
    await Promise.all([oneHook.close(), spawning.close()]);
  }
  return rows.sort((a, b) => Number(a.scenario) - Number(b.scenario));
}
