// Guards start-up without timing anything: the bundle stays within its committed byte budget, a firing loads the
// process and HTTP machinery (node:child_process, undici, the model client) only when a hook needs it, and a valid
// firing evaluates neither zod nor the other commands' modules.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeProject, type Project, ROOT } from '../helpers/cli.ts';

// The npm bin: a stub that turns on the compile cache and requires the bundle.
const BIN = join(ROOT, 'dist/peri-hooks.cjs');
const BUNDLE = join(ROOT, 'dist/peri-hooks.bundle.cjs');

test('dist/peri-hooks.bundle.cjs is within the byte budget of scripts/size-budget.json', () => {
  const budget = JSON.parse(readFileSync(join(ROOT, 'scripts/size-budget.json'), 'utf8'))[
    'dist/peri-hooks.bundle.cjs'
  ] as number;
  const size = statSync(BUNDLE).size;
  assert.ok(
    size <= budget,
    `dist/peri-hooks.bundle.cjs is ${size} bytes, over the budget of ${budget}: find what grew (esbuild --metafile) or raise the budget with bench numbers`,
  );
});

test("the bin turns on Node's compile cache for the bundle", () => {
  // Not NODE_COMPILE_CACHE: that alone turns the cache on. The bin's default folder is $TMPDIR/node-compile-cache.
  const temp = mkdtempSync(join(tmpdir(), 'peri-hooks-compile-cache-'));
  try {
    const { NODE_COMPILE_CACHE: _, ...env } = process.env;
    const result = spawnSync(process.execPath, [BIN, '--version'], { env: { ...env, TMPDIR: temp }, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.ok(
      readdirSync(join(temp, 'node-compile-cache'), { recursive: true }).length > 0,
      'nothing was written to the compile cache',
    );
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
});

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

// Built-in modules that only the command runner (child_process) and undici or the model client (http and after)
// pull in, and those of the stdio streams and node:fs/promises, which a firing with nothing to print never needs.
const LAZY = ['child_process', 'http', 'tls', 'http2', 'zlib', 'dns', 'net', 'stream', 'fs/promises', 'readline'];

/** The public built-in modules the bundle loaded during one firing, read from process.moduleLoadList at exit. */
function builtinsLoaded(settings: object): string[] {
  // Listed before writing, and written to the descriptor: the stderr stream would load net and stream itself.
  const probe = project.write(
    'probe.cjs',
    `process.on('exit', () => { const loaded = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ') && !m.includes('internal/')).map((m) => m.slice(13)).join(','); require('node:fs').writeSync(2, '\\nLOADED ' + loaded + '\\n'); });`,
  );
  const result = spawnSync(
    process.execPath,
    ['--require', probe, BIN, 'fire', 'PreToolUse', '--setting-sources', '', '--settings', JSON.stringify(settings)],
    {
      input: project.input('PreToolUse.tool_name-Bash'),
      env: project.env(),
      encoding: 'utf8',
    },
  );
  const line = /^LOADED (.*)$/m.exec(result.stderr);
  assert.ok(line, `no probe output; stderr: ${result.stderr}`);
  return line[1]!.split(',');
}

test('a firing whose hooks do not match loads neither the process machinery, nor undici, nor stdio streams', () => {
  const loaded = builtinsLoaded({
    hooks: {
      PreToolUse: [
        {
          matcher: 'Edit',
          hooks: [
            { type: 'command', command: 'true' },
            { type: 'http', url: 'http://127.0.0.1:9/' },
            { type: 'prompt', prompt: 'ok?' },
          ],
        },
      ],
    },
  });
  assert.deepEqual(
    LAZY.filter((name) => loaded.includes(name)),
    [],
  );
});

test('a firing whose regex matchers cannot backtrack does not load node:v8 for the linear regex engine', () => {
  const group = (matcher: string) => ({ matcher, hooks: [{ type: 'command', command: 'exit 2' }] });
  assert.ok(
    !builtinsLoaded({ hooks: { PreToolUse: [group('Tool0|mcp__server0__.*'), group('mcp__.*')] } }).includes('v8'),
  );
  assert.ok(
    builtinsLoaded({ hooks: { PreToolUse: [group('(Tool0)+|mcp__.*x')] } }).includes('v8'),
    'a regex that can backtrack turns the linear engine on',
  );
});

test('a firing that reads its settings files starts no thread pool: the loader reads them synchronously', () => {
  // Linux names the pool's threads libuv-worker; the probe lists the process's threads as it exits.
  if (process.platform !== 'linux') return;
  project.write('.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'exit 2' }] }] },
  });
  const probe = project.write(
    'threads.cjs',
    `process.on('exit', () => { const fs = require('node:fs'); const names = fs.readdirSync('/proc/self/task').map((id) => fs.readFileSync('/proc/self/task/' + id + '/comm', 'utf8').trim()); fs.writeSync(2, '\\nTHREADS ' + names.join(',') + '\\n'); });`,
  );
  const poolThreads = (preloads: string[]) => {
    const result = spawnSync(
      process.execPath,
      [...preloads.flatMap((file) => ['--require', file]), BIN, 'fire', 'PreToolUse'],
      {
        input: project.input('PreToolUse.tool_name-Bash'),
        env: project.env(),
        cwd: project.dir,
        encoding: 'utf8',
      },
    );
    assert.equal(result.status, 0, result.stderr);
    const line = /^THREADS (.*)$/m.exec(result.stderr);
    assert.ok(line, `no probe output; stderr: ${result.stderr}`);
    return line[1]!.split(',').filter((name) => name === 'libuv-worker');
  };
  assert.deepEqual(poolThreads([probe]), []);
  // The probe sees the pool once something reads a file through the callback API.
  assert.ok(
    poolThreads([probe, project.write('pool.cjs', "require('node:fs').readFile(__filename, () => {});")]).length > 0,
    'the probe does not see the thread pool',
  );
});

test('the probe sees them when a hook needs them', () => {
  const loaded = builtinsLoaded({
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
  });
  assert.ok(loaded.includes('child_process'));
  assert.ok(!loaded.includes('http'), 'a command hook does not load the HTTP client');
  assert.ok(
    !loaded.includes('perf_hooks'),
    'a command hook is timed without performance.now(), whose first call loads perf_hooks',
  );
});

// Which bundled modules a firing evaluates: a readable build of the same bundle whose lazy-module wrapper
// (esbuild's __esm) records each module it initialises; zod leaves its registry on globalThis when it evaluates.
const PROBE_DIR = mkdtempSync(join(tmpdir(), 'peri-hooks-probe-'));
after(() => rmSync(PROBE_DIR, { recursive: true, force: true }));
const LAZY_WRAPPER = 'var __esm = (fn, res, err) => function __init() {';

async function probeBundle(): Promise<string> {
  const { build } = await import('esbuild');
  const { bundleOptions } = await import('../../scripts/bundle-options.ts');
  const plain = join(PROBE_DIR, 'plain.cjs');
  await build({ ...bundleOptions(join(ROOT, 'src/cli/bin.ts'), plain), minify: false });
  const source = readFileSync(plain, 'utf8');
  assert.ok(source.includes(LAZY_WRAPPER), "esbuild's lazy-module wrapper changed: update the probe");
  // Every module the fire path must not evaluate has to be a lazy one, or the probe could not see it run.
  for (const module of NOT_ON_THE_FIRE_PATH)
    assert.ok(source.includes(`"${module}"() {`), `${module} is not a lazily initialised module of the bundle`);
  const probe = join(PROBE_DIR, 'probe.cjs');
  writeFileSync(
    probe,
    source.replace(LAZY_WRAPPER, `${LAZY_WRAPPER} if (fn) (globalThis.__initialised ??= []).push(Object.keys(fn)[0]);`),
  );
  writeFileSync(
    join(PROBE_DIR, 'report.cjs'),
    "process.on('exit', () => process.stderr.write('\\nPROBE ' + JSON.stringify({ modules: globalThis.__initialised ?? [], zod: '__zod_globalRegistry' in globalThis }) + '\\n'));",
  );
  return probe;
}

/** Modules of the other commands and of zod's users, which a valid firing never needs. */
const NOT_ON_THE_FIRE_PATH = [
  'src/cli/commands/validate.ts',
  'src/cli/commands/test.ts',
  'src/cli/commands/install.ts',
  'src/cli/commands/doctor.ts',
  'src/cli/commands/serve.ts',
  'src/cli/commands/replay.ts',
  'src/cli/commands/schema.ts',
  'src/cli/commands/explain.ts',
  'src/config/schema.ts',
  'src/input/parse.ts',
  'src/session/schema.ts',
  // The audit entry and OpenTelemetry: only with --audit, --verbose or OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT.
  'src/audit/entry.ts',
  'src/audit/otel.ts',
  'src/audit/otel-sdk.ts',
];

let probed: Promise<string> | undefined;
function modulesOfFiring(
  settings: object,
  input = project.input('PreToolUse.tool_name-Bash'),
): Promise<{ modules: string[]; zod: boolean; code: number | null }> {
  return (probed ??= probeBundle()).then((probe) => {
    const result = spawnSync(
      process.execPath,
      [
        '--require',
        join(PROBE_DIR, 'report.cjs'),
        probe,
        'fire',
        'PreToolUse',
        '--setting-sources',
        '',
        '--settings',
        JSON.stringify(settings),
      ],
      {
        input,
        env: project.env(),
        encoding: 'utf8',
      },
    );
    const line = /^PROBE (.*)$/m.exec(result.stderr);
    assert.ok(line, `no probe output; stderr: ${result.stderr}`);
    return { ...(JSON.parse(line[1]!) as { modules: string[]; zod: boolean }), code: result.status };
  });
}

test("a no-op firing and one with a command hook evaluate neither zod nor the other commands' modules", async () => {
  for (const hook of [
    { matcher: 'Edit', hooks: [{ type: 'command', command: 'exit 2' }] },
    { matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] },
  ]) {
    const firing = await modulesOfFiring({ hooks: { PreToolUse: [hook] } });
    assert.equal(firing.code, 0);
    assert.equal(firing.zod, false, `zod was evaluated for ${JSON.stringify(hook)}`);
    assert.ok(firing.modules.includes('src/fire.ts'), 'the probe saw no module at all');
    assert.deepEqual(
      NOT_ON_THE_FIRE_PATH.filter((module) => firing.modules.includes(module)),
      [],
    );
  }
});

test('the probe sees zod when a firing needs it: an invalid input, an http hook (z.url)', async () => {
  const badInput = await modulesOfFiring({}, JSON.stringify({ session_id: 1 }));
  assert.equal(badInput.code, 1);
  assert.ok(badInput.zod && badInput.modules.includes('src/input/parse.ts'));
  const http = await modulesOfFiring({
    hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'http', url: 'http://127.0.0.1:9/' }] }] },
  });
  assert.ok(http.zod && http.modules.includes('src/config/schema.ts'));
});

test('a case worker of `test` evaluates no zod: only the suite (its case files) needs it', async () => {
  const probe = await (probed ??= probeBundle());
  const script = project.write('hooks/allow.sh', '#!/bin/sh\ncat > /dev/null\nexit 0\n');
  const suite = project.write('probe.hooks.test.json', {
    settings: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: script }] }] } },
    cases: [{ name: 'ls', tool: 'Bash', toolInput: { command: 'ls' }, expect: { decision: 'none' } }],
  });
  const { loadCaseFile } = await import('../../src/cases/load.ts');
  const { locate: _, ...testCase } = (await loadCaseFile(suite)).cases[0]!;
  // The worker as `test` starts it, fed one case on stdin; it reports what it evaluated as it exits.
  const ran = spawnSync(
    process.execPath,
    ['--require', join(PROBE_DIR, 'report.cjs'), probe, '__case-worker', project.dir],
    {
      input: `${JSON.stringify({ run: { index: 0, testCase, recording: false } })}\n`,
      env: project.env(),
      cwd: project.dir,
      encoding: 'utf8',
    },
  );
  assert.equal(ran.status, 0, ran.stderr);
  assert.match(ran.stdout, /"status":"passed"/, 'the worker did not run the case');
  const line = /^PROBE (.*)$/m.exec(ran.stderr);
  assert.ok(line, `no probe output; stderr: ${ran.stderr}`);
  const worker = JSON.parse(line[1]!) as { modules: string[]; zod: boolean };
  assert.equal(worker.zod, false, 'the case worker evaluated zod');
  assert.ok(
    worker.modules.includes('src/cases/run-case.ts') && !worker.modules.includes('src/cases/load.ts'),
    worker.modules.join(', '),
  );
  // The suite itself reads its case files with zod, which the probe sees.
  const suiteRun = spawnSync(process.execPath, ['--require', join(PROBE_DIR, 'report.cjs'), probe, 'test', suite], {
    env: project.env(),
    cwd: project.dir,
    encoding: 'utf8',
  });
  assert.equal(suiteRun.status, 0, suiteRun.stdout + suiteRun.stderr);
  assert.equal(
    (JSON.parse(/^PROBE (.*)$/m.exec(suiteRun.stderr)![1]!) as { zod: boolean }).zod,
    true,
    'the probe does not see the suite load zod',
  );
});
