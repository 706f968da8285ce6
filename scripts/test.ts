// `npm test`: every test/**/*.test.ts (or the files given) under node:test, five files at a time, with the spec
// reporter and the timing one. `node --test` starts files in name order, so a slow file late in the alphabet
// (test/serve/) ended the run alone; here the files that take longest start first. The test processes share a V8
// compile cache, filled here first, so the TypeScript sources are compiled once, not once per file.
import { globSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import durations from '../test/reporters/durations.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * The slowest files, slowest first (the timing reporter names them after each run). A file missing here only
 * starts in name order; a stale entry only costs time.
 */
const SLOW_FIRST = [
  'test/serve/redis.test.ts',
  'test/hosts/install.test.ts',
  'test/mcp/fire.test.ts',
  'test/serve/install.test.ts',
  'test/install/install.test.ts',
  'test/e2e/test-command.test.ts',
  'test/install/doctor.test.ts',
  'test/serve/safety.test.ts',
  'test/install/hostile-files.test.ts',
  'test/e2e/trust.test.ts',
  'test/e2e/guard.test.ts',
  'test/e2e/state.test.ts',
  'test/e2e/json-documents.test.ts',
  'test/install/via-mcp.test.ts',
  'test/serve/mcp.test.ts',
  'test/install/codex-via-mcp.test.ts',
  'test/audit/report.test.ts',
  'test/audit/fire.test.ts',
  'test/mcp/inspect.test.ts',
  'test/cases/workers.test.ts',
];

const patterns = process.argv.length > 2 ? process.argv.slice(2) : ['test/**/*.test.ts'];
const files = [...new Set(patterns.flatMap((pattern) => globSync(pattern, { cwd: ROOT })))].sort(
  (a, b) => rank(a) - rank(b) || a.localeCompare(b),
);
if (files.length === 0) {
  process.stderr.write(`npm test: no test file matches ${patterns.join(' ')}\n`);
  process.exit(1);
}

function rank(file: string): number {
  const index = SLOW_FIRST.indexOf(file);
  return index === -1 ? SLOW_FIRST.length : index;
}

// What most test files import, compiled once into the cache before four test processes start at once: on a
// clean clone each of them compiled it again (about 35 s of CPU of a cold run on 2 cores).
const cache = path.join(ROOT, 'node_modules/.cache/peri-hooks-tests');
process.env.NODE_COMPILE_CACHE = cache;
module.enableCompileCache(cache);
for (const source of [
  'src/index.ts',
  'src/cli/main.ts',
  'src/hosts/fire.ts',
  'src/install/install.ts',
  'src/serve/server.ts',
  'src/mcp-server/server.ts',
  'test/helpers/cli.ts',
  'test/helpers/fire.ts',
  'test/helpers/serve.ts',
])
  await import(path.join(ROOT, source));
module.flushCompileCache();
const events = run({
  files: files.map((file) => path.join(ROOT, file)),
  concurrency: 5,
  cwd: ROOT,
});
events.on('test:fail', () => {
  process.exitCode = 1;
});
events.compose(spec).pipe(process.stdout);
events.compose(durations).pipe(process.stdout);
