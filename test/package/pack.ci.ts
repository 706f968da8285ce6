// The package as a user gets it: `npm pack` of a copy of this checkout (its prepack builds the bundles and the
// declaration files), installed into an empty project with no dev dependencies, offline: `npx peri-hooks`
// runs and fires, the library imports, and a strict NodeNext consumer compiles against the declaration files
// without skipLibCheck. npm resolves names through registry metadata, which `npm ci` does not cache, so the
// consumer gets a lockfile naming this checkout's resolved tarballs; npm ci takes them from the cache.

import assert from 'node:assert/strict';
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { VERSION } from '../../src/platform/version.ts';
import { ROOT } from '../helpers/cli.ts';

const TIMEOUT_MS = 300_000;
/** What `npm pack` needs of the checkout: the manifest, what it ships, and what its prepack runs. */
const CHECKOUT = [
  'package.json',
  'README.md',
  'LICENSE',
  'tsconfig.json',
  'tsconfig.types.json',
  'src',
  'scripts',
  'schema',
  'docs',
];
/** Lifecycle scripts that npm runs for an installed dependency: the package must have none. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

interface Lock {
  packages: Record<
    string,
    { version?: string; dev?: boolean; dependencies?: Record<string, string> } & Record<string, unknown>
  >;
}

let base: string;
let tarball: string;
let consumer: string;
let installed: SpawnSyncReturns<string>;
const env = {
  ...process.env,
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
};

function run(command: string, args: string[], cwd: string, input?: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd,
    env,
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    ...(input === undefined ? {} : { input }),
  });
}

before(
  () => {
    base = mkdtempSync(join(tmpdir(), 'peri-hooks-pack-'));
    const checkout = join(base, 'checkout');
    mkdirSync(checkout);
    for (const entry of CHECKOUT) cpSync(join(ROOT, entry), join(checkout, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    const packed = run('npm', ['pack', '--pack-destination', base], checkout);
    assert.equal(packed.status, 0, packed.stderr);
    tarball = join(base, `peri-hooks-${VERSION}.tgz`);

    consumer = join(base, 'consumer');
    mkdirSync(consumer);
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
    const pkg = lock.packages['']!;
    // The runtime dependencies, and the Node types a TypeScript consumer brings.
    const kept = Object.entries(lock.packages).filter(
      ([path, entry]) =>
        path !== '' && (!entry.dev || path === 'node_modules/@types/node' || path === 'node_modules/undici-types'),
    );
    const manifest = {
      name: 'consumer',
      version: '1.0.0',
      private: true,
      type: 'module',
      dependencies: { 'peri-hooks': `file:${tarball}` },
      devDependencies: { '@types/node': lock.packages['node_modules/@types/node']!.version },
    };
    writeFileSync(join(consumer, 'package.json'), JSON.stringify(manifest, null, 2));
    writeFileSync(
      join(consumer, 'package-lock.json'),
      JSON.stringify(
        {
          name: 'consumer',
          version: '1.0.0',
          lockfileVersion: 3,
          requires: true,
          packages: {
            '': {
              name: 'consumer',
              version: '1.0.0',
              dependencies: manifest.dependencies,
              devDependencies: manifest.devDependencies,
            },
            'node_modules/peri-hooks': {
              version: VERSION,
              resolved: `file:${tarball}`,
              dependencies: pkg.dependencies,
              bin: { 'peri-hooks': 'dist/peri-hooks.cjs' },
            },
            ...Object.fromEntries(kept),
          },
        },
        null,
        2,
      ),
    );
    installed = run('npm', ['ci', '--offline'], consumer);
  },
  { timeout: TIMEOUT_MS },
);
after(() => rmSync(base, { recursive: true, force: true }));

test('the tarball: the artefacts, declaration files, docs and LICENSE; no sources, no binary, no install script', () => {
  const listed = run('tar', ['-tzf', tarball], base);
  assert.equal(listed.status, 0, listed.stderr);
  const files = listed.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''));
  for (const file of [
    'LICENSE',
    'README.md',
    'package.json',
    'dist/peri-hooks.cjs',
    'dist/peri-hooks.bundle.cjs',
    'dist/index.mjs',
    'dist/types/index.d.ts',
    'dist/types/fire.d.ts',
    'schema/settings.schema.json',
    'docs/reference/diagnostics.md',
  ]) {
    assert.ok(files.includes(file), `${file} is packed`);
  }
  assert.deepEqual(
    files.filter((file) => file.startsWith('src/') || file.startsWith('scripts/') || file === 'dist/peri-hooks'),
    [],
  );
  const manifest = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], base).stdout) as Record<
    string,
    unknown
  > & { scripts: Record<string, string> };
  assert.deepEqual(
    INSTALL_SCRIPTS.filter((name) => name in manifest.scripts),
    [],
  );
  assert.equal(manifest.license, 'MIT');
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /^MIT License\n/);
  assert.deepEqual(manifest.engines, { node: '>=22.19' });
  assert.deepEqual(manifest.exports, {
    '.': { types: './dist/types/index.d.ts', import: './dist/index.mjs' },
    './package.json': './package.json',
  });
});

test('installed into an empty project offline: no install script runs, npx peri-hooks answers and fires, the library imports', () => {
  assert.equal(installed.status, 0, installed.stderr);
  assert.doesNotMatch(installed.stderr, /install-scripts|allowScripts/);

  const version = run('npx', ['--offline', 'peri-hooks', '--version'], consumer);
  assert.equal(version.status, 0, version.stderr);
  assert.match(version.stdout, new RegExp(`^peri-hooks/${VERSION.replace(/\./g, '\\.')} `));

  writeFileSync(
    join(consumer, 'policy.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "not here" >&2; exit 2' }] }],
      },
    }),
  );
  const input = readFileSync(join(ROOT, 'fixtures/claude-code-2.1.332/inputs/PreToolUse.tool_name-Bash.json'), 'utf8');
  const fired = run(
    'npx',
    [
      '--offline',
      'peri-hooks',
      'fire',
      'PreToolUse',
      '--settings',
      'policy.json',
      '--setting-sources',
      'none',
      '--no-state',
    ],
    consumer,
    JSON.stringify({ ...JSON.parse(input), cwd: consumer }),
  );
  assert.equal(fired.status, 2, fired.stderr);
  assert.match(fired.stderr, /not here/);

  const imported = run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      'import { EVENT_NAMES, fire } from "peri-hooks"; console.log(EVENT_NAMES.length, typeof fire)',
    ],
    consumer,
  );
  assert.equal(imported.stdout, '34 function\n', imported.stderr);
});

test('a strict NodeNext consumer compiles against the declaration files without skipLibCheck; a wrong type is caught', () => {
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2023',
          lib: ['es2023'],
          types: ['node'],
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          verbatimModuleSyntax: true,
          skipLibCheck: false,
          noEmit: true,
        },
        files: ['main.ts'],
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(consumer, 'main.ts'),
    [
      `import { EVENTS, EXIT, PeriHooksError, fire, loadSettings, plan, reduce, type EventName, type FireOptions, type FireReport, type LoadedSettings } from 'peri-hooks';`,
      `const event: EventName = 'PreToolUse';`,
      `const options: FireOptions = { settings: ['policy.json'], settingSources: [], noState: true };`,
      `const report: FireReport = await fire(event, { session_id: 's', transcript_path: '', cwd: '.', hook_event_name: event, tool_name: 'Bash', tool_input: {}, tool_use_id: 't' }, options);`,
      `const settings: LoadedSettings = await loadSettings({ projectDir: '.', home: '.', env: {} });`,
      `const exit: 0 | 2 = report.exitCode;`,
      `export const summary = [exit, report.blocked, settings.hooks.length, EVENTS[event].timeoutS, EXIT.block, typeof plan, typeof reduce, new PeriHooksError('usage', 'x').code];`,
    ].join('\n'),
  );
  const tsc = join(ROOT, 'node_modules/.bin/tsc');
  const clean = run(tsc, ['-p', 'tsconfig.json'], consumer);
  assert.equal(clean.stdout + clean.stderr, '');
  assert.equal(clean.status, 0);

  writeFileSync(
    join(consumer, 'main.ts'),
    `import { EXIT } from 'peri-hooks';\nexport const wrong: string = EXIT.block;\n`,
  );
  const caught = run(tsc, ['-p', 'tsconfig.json'], consumer);
  assert.notEqual(caught.status, 0);
  assert.match(caught.stdout, /^main\.ts\(2,14\): error TS2322: Type 'number' is not assignable to type 'string'\./);
  assert.doesNotMatch(caught.stdout, /node_modules/);
});
