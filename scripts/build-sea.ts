// Builds dist/peri-hooks: a Node single executable application (Node 24 SEA). Its main script is the small loader
// src/cli/sea.ts; the bundle it runs (src/cli/bin.ts's) is an asset, with a V8 code cache taken after warm-up
// firings at build time, so that the fire path's functions start compiled. No startup snapshot: deserialising
// the heap of the evaluated bundle (zod's classes, the schemas, cac) cost more than evaluating only what a
// firing needs. Recipe: shared notes/toolchain.md §3.
// `--no-strip` keeps the full Node binary; by default its symbols are stripped (-18 MB, same behaviour).
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { BUNDLE_ASSET, cacheAssetName, moduleScript } from '../src/cli/sea-script.ts';
import { bundleOptions } from './bundle-options.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const loader = `${root}dist/peri-hooks.sea.cjs`;
const bundle = `${root}dist/peri-hooks.sea-bundle.cjs`;
const cacheWriter = `${root}dist/sea-cache-writer.cjs`;
const output = `${root}dist/peri-hooks`;
const blob = `${root}dist/peri-hooks.blob`;
const seaConfig = `${root}dist/sea-config.json`;
const strip = !process.argv.includes('--no-strip');

// Packages that only some firings evaluate (zod: a value the generated checks defer, and the commands other than
// fire; jsonc-parser: the position of a syntax error, and the commands that edit JSON; undici: http hooks and model
// calls; redis: --state redis://; the MCP client: mcp_tool hooks; the MCP server: `peri-hooks mcp`) are SEA assets rather than part of the bundle,
// whose code cache every start reads whole. Each is compiled from its asset, with its own cache, on first import.
const ASSET_PACKAGES = [
  'zod',
  'jsonc-parser',
  'undici',
  'redis',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/server/stdio',
  'prom-client',
];
const assetName = (pkg: string) => `${pkg.replace(/^@/, '').replaceAll('/', '-')}.cjs`;
const assets: Record<string, string> = {};
for (const pkg of ASSET_PACKAGES) {
  assets[assetName(pkg)] = `${root}dist/${assetName(pkg)}`;
  await build({
    ...bundleOptions('', assets[assetName(pkg)]!),
    entryPoints: [],
    stdin: { contents: `export * from '${pkg}';`, resolveDir: root, loader: 'js' },
  });
}
// The OpenTelemetry packages (firings with OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT set) are one asset, the module that
// re-exports what peri-hooks uses of them, so that they share one copy of the API.
const OTEL_SDK = 'src/audit/otel-sdk.ts';
assets[assetName('otel-sdk')] = `${root}dist/${assetName('otel-sdk')}`;
// The exporters load node:http with import(), which the SEA does not have: esbuild turns it into require().
await build({
  ...bundleOptions(`${root}${OTEL_SDK}`, assets[assetName('otel-sdk')]!),
  supported: { 'dynamic-import': false },
});
const packagesFromAssets: Plugin = {
  name: 'packages-from-sea-assets',
  setup(plugin) {
    plugin.onResolve({ filter: new RegExp(`^(${ASSET_PACKAGES.join('|')})$`) }, (args) => ({
      path: args.path,
      namespace: 'sea-asset',
    }));
    plugin.onResolve({ filter: /\/otel-sdk\.ts$/ }, () => ({ path: 'otel-sdk', namespace: 'sea-asset' }));
    plugin.onLoad({ filter: /.*/, namespace: 'sea-asset' }, (args) => ({
      loader: 'js',
      resolveDir: root,
      contents: `module.exports = require('./src/cli/sea-script.ts').assetModule(${JSON.stringify(assetName(args.path))}, require);`,
    }));
  },
};
assets[BUNDLE_ASSET] = bundle;
await build({ ...bundleOptions(`${root}src/cli/bin.ts`, bundle), plugins: [packagesFromAssets] });
await build(bundleOptions(`${root}src/cli/sea.ts`, loader));

// The bundle's code cache holds what V8 compiled while it ran: a firing here with one hook that matches nothing and
// one `true` command hook, in an empty folder and without state, so it covers the fire path and the command runner.
// A package's holds what its evaluation compiled.
await build({
  ...bundleOptions('', cacheWriter),
  entryPoints: [],
  stdin: {
    resolveDir: root,
    loader: 'ts',
    contents: `
    import { readFileSync, writeFileSync } from 'node:fs';
    import { moduleScript, runModule } from './src/cli/sea-script.ts';
    const [bundleName, ...args] = process.argv.slice(2);
    const [assetFiles, assetNames] = JSON.parse(process.env.PERI_HOOKS_SEA_ASSETS);
    const cache = (name, file) => {
      const script = moduleScript(name, readFileSync(file, 'utf8'));
      return { script, write: () => writeFileSync(file + '.code-cache', script.createCachedData()) };
    };
    for (const [i, file] of assetFiles.entries()) {
      const asset = cache(assetNames[i], file);
      runModule(assetNames[i], asset.script, require);
      asset.write();
    }
    const bundle = cache(bundleName, process.env.PERI_HOOKS_SEA_BUNDLE);
    process.argv = [process.argv[0], process.env.PERI_HOOKS_SEA_BUNDLE, ...args];
    process.on('exit', bundle.write);
    runModule(bundleName, bundle.script, require);`,
  },
});
const packageAssets = [...ASSET_PACKAGES, 'otel-sdk'].map(assetName);
const warmUp = mkdtempSync(join(tmpdir(), 'peri-hooks-sea-warm-up-'));
try {
  const input = JSON.stringify({
    session_id: 'warm-up',
    transcript_path: join(warmUp, 'warm-up.jsonl'),
    cwd: warmUp,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'true' },
    tool_use_id: 'warm-up',
  });
  const settings = JSON.stringify({
    hooks: {
      PreToolUse: [
        { matcher: 'Write', hooks: [{ type: 'command', command: 'exit 2' }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] },
      ],
    },
  });
  execFileSync(
    process.execPath,
    [cacheWriter, BUNDLE_ASSET, 'fire', 'PreToolUse', '--setting-sources', '', '--settings', settings, '--no-state'],
    {
      input,
      cwd: warmUp,
      stdio: ['pipe', 'ignore', 'inherit'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: warmUp,
        PERI_HOOKS_SEA_BUNDLE: bundle,
        PERI_HOOKS_SEA_ASSETS: JSON.stringify([packageAssets.map((name) => assets[name]), packageAssets]),
      },
    },
  );
} finally {
  rmSync(warmUp, { recursive: true, force: true });
}
// A cache that V8 rejects (another Node, other V8 flags) would slow every start without a word.
for (const [name, file] of Object.entries(assets)) {
  const source = readFileSync(file, 'utf8');
  // The loader reads an asset as latin1 (sea-script.ts): esbuild escapes every character beyond ASCII, and must go on doing so.
  if (/[^\x00-\x7f]/.test(source))
    throw new Error(`${file} holds a character beyond ASCII, which the loader would misread`);
  if (moduleScript(name, source, readFileSync(`${file}.code-cache`)).cachedDataRejected)
    throw new Error(`V8 rejects the code cache of ${file}`);
  assets[cacheAssetName(name)] = `${file}.code-cache`;
}

// Node 24.21 runs only a CommonJS main in a SEA; "execArgvExtension": "none" keeps NODE_OPTIONS out of it.
writeFileSync(
  seaConfig,
  JSON.stringify(
    {
      main: loader,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      useSnapshot: false,
      execArgvExtension: 'none',
      assets,
    },
    null,
    2,
  ),
);
execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: 'inherit' });

rmSync(output, { force: true });
copyFileSync(realpathSync(process.execPath), output);
chmodSync(output, 0o755);
if (strip) execFileSync('strip', [output]);

// postject's CommonJS API; it prints "Can't find string offset for section name" warnings that are harmless.
const { inject } = createRequire(import.meta.url)('postject') as {
  inject(file: string, name: string, data: Buffer, options: { sentinelFuse: string }): Promise<void>;
};
await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), {
  sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
});
rmSync(blob);
rmSync(seaConfig);
rmSync(loader);
rmSync(cacheWriter);
for (const file of Object.values(assets)) rmSync(file);

const version = execFileSync(output, ['--version'], { encoding: 'utf8' }).trim();
console.log(`dist/peri-hooks: ${statSync(output).size} bytes${strip ? ' (stripped Node)' : ''}, --version ${version}`);
