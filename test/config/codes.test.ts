// The loader's diagnostic codes: one row per code, each a real settings tree that makes the loader emit it.
// Together with the LoaderCode type (the loader cannot emit an unlisted code), no code can drift.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { LOADER_CODES, type LoaderCode, loaderCodeCost, RESERVED_LOADER_CODES } from '../../src/config/codes.ts';
import type { LoadOptions } from '../../src/config/index.ts';
import { load, PROJECT, tree } from './tree.ts';

interface Row {
  code: LoaderCode;
  files: Record<string, string | object>;
  /** Load options beyond the defaults of tree.ts, given the tree's root. */
  options?: (root: string) => Partial<LoadOptions>;
}

const cmd = { type: 'command', command: 'x' };
/** Project settings whose Stop event holds these groups (Stop is no guard event: nothing else breaks). */
const stop = (...groups: unknown[]) => ({ [PROJECT]: { hooks: { Stop: groups } } });
/** One Stop handler. */
const handler = (value: unknown) => stop({ hooks: [value] });
const PLUGIN = 'plugins/p/.claude-plugin/plugin.json';
const plugin = (root: string) => ({ pluginDirs: [path.join(root, 'plugins/p')] });

const rows: Row[] = [
  { code: 'file-missing', files: {}, options: (root) => ({ settings: [path.join(root, 'absent.json')] }) },
  { code: 'settings-unreadable', files: { [`${PROJECT}/inside-a-folder`]: '' } },
  { code: 'invalid-json', files: { [PROJECT]: '{ "hooks": ' } },
  { code: 'too-deeply-nested', files: { [PROJECT]: `{ "hooks": ${'['.repeat(200)}` } },
  { code: 'not-an-object', files: { [PROJECT]: '[1]' } },
  { code: 'source-inapplicable', files: { [PROJECT]: { hooks: { PreToolUse: [{ hooks: [{ type: 'http' }] }] } } } },
  {
    code: 'policy-without-hooks',
    files: { 'policy.json': ' \n' },
    options: (root) => ({ settings: [path.join(root, 'policy.json')] }),
  },
  { code: 'plugin-dir-missing', files: {}, options: plugin },
  { code: 'plugin-hooks-invalid', files: { [PLUGIN]: { name: 'p', hooks: 5 } }, options: plugin },
  { code: 'plugin-hooks-duplicate', files: { [PLUGIN]: { name: 'p', hooks: './hooks/hooks.json' } }, options: plugin },
  { code: 'invalid-setting', files: { [PROJECT]: { disableAllHooks: 'yes' } } },
  { code: 'managed-only-setting', files: { [PROJECT]: { allowManagedHooksOnly: true } } },
  { code: 'trust-setting-ignored', files: { [PROJECT]: { peri_hooks_require_trust: true } } },
  { code: 'hooks-not-object', files: { [PROJECT]: { hooks: [] } } },
  { code: 'unknown-event', files: { [PROJECT]: { hooks: { OnSave: [] } } } },
  { code: 'event-not-array', files: { [PROJECT]: { hooks: { Stop: { hooks: [] } } } } },
  { code: 'group-not-object', files: stop(5) },
  { code: 'handler-without-group', files: stop(cmd) },
  { code: 'matcher-not-string', files: stop({ matcher: 5, hooks: [cmd] }) },
  { code: 'group-hooks-missing', files: stop({ matcher: 'x' }) },
  { code: 'group-hooks-not-array', files: stop({ hooks: cmd }) },
  { code: 'field-on-group', files: stop({ timeout: 5, hooks: [cmd] }) },
  { code: 'invalid-sequential', files: stop({ sequential: 'yes', hooks: [cmd] }) },
  { code: 'handler-not-object', files: handler(5) },
  { code: 'handler-missing-type', files: handler({ command: 'x' }) },
  { code: 'unknown-hook-type', files: handler({ type: 'comand', command: 'x' }) },
  { code: 'missing-field', files: handler({ type: 'http' }) },
  { code: 'wrong-type', files: handler({ type: 'command', command: 5 }) },
  { code: 'invalid-url', files: handler({ type: 'http', url: 'not a url' }) },
  { code: 'invalid-value', files: handler({ type: 'command', command: 'x', shell: 'fish' }) },
  { code: 'invalid-timeout', files: handler({ type: 'command', command: 'x', timeout: -1 }) },
  { code: 'timeout-in-ms', files: handler({ type: 'command', command: 'x', timeout: 5000 }) },
  { code: 'empty-value', files: handler({ type: 'command', command: '' }) },
  { code: 'peri-alias', files: handler({ type: 'command', command: 'x', status_message: 'Checking' }) },
  {
    code: 'peri-alias-shadowed',
    files: handler({ type: 'command', command: 'x', status_message: 'a', statusMessage: 'b' }),
  },
  {
    code: 'own-registration',
    files: {
      ...handler({
        type: 'command',
        command: '/opt/peri-hooks fire Stop --output claude --settings policy.json --setting-sources none',
      }),
      'project/policy.json': { hooks: {} },
    },
  },
  {
    code: 'registration-not-followed',
    files: handler({ type: 'command', command: '/opt/peri-hooks fire Stop --output claude' }),
  },
];

test('every listed code has a row that emits it, or is reserved with a reason, never both', () => {
  const covered = new Set(rows.map((row) => row.code));
  for (const code of Object.keys(LOADER_CODES) as LoaderCode[]) {
    const reserved = RESERVED_LOADER_CODES[code];
    assert.ok(
      covered.has(code) !== (reserved !== undefined),
      `${code}: give it a row, or a reason in RESERVED_LOADER_CODES`,
    );
    if (reserved !== undefined) assert.ok(reserved.length > 0, code);
  }
  assert.equal(covered.size, rows.length, 'one row per code');
});

for (const row of rows) {
  test(`the loader emits ${row.code} (cost: ${LOADER_CODES[row.code]})`, async () => {
    const root = await tree(row.files);
    const loaded = await load(root, row.options?.(root) ?? {});
    const codes = loaded.diagnostics.map((diagnostic) => diagnostic.code);
    assert.ok(codes.includes(row.code), `got ${codes.join(', ') || 'no diagnostics'}`);
    // A file that cannot be read is reported as such; a finding that costs nothing leaves every source applied.
    const statuses = loaded.sources.map((source) => source.status);
    if (LOADER_CODES[row.code] === 'file')
      assert.ok(statuses.includes('invalid') || statuses.includes('missing'), statuses.join(', '));
    if (LOADER_CODES[row.code] === 'nothing')
      assert.ok(!statuses.includes('invalid') && !statuses.includes('inapplicable'), statuses.join(', '));
  });
}

test('codes of other stages have no loader cost', () => {
  assert.equal(loaderCodeCost('invalid-json'), 'file');
  assert.equal(loaderCodeCost('malformed-if'), undefined);
  assert.equal(loaderCodeCost('hook-runtime'), undefined);
});
