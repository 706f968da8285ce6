// Builds dist/peri-hooks: a Node single executable application (Node 24 SEA) of src/cli/sea.ts with a V8
// startup snapshot: the fire path's module set-up runs at build time, not on every firing (measured: about
// -20 ms per no-op firing against the code cache, for +6 MB private memory). Recipe: shared notes/toolchain.md §3.
// `--no-strip` keeps the full Node binary; by default its symbols are stripped (-18 MB, same behaviour).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { bundleOptions } from './bundle-options.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = `${root}dist/peri-hooks.sea.cjs`;
const output = `${root}dist/peri-hooks`;
const blob = `${root}dist/peri-hooks.blob`;
const seaConfig = `${root}dist/sea-config.json`;
const strip = !process.argv.includes('--no-strip');

// Packages that only some hooks or options evaluate (undici: http hooks and model calls; redis: --state redis://;
// the MCP client: mcp_tool hooks) are SEA assets rather than part of the main script, whose source text the
// snapshot holds and every start maps in. Each is compiled from its asset the first time it is imported.
const ASSET_PACKAGES = ['undici', 'redis', '@modelcontextprotocol/client'];
const assetName = (pkg: string) => `${pkg.replace(/^@/, '').replaceAll('/', '-')}.cjs`;
const assets: Record<string, string> = {};
for (const pkg of ASSET_PACKAGES) {
  assets[assetName(pkg)] = `${root}dist/${assetName(pkg)}`;
  await build({ ...bundleOptions('', assets[assetName(pkg)]!), entryPoints: [], stdin: { contents: `export * from '${pkg}';`, resolveDir: root, loader: 'js' } });
}
const packagesFromAssets: Plugin = {
  name: 'packages-from-sea-assets',
  setup(plugin) {
    plugin.onResolve({ filter: new RegExp(`^(${ASSET_PACKAGES.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'sea-asset' }));
    plugin.onLoad({ filter: /.*/, namespace: 'sea-asset' }, (args) => {
      const name = JSON.stringify(assetName(args.path));
      return { loader: 'js', contents: `const Module = require('node:module'); const loaded = new Module(${name}); loaded._compile(require('node:sea').getAsset(${name}, 'utf8'), ${name}); module.exports = loaded.exports;` };
    });
  },
};
await build({ ...bundleOptions(`${root}src/cli/sea.ts`, bundle), plugins: [packagesFromAssets] });

// Node 24.21 runs only a CommonJS main in a SEA; "execArgvExtension": "none" keeps NODE_OPTIONS out of it.
// With a snapshot, V8 keeps the compiled code of what ran at build time, so the code cache has nothing to add.
writeFileSync(seaConfig, JSON.stringify({
  main: bundle,
  output: blob,
  disableExperimentalSEAWarning: true,
  useCodeCache: false,
  useSnapshot: true,
  execArgvExtension: 'none',
  assets,
}, null, 2));
execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: 'inherit' });

rmSync(output, { force: true });
copyFileSync(realpathSync(process.execPath), output);
chmodSync(output, 0o755);
if (strip) execFileSync('strip', [output]);

// postject's CommonJS API; it prints "Can't find string offset for section name" warnings that are harmless.
const { inject } = createRequire(import.meta.url)('postject') as {
  inject(file: string, name: string, data: Buffer, options: { sentinelFuse: string }): Promise<void>;
};
await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2' });
rmSync(blob);
rmSync(seaConfig);
rmSync(bundle);
for (const file of Object.values(assets)) rmSync(file);

const version = execFileSync(output, ['--version'], { encoding: 'utf8' }).trim();
console.log(`dist/peri-hooks: ${statSync(output).size} bytes${strip ? ' (stripped Node)' : ''}, --version ${version}`);
