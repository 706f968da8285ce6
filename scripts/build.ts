// Bundles the CLI into one CommonJS file (dist/peri-hooks.bundle.cjs) that the Node SEA embeds, and builds
// dist/peri-hooks.cjs, the `bin` (src/cli/npm-bin.ts): a stub that checks the Node version, turns on Node's
// on-disk compile cache, then runs the bundle.

import { chmodSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { bundleOptions, OTEL_PACKAGES } from './bundle-options.ts';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const versionSource = readFileSync(new URL('../src/platform/version.ts', import.meta.url), 'utf8');
if (!versionSource.includes(`'${pkg.version}'`)) {
  console.error(`scripts/build.ts: src/platform/version.ts does not say ${pkg.version} (package.json); update it`);
  process.exit(1);
}

const outfile = new URL('../dist/peri-hooks.bundle.cjs', import.meta.url).pathname;
const bin = new URL('../dist/peri-hooks.cjs', import.meta.url).pathname;
// The MCP server SDK serves `peri-hooks mcp` alone: parsing it cost every firing ~30 M instructions (callgrind), so
// the npm bundle requires it from the package's dependencies when that command runs (the SEA has it as an asset).
// The OpenTelemetry packages likewise: only a firing with OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT set loads them; and
// prom-client: only serve and `mcp --metrics` load it (serve/metrics.ts).
await build({
  ...bundleOptions(new URL('../src/cli/bin.ts', import.meta.url).pathname, outfile),
  external: ['@modelcontextprotocol/server', '@modelcontextprotocol/server/stdio', 'prom-client', ...OTEL_PACKAGES],
});
chmodSync(outfile, 0o755);

// The bin runs on whatever Node the user has, so it is compiled for old ones: there it says which Node is needed.
await build({
  entryPoints: [new URL('../src/cli/npm-bin.ts', import.meta.url).pathname],
  bundle: true,
  platform: 'node',
  target: 'node12',
  format: 'cjs',
  external: ['./peri-hooks.bundle.cjs'],
  outfile: bin,
  logLevel: 'warning',
});
chmodSync(bin, 0o755);

// The library for harnesses that `import { fire } from 'peri-hooks'`: one ESM file, since Node does not strip
// types inside node_modules. Bundled CommonJS dependencies call require(), which ESM only has when given one.
const library = new URL('../dist/index.mjs', import.meta.url).pathname;
await build({
  ...bundleOptions(new URL('../src/index.ts', import.meta.url).pathname, library),
  format: 'esm',
  minify: false,
  banner: {
    js: "import { createRequire as __peri_createRequire } from 'node:module'; const require = __peri_createRequire(import.meta.url);",
  },
});
