// Bundles the CLI into one CommonJS file (dist/peri-hooks.cjs) that `bin` uses and the Node SEA embeds.
import { build } from 'esbuild';
import { readFileSync, chmodSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const versionSource = readFileSync(new URL('../src/version.ts', import.meta.url), 'utf8');
if (!versionSource.includes(`'${pkg.version}'`)) {
  console.error(`scripts/build.ts: src/version.ts does not say ${pkg.version} (package.json); update it`);
  process.exit(1);
}

const outfile = new URL('../dist/peri-hooks.cjs', import.meta.url).pathname;
await build({
  entryPoints: [new URL('../src/cli/bin.ts', import.meta.url).pathname],
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  // jsonc-parser's default (UMD) entry leaves a require() that esbuild cannot follow.
  mainFields: ['module', 'main'],
  minify: true,
  legalComments: 'none',
  outfile,
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
