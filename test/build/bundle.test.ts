// Guards start-up without timing anything: the bundle stays within its committed byte budget, and a
// firing loads the process and HTTP machinery (node:child_process, undici, the model client) only when a hook needs it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeProject, ROOT, type Project } from '../helpers/cli.ts';

// The npm bin: a stub that turns on the compile cache and requires the bundle.
const BIN = join(ROOT, 'dist/peri-hooks.cjs');
const BUNDLE = join(ROOT, 'dist/peri-hooks.bundle.cjs');

test('dist/peri-hooks.bundle.cjs is within the byte budget of scripts/size-budget.json', () => {
  const budget = JSON.parse(readFileSync(join(ROOT, 'scripts/size-budget.json'), 'utf8'))['dist/peri-hooks.bundle.cjs'] as number;
  const size = statSync(BUNDLE).size;
  assert.ok(size <= budget, `dist/peri-hooks.bundle.cjs is ${size} bytes, over the budget of ${budget}: find what grew (esbuild --metafile) or raise the budget with bench numbers`);
});

test('the bin turns on Node\'s compile cache for the bundle', () => {
  // Not NODE_COMPILE_CACHE: that alone turns the cache on. The bin's default folder is $TMPDIR/node-compile-cache.
  const temp = mkdtempSync(join(tmpdir(), 'peri-hooks-compile-cache-'));
  try {
    const { NODE_COMPILE_CACHE: _, ...env } = process.env;
    const result = spawnSync(process.execPath, [BIN, '--version'], { env: { ...env, TMPDIR: temp }, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.ok(readdirSync(join(temp, 'node-compile-cache'), { recursive: true }).length > 0, 'nothing was written to the compile cache');
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
});

let project: Project;
before(() => { project = makeProject(); });
after(() => project.cleanup());

// Built-in modules that only the command runner (child_process) and undici or the model client (the rest) pull in.
const LAZY = ['child_process', 'http', 'tls', 'http2', 'zlib', 'dns'];

/** The public built-in modules the bundle loaded during one firing, read from process.moduleLoadList at exit. */
function builtinsLoaded(settings: object): string[] {
  const probe = project.write('probe.cjs', `process.on('exit', () => process.stderr.write('\\nLOADED ' + process.moduleLoadList.filter((m) => m.startsWith('NativeModule ') && !m.includes('internal/')).map((m) => m.slice(13)).join(',') + '\\n'));`);
  const result = spawnSync(process.execPath, ['--require', probe, BIN, 'fire', 'PreToolUse', '--setting-sources', '', '--settings', JSON.stringify(settings)], {
    input: project.input('PreToolUse.tool_name-Bash'), env: project.env(), encoding: 'utf8',
  });
  const line = /^LOADED (.*)$/m.exec(result.stderr);
  assert.ok(line, `no probe output; stderr: ${result.stderr}`);
  return line[1]!.split(',');
}

test('a firing whose hooks do not match loads neither the process machinery nor undici', () => {
  const loaded = builtinsLoaded({ hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'true' }, { type: 'http', url: 'http://127.0.0.1:9/' }, { type: 'prompt', prompt: 'ok?' }] }] } });
  assert.deepEqual(LAZY.filter((name) => loaded.includes(name)), []);
});

test('the probe sees them when a hook needs them', () => {
  const loaded = builtinsLoaded({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } });
  assert.ok(loaded.includes('child_process'));
  assert.ok(!loaded.includes('http'), 'a command hook does not load the HTTP client');
});
