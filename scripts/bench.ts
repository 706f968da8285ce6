// `npm run bench`: the start-up and throughput scenarios of docs/performance.md, each command alternating
// with its baseline in this one process; medians, ratios, peak memory. Writes bench/results.json, prints
// the table and copies it into docs/performance.md. `--quick` cuts the runs for a smoke check of the bench;
// `npm run bench -- serve` runs only the server's rows (7–9), `npm run bench -- mcp` only the MCP server's (10–12),
// `npm run bench -- otel` only OpenTelemetry's (13–14), `npm run bench -- test` only scenario 5 (`peri-hooks test`
// and its floor), the table's other rows kept as they were.
// Not part of `npm test`: timings depend on the machine.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { portableCommand, shellCommand } from '../src/config/registration.ts';
import { largeTree, makeWorld, relayEntry, settings, testCases } from './bench/fixtures.ts';
import { mcpRows } from './bench/mcp.ts';
import { type Command, compare, peakMemoryMB } from './bench/measure.ts';
import { otelRows } from './bench/otel.ts';
import { BENCH_DOC, BENCH_MARKERS, machine, type Row, table, updateDoc } from './bench/report.ts';
import { serveRows } from './bench/serve.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE = process.execPath;
const DENO = join(ROOT, 'node_modules/.bin/deno');
const SEA = join(ROOT, 'dist/peri-hooks');
const BUNDLE = join(ROOT, 'dist/peri-hooks.cjs');
const quick = process.argv.includes('--quick');
/** Issue 16's target for scenario 5. */
const TEST_TARGET = 'no slower than the bash loop (≤ 1.0x)';
const runs = (full: number) => (quick ? Math.max(3, Math.ceil(full / 5)) : full);

if (!existsSync(BUNDLE)) {
  console.error('bench: dist/peri-hooks.cjs is missing; run npm run build (and npm run build:sea for the SEA rows)');
  process.exit(1);
}

const world = makeWorld(ROOT);
// The SEA is measured as a copy, as users install it: the file postject just wrote sits in page-cache chunks
// that add about 20 MB of file-backed memory to every run of that very file.
const seaCopy = join(world.base, 'peri-hooks');
if (existsSync(SEA)) copyFileSync(SEA, seaCopy);
const clis: Array<[name: string, argv: string[], env?: Record<string, string>]> = [
  ...(existsSync(SEA) ? [['SEA', [seaCopy]] as [string, string[]]] : []),
  ['bundle', [NODE, BUNDLE]],
  ['sources (node)', [NODE, join(ROOT, 'src/cli/bin.ts')]],
  ...(existsSync(DENO)
    ? [
        [
          'sources (deno run)',
          [DENO, 'run', '--no-prompt', '--allow-read', '--allow-env', '--allow-run', join(ROOT, 'src/cli/bin.ts')],
        ] as [string, string[]],
      ]
    : []),
];
// Scenarios 3–5 use the fastest artefact there is: the SEA, else the bundle.
const main = clis[0]!;
const fire = (cli: (typeof clis)[number], extra: string[] = [], cwd = world.project): Command => ({
  label: `${cli[0]} fire`,
  argv: [...cli[1], 'fire', 'PreToolUse', ...extra],
  stdin: world.input,
  env: { ...world.env, ...cli[2] },
  cwd,
});
const script = (label: string, argv: string[]): Command => ({ label, argv, env: world.env, cwd: world.project });
const nodeE0 = script('node -e 0', [NODE, '-e', '0']);

const rows: Row[] = [];

if (process.argv.slice(2).includes('mcp')) {
  console.error('10–12. mcp');
  try {
    rows.push(...(await mcpRows(main[1], main[0], NODE, world, quick)));
  } finally {
    rmSync(world.base, { recursive: true, force: true });
  }
  publish('mcp', rows);
  process.exit(0);
}

if (process.argv.slice(2).includes('otel')) {
  console.error('13–14. OpenTelemetry');
  try {
    world.write(
      'project/.claude/settings.json',
      settings(3, () => 'exit 2'),
    );
    rows.push(...(await otelRows(fire(main), main[0], NODE, quick)));
  } finally {
    rmSync(world.base, { recursive: true, force: true });
  }
  publish('otel', rows);
  process.exit(0);
}

if (process.argv.slice(2).includes('serve')) {
  console.error('7–9. serve');
  try {
    rows.push(...(await serveRows(main[1], main[0], [NODE, BUNDLE], world, quick)));
  } finally {
    rmSync(world.base, { recursive: true, force: true });
  }
  publish('serve', rows);
  process.exit(0);
}

if (process.argv.slice(2).includes('test')) {
  console.error('5. peri-hooks test');
  try {
    testSuiteRow();
  } finally {
    rmSync(world.base, { recursive: true, force: true });
  }
  const previous = JSON.parse(readFileSync(join(ROOT, 'bench/results.json'), 'utf8')) as {
    machine: { date: string; load: string };
    rows: Row[];
  };
  const kept = previous.rows.filter((row) => row.scenario !== '5');
  const at = previous.rows.findIndex((row) => row.scenario === '5');
  kept.splice(at < 0 ? kept.length : at, 0, ...rows);
  publish(
    'startup',
    kept,
    `row 5 only; the others from ${previous.machine.date}, load average ${previous.machine.load}`,
  );
  process.exit(0);
}

function record(row: Omit<Row, 'peakMemoryMB'>, command: Command): void {
  const memory = peakMemoryMB(command);
  rows.push({ ...row, ...(memory === undefined ? {} : { peakMemoryMB: memory }) });
  const last = rows.at(-1)!;
  console.error(
    `  ${last.scenario} ${last.command}: ${last.medianMs?.toFixed(1) ?? '–'} ms vs ${last.baselineMedianMs?.toFixed(1) ?? '–'} ms, ${last.ratio?.toFixed(2) ?? '–'}x, ${last.peakMemoryMB ?? '–'} MB`,
  );
}

try {
  // 1. No-op firing: settings whose hooks do not match.
  console.error('1. no-op firing');
  world.write(
    'project/.claude/settings.json',
    settings(3, () => 'exit 2'),
  );
  for (const cli of clis) {
    const command = fire(cli);
    const result = compare(command, nodeE0, runs(cli[0].startsWith('sources') ? 15 : 40));
    record(
      {
        scenario: '1',
        command: `${cli[0]}: no-op fire`,
        baseline: '`node -e 0`',
        ...result,
        ...(cli[0] === 'SEA' ? { target: '≤ 1.4x', met: result.ratio <= 1.4 } : {}),
      },
      command,
    );
  }

  // 2. One matching command hook `true`, against spawning `sh -c true` from a Node script.
  console.error('2. one command hook');
  const spawnTrue = script('node spawning sh -c true', [
    NODE,
    '-e',
    "require('node:child_process').spawnSync('sh', ['-c', 'true'])",
  ]);
  const oneTrue = JSON.stringify(settings(1, () => 'true', true));
  for (const cli of clis.filter(([name]) => name === 'SEA' || name === 'bundle')) {
    const command = fire(cli, ['--setting-sources', '', '--settings', oneTrue]);
    const result = compare(command, spawnTrue, runs(30));
    record(
      {
        scenario: '2',
        command: `${cli[0]}: one hook \`true\``,
        baseline: 'node spawning `sh -c true`',
        ...result,
        note: `+${(result.medianMs - result.baselineMedianMs).toFixed(1)} ms per firing`,
        ...(cli[0] === 'SEA' ? { target: '≤ 1.5x', met: result.ratio <= 1.5 } : {}),
      },
      command,
    );
  }

  // 2p. The project registration's sh prologue (find the project, then peri-hooks in it), as Claude Code runs
  // the command with sh, against the absolute registration of the same bundle.
  console.error('2p. registration prologue');
  mkdirSync(join(world.project, 'node_modules/.bin'), { recursive: true });
  symlinkSync(BUNDLE, join(world.project, 'node_modules/.bin/peri-hooks'));
  const words = ['fire', 'PreToolUse', '--output', 'claude', '--setting-sources', 'none'];
  const viaSh = (label: string, line: string): Command => ({
    label,
    argv: ['sh', '-c', line],
    stdin: world.input,
    env: { ...world.env, CLAUDE_PROJECT_DIR: world.project },
    cwd: world.project,
  });
  const prologue = viaSh(
    'portable registration',
    portableCommand({ variable: 'CLAUDE_PROJECT_DIR' }, words, { message: 'missing', exitCode: 2 }),
  );
  const absolute = viaSh(
    'absolute registration',
    shellCommand([NODE, join(world.project, 'node_modules/.bin/peri-hooks'), ...words]),
  );
  const portableCost = compare(prologue, absolute, runs(40));
  record(
    {
      scenario: '2p',
      command: 'bundle: the project registration (sh prologue, then node_modules/.bin)',
      baseline: 'the absolute registration',
      ...portableCost,
      note: `+${(portableCost.medianMs - portableCost.baselineMedianMs).toFixed(1)} ms per firing`,
    },
    prologue,
  );

  // 3. Fan-out: 20 matching hooks that each sleep 200 ms, against one. Distinct commands: identical ones run once.
  console.error('3. fan-out');
  const sleeper = (index: number) => `cat >/dev/null; sleep 0.2; : ${index}`;
  const twenty = fire(main, ['--setting-sources', '', '--settings', JSON.stringify(settings(20, sleeper, true))]);
  const one = fire(main, ['--setting-sources', '', '--settings', JSON.stringify(settings(1, sleeper, true))]);
  const fanOut = compare(twenty, one, runs(10), 1);
  record(
    {
      scenario: '3',
      command: `${main[0]}: 20 hooks sleeping 200 ms`,
      baseline: 'the same with 1 hook',
      ...fanOut,
      target: '≤ 1.3x',
      met: fanOut.ratio <= 1.3,
    },
    twenty,
  );

  // 4. A large settings tree: 1,000 matcher groups across 5 sources and 10 plugins, none matching.
  console.error('4. large settings tree');
  const largeWorld = makeWorld(ROOT);
  const largeArgs = largeTree(largeWorld);
  const large: Command = {
    label: 'large tree',
    argv: [...main[1], 'fire', 'PreToolUse', ...largeArgs],
    stdin: largeWorld.input,
    env: largeWorld.env,
    cwd: largeWorld.project,
  };
  const tree = compare(large, fire(main), runs(30));
  record(
    {
      scenario: '4',
      command: `${main[0]}: 1,000 groups, 5 sources, 10 plugins`,
      baseline: 'no-op fire (3 groups)',
      ...tree,
      note: `load + plan +${(tree.medianMs - tree.baselineMedianMs).toFixed(1)} ms`,
    },
    large,
  );
  rmSync(largeWorld.base, { recursive: true, force: true });

  // 5. `peri-hooks test` over 500 cases, against a bash loop running the same hook script 500 times.
  console.error('5. peri-hooks test');
  testSuiteRow();

  // 6. Peak memory: the column of every row above; the target is about a firing.
  const firings = rows.filter(
    (row) =>
      ['1', '2', '3', '4'].includes(row.scenario) &&
      row.peakMemoryMB !== undefined &&
      !row.command.startsWith('sources'),
  );
  const worst = Math.max(...firings.map((row) => row.peakMemoryMB!));
  rows.push({
    scenario: '6',
    command: 'peak memory of a firing (SEA, bundle; rows 1–4)',
    baseline: '',
    runs: 3,
    peakMemoryMB: worst,
    target: '< 80 MB',
    met: worst < 80,
  });

  // 7–9. The resident server (scripts/bench/serve.ts), in docs/performance.md's serve section.
  console.error('7–9. serve');
  const served = await serveRows(main[1], main[0], [NODE, BUNDLE], world, quick);
  publish('serve', served);
  console.error('10–12. mcp');
  const viaMcp = await mcpRows(main[1], main[0], NODE, world, quick);
  publish('mcp', viaMcp);
  console.error('13–14. OpenTelemetry');
  world.write(
    'project/.claude/settings.json',
    settings(3, () => 'exit 2'),
  );
  publish('otel', await otelRows(fire(main), main[0], NODE, quick));
} finally {
  rmSync(world.base, { recursive: true, force: true });
}

/**
 * Scenario 5: `peri-hooks test` over 500 cases against one hook script, as a ratio to a bash loop that runs
 * the script 500 times; the target is no slower (≤ 1.0x). Both write nowhere (the bench discards stdout).
 */
function testSuiteRow(): void {
  const help = spawnSync(main[1][0]!, [...main[1].slice(1), 'test', '--help'], { encoding: 'utf8', env: world.env });
  if (help.status !== 0 || !/\$ peri-hooks test\b/.test(help.stdout)) {
    rows.push({
      scenario: '5',
      command: '`peri-hooks test`, 500 cases',
      baseline: 'bash loop',
      runs: 0,
      target: TEST_TARGET,
      note: 'not available: `peri-hooks test --help` fails',
    });
    return;
  }
  const processes = availableParallelism();
  const { caseFile, bashLoop, nodeSpawners, script: hook, inputFile } = testCases(world, 500, NODE, processes);
  const testRun = script(`${main[0]} test`, [...main[1], 'test', caseFile]);
  const loop = script('bash loop', ['bash', '-c', bashLoop]);
  const result = compare(testRun, loop, runs(5), 1);
  record(
    {
      scenario: '5',
      command: `${main[0]}: \`peri-hooks test\`, 500 cases`,
      baseline: 'bash loop, 500 runs of the hook',
      ...result,
      target: TEST_TARGET,
      met: result.ratio <= 1,
      note: `${(result.medianMs / 500).toFixed(1)} ms per case`,
    },
    testRun,
  );
  // The floor under any design that starts hooks from Node, as many processes as `test` runs lanes.
  const spawners = script('node spawners', ['bash', '-c', nodeSpawners]);
  const floor = compare(spawners, loop, runs(5), 1);
  record(
    {
      scenario: '5',
      command: `floor: ${processes} bare Node processes starting the 500 runs of the hook`,
      baseline: 'bash loop, 500 runs of the hook',
      ...floor,
    },
    spawners,
  );
  // Issue 34's target: `test` against that floor directly, in alternating runs.
  const overFloor = compare(testRun, spawners, runs(5), 1);
  record(
    {
      scenario: '5',
      command: `${main[0]}: \`peri-hooks test\`, 500 cases, against the floor`,
      baseline: `the floor: ${processes} bare Node processes`,
      ...overFloor,
      target: '≤ 1.25x',
      met: overFloor.ratio <= 1.25,
    },
    testRun,
  );
  // The floor of `test`'s own design: a process that only hands the 500 runs to the spawner helpers, as many and
  // as many at once as `test` uses, and does nothing of a case's own.
  const relay = script('relay through the helpers', [
    NODE,
    relayEntry(world),
    'suite',
    hook,
    inputFile,
    '500',
    String(processes),
    String(processes * 4),
  ]);
  const relayOverFloor = compare(relay, spawners, runs(5), 1);
  record(
    {
      scenario: '5',
      command: `floor of the design: the 500 runs handed to ${processes} spawner helpers, nothing else`,
      baseline: `the floor: ${processes} bare Node processes`,
      ...relayOverFloor,
    },
    relay,
  );
}

publish('startup', rows);

/**
 * What a tool call costs through each registration, from rows 1–2 (a command: a process per firing), 7–8 (http
 * hooks to `serve`) and 10–11 (mcp_tool hooks to `peri-hooks mcp`), side by side: read from the last published
 * results of each part, so that a run of one part (`npm run bench -- mcp`) updates its column too.
 */
function publishRegistrations(): void {
  const all = ['results.json', 'serve-results.json', 'mcp-results.json'].flatMap((file) => {
    const path = join(ROOT, 'bench', file);
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { rows: Row[] }).rows : [];
  });
  const find = (scenario: string, start = '') =>
    all.find((row) => row.scenario === scenario && row.command.startsWith(start))?.medianMs;
  const ms = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(1));
  const lines = [
    '| registration | per firing | no-op firing, p50 ms | one `true` hook, p50 ms |',
    '|---|---|---:|---:|',
    `| command (\`install\`), ${main[0]} | a process start (rows 1, 2) | ${ms(find('1', main[0]))} | ${ms(find('2', main[0]))} |`,
    `| http to \`serve\` (\`install --serve\`) | an HTTP request to the running server (rows 7, 8) | ${ms(find('7'))} | ${ms(find('8'))} |`,
    `| mcp (\`install --via mcp\`) | a \`tools/call\` to the server Claude Code started (rows 10, 11) | ${ms(find('10'))} | ${ms(find('11'))} |`,
  ];
  const text = lines.join('\n');
  console.log(text);
  if (updateDoc(join(ROOT, BENCH_DOC), text, 'bench-registrations'))
    console.error(`bench: updated the registrations table in ${BENCH_DOC}`);
}

/**
 * Prints the rows and, unless --quick, writes them to bench/<name>-results.json and into docs/performance.md's
 * table of that name: the start-up table, or the serve, mcp or OpenTelemetry section's; then the registrations table.
 */
function publish(name: 'startup' | 'serve' | 'mcp' | 'otel', published: readonly Row[], note?: string): void {
  const results = { machine: machine(DENO), quick, rows: published };
  const { cpu, cores, memoryGiB, os, node, deno, load, date } = results.machine;
  const text = `Machine: ${cpu}, ${cores} cores, ${memoryGiB} GiB, ${os}; Node ${node}, Deno ${deno}; load average ${load}; ${date}${quick ? ' (--quick)' : ''}${note ? ` (${note})` : ''}.\n\n${table(published)}`;
  console.log(text);
  if (quick) return;
  mkdirSync(join(ROOT, 'bench'), { recursive: true });
  writeFileSync(
    join(ROOT, `bench/${name === 'startup' ? '' : `${name}-`}results.json`),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  const doc = BENCH_DOC;
  if (updateDoc(join(ROOT, doc), text, BENCH_MARKERS[name]))
    console.error(`bench: updated the ${name} table in ${doc}`);
  if (name !== 'otel') publishRegistrations();
}
