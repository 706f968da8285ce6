// The shape of src/ as a test: each file belongs to a layer, and an import may only run to its own layer or one
// below (the ground floor, platform/, imports nothing of src/). A cycle is allowed only where a type alone ties
// two files: the imports that run code (static or dynamic) form no circle.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const SRC = path.join(import.meta.dirname, '..', 'src');

/**
 * The layers, lowest first. A file is in the layer of the longest prefix that names it (a folder ends in `/`);
 * every file of src/ must be named.
 */
const LAYERS: ReadonlyArray<readonly [layer: string, prefixes: readonly string[]]> = [
  ['platform', ['platform/']],
  [
    'catalogue',
    [
      'events.ts',
      'errors.ts',
      'types.ts',
      'text.ts',
      'hook-label.ts',
      'generated/',
      'config/schema.ts',
      'config/mcp/servers.ts',
      'hosts/types.ts',
    ],
  ],
  ['protocol', ['match/', 'input/', 'output/', 'outcome.ts', 'net/']],
  ['load', ['config/']],
  ['semantics', ['plan.ts', 'reduce.ts']],
  ['session', ['session/']],
  ['trust', ['trust/']],
  ['runners', ['runners/', 'llm/', 'mcp/']],
  ['run', ['run/']],
  ['report', ['report/', 'audit/', 'redact.ts']],
  ['orchestrator', ['fire.ts', 'explain.ts']],
  ['fronts', ['hosts/', 'serve/', 'cases/', 'validate/']],
  ['tools', ['replay/', 'install/', 'mcp-server/', 'doctor/']],
  ['entry', ['cli/', 'index.ts']],
];

interface Edge {
  from: string;
  to: string;
  /** `import type`, or every name imported as a type: no code runs. */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const STATIC = /^(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'(\.[^']+)'/gms;
const DYNAMIC = /(?<!typeof\s*)import\(\s*'(\.[^']+)'\s*\)/g;

/** The relative imports of one file (`file` relative to src/), as paths relative to src/. */
function importsOf(file: string, text: string): Edge[] {
  const target = (specifier: string) => path.posix.join(path.posix.dirname(file), specifier);
  const edges: Edge[] = [];
  for (const [, typeKeyword, clause, specifier] of text.matchAll(STATIC)) {
    const names = /^\{([^}]*)\}$/s
      .exec(clause!.trim())?.[1]
      ?.split(',')
      .map((name) => name.trim());
    const allTypes = names?.every((name) => name === '' || name.startsWith('type ')) === true;
    edges.push({ from: file, to: target(specifier!), typeOnly: typeKeyword !== undefined || allTypes });
  }
  for (const [, specifier] of text.matchAll(DYNAMIC))
    edges.push({ from: file, to: target(specifier!), typeOnly: false });
  return edges;
}

function importGraph(): { files: string[]; edges: Edge[] } {
  const files = sourceFiles(SRC).map((file) => path.relative(SRC, file).split(path.sep).join('/'));
  return { files, edges: files.flatMap((file) => importsOf(file, readFileSync(path.join(SRC, file), 'utf8'))) };
}

function layerOf(file: string): number | undefined {
  let best: { index: number; length: number } | undefined;
  LAYERS.forEach(([, prefixes], index) => {
    for (const prefix of prefixes) {
      const named = prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix;
      if (named && (!best || prefix.length > best.length)) best = { index, length: prefix.length };
    }
  });
  return best?.index;
}

/** Upward imports: from a file to one in a higher layer (the type-only ones too: a type is a dependency). */
function upwardImports(edges: readonly Edge[]): string[] {
  return edges.flatMap(({ from, to }) => {
    const [low, high] = [layerOf(from)!, layerOf(to)!];
    return high > low ? [`${from} (${LAYERS[low]![0]}) imports ${to} (${LAYERS[high]![0]})`] : [];
  });
}

/** Circles of imports that run code: each as the files around it. */
function runtimeCycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to, typeOnly } of edges) if (!typeOnly) next.set(from, [...(next.get(from) ?? []), to]);
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (state.get(to) === 'open') cycles.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...next.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

const graph = importGraph();

test('every file of src/ is in a declared layer, and every import names a file that exists', () => {
  assert.deepEqual(
    graph.files.filter((file) => layerOf(file) === undefined),
    [],
    'add the file (or its folder) to LAYERS',
  );
  const files = new Set(graph.files);
  assert.deepEqual(
    graph.edges.filter(({ to }) => !files.has(to)).map(({ from, to }) => `${from} -> ${to}`),
    [],
  );
  assert.ok(graph.edges.length > 500, `the parser found only ${graph.edges.length} imports`);
});

test('no import runs up a layer', () => {
  assert.deepEqual(upwardImports(graph.edges), []);
});

test('no circle of imports that run code: only a type may tie two files both ways', () => {
  assert.deepEqual(
    runtimeCycles(graph.edges).map((cycle) => cycle.join(' -> ')),
    [],
  );
});

test('the checks catch what they are for: an upward import, a runtime circle, a type-only circle', () => {
  const edge = (from: string, to: string, typeOnly = false): Edge => ({ from, to, typeOnly });
  assert.deepEqual(upwardImports([edge('platform/clock.ts', 'events.ts', true), edge('run/execute.ts', 'plan.ts')]), [
    'platform/clock.ts (platform) imports events.ts (catalogue)',
  ]);
  assert.deepEqual(runtimeCycles([edge('plan.ts', 'reduce.ts'), edge('reduce.ts', 'plan.ts')]), [
    ['plan.ts', 'reduce.ts', 'plan.ts'],
  ]);
  assert.deepEqual(runtimeCycles([edge('plan.ts', 'reduce.ts'), edge('reduce.ts', 'plan.ts', true)]), []);
  const edges = [
    ...importsOf(
      'a.ts',
      "import { b } from './b.ts';\nimport type { C } from './c.ts';\nimport {\n  type D,\n  type E,\n} from './d.ts';",
    ),
    ...importsOf('x/b.ts', "export * from '../e.ts';\nexport const b = async () => (await import('../a.ts')).x;"),
  ];
  assert.deepEqual(importsOf('y.ts', "let module: Promise<typeof import('./z.ts')> | undefined;"), []);
  assert.deepEqual(edges, [
    { from: 'a.ts', to: 'b.ts', typeOnly: false },
    { from: 'a.ts', to: 'c.ts', typeOnly: true },
    { from: 'a.ts', to: 'd.ts', typeOnly: true },
    { from: 'x/b.ts', to: 'e.ts', typeOnly: false },
    { from: 'x/b.ts', to: 'a.ts', typeOnly: false },
  ]);
});

test('the ground floor and the catalogue name their imports: types.ts imports no MCP client, install nothing of cli/', () => {
  const imports = (from: string) => graph.edges.filter((edge) => edge.from === from).map(({ to }) => to);
  assert.deepEqual(
    imports('types.ts').filter((to) => to.startsWith('mcp/')),
    [],
  );
  assert.deepEqual(
    graph.edges.filter(({ from, to }) => from.startsWith('install/') && to.startsWith('cli/')),
    [],
  );
  // The firing's path finds the MCP servers the load stage found: run/ and mcp/ discover no settings files.
  assert.deepEqual(
    graph.edges
      .filter(({ from }) => from.startsWith('run/') || from.startsWith('mcp/') || from.startsWith('runners/'))
      .filter(({ to }) => to === 'config/discover.ts' || to === 'config/mcp/lookup.ts')
      .map(({ from, to }) => `${from} -> ${to}`),
    [],
  );
});
