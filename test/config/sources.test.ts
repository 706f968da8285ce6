import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { defaultManagedDir } from '../../src/config/discover.ts';
import type { LoadedHook } from '../../src/types.ts';
import { commandOf, hooksFor, LOCAL, load, MANAGED, PROJECT, tree, USER } from './tree.ts';

const commands = (hooks: LoadedHook[]) => hooks.map(commandOf);

test('every source loads, in collection order user → project → local → flag → managed → plugins', async () => {
  const root = await tree({
    [USER]: hooksFor('user'),
    [PROJECT]: hooksFor('project'),
    [LOCAL]: hooksFor('local'),
    'flag.json': hooksFor('flag-file'),
    [MANAGED]: hooksFor('managed'),
    'managed/managed-settings.d/20-b.json': hooksFor('managed-d-20'),
    'managed/managed-settings.d/10-a.json': hooksFor('managed-d-10'),
    'managed/managed-settings.d/.hidden.json': hooksFor('hidden'),
    'managed/managed-settings.d/notes.txt': 'not json',
    'plugin/hooks/hooks.json': hooksFor('plugin'),
  });
  const result = await load(root, {
    settings: [path.join(root, 'flag.json'), JSON.stringify(hooksFor('flag-inline'))],
    pluginDirs: [path.join(root, 'plugin')],
  });
  assert.deepEqual(commands(result.hooks), [
    'user',
    'project',
    'local',
    'flag-file',
    'flag-inline',
    'managed',
    'managed-d-10',
    'managed-d-20',
    'plugin',
  ]);
  assert.deepEqual(
    result.hooks.map((h) => h.provenance.layer),
    ['user', 'project', 'local', 'flag', 'flag', 'managed', 'managed', 'managed', 'plugin'],
  );
  assert.deepEqual(result.diagnostics, []);
  const first = result.hooks[0]!;
  const userFile = path.join(root, USER);
  assert.equal(first.id, `user:${userFile}#/hooks/PreToolUse/0/hooks/0`);
  assert.deepEqual(first.provenance, { layer: 'user', file: userFile, pointer: '/hooks/PreToolUse/0/hooks/0' });
  assert.equal(first.matcher, '*');
  assert.equal(result.hooks[4]!.provenance.file, '--settings');
  assert.deepEqual(
    result.sources.map((s) => [s.layer, path.basename(s.file), s.status, s.hooks]),
    [
      ['user', 'settings.json', 'loaded', 1],
      ['project', 'settings.json', 'loaded', 1],
      ['local', 'settings.local.json', 'loaded', 1],
      ['flag', 'flag.json', 'loaded', 1],
      ['flag', '--settings', 'loaded', 1],
      ['managed', 'managed-settings.json', 'loaded', 1],
      ['managed', '10-a.json', 'loaded', 1],
      ['managed', '20-b.json', 'loaded', 1],
      ['plugin', 'hooks.json', 'loaded', 1],
      ['plugin', 'plugin.json', 'missing', 0],
    ],
  );
});

test('missing files are normal: status missing, no diagnostic', async () => {
  const root = await tree({});
  const result = await load(root);
  assert.deepEqual(result.hooks, []);
  assert.deepEqual(result.diagnostics, []);
  assert.deepEqual(
    result.sources.map((s) => [s.layer, s.status]),
    [
      ['user', 'missing'],
      ['project', 'missing'],
      ['local', 'missing'],
      ['managed', 'missing'],
    ],
  );
  assert.deepEqual(result.settings, {
    disableAllHooks: false,
    allowManagedHooksOnly: false,
    allowedHttpHookUrls: undefined,
    httpHookAllowedEnvVars: undefined,
    managedAllowedHttpHookUrls: undefined,
    managedHttpHookAllowedEnvVars: undefined,
  });
});

test('CLAUDE_CONFIG_DIR replaces ~/.claude for the user file', async () => {
  const root = await tree({ [USER]: hooksFor('home'), 'config/settings.json': hooksFor('config-dir') });
  const result = await load(root, { env: { CLAUDE_CONFIG_DIR: path.join(root, 'config') } });
  assert.deepEqual(commands(result.hooks), ['config-dir']);
  assert.equal(result.sources[0]!.file, path.join(root, 'config/settings.json'));
});

test('managed folder: the option wins over PERI_HOOKS_MANAGED_DIR, which wins over the platform default', async () => {
  const root = await tree({ 'a/managed-settings.json': hooksFor('a'), 'b/managed-settings.json': hooksFor('b') });
  const env = { PERI_HOOKS_MANAGED_DIR: path.join(root, 'b') };
  assert.deepEqual(commands((await load(root, { env, managedDir: path.join(root, 'a') })).hooks), ['a']);
  assert.deepEqual(commands((await load(root, { env, managedDir: undefined })).hooks), ['b']);
  assert.equal(defaultManagedDir('linux'), '/etc/claude-code');
  assert.equal(defaultManagedDir('darwin'), '/Library/Application Support/ClaudeCode');
});

test('project dir = home: the shared settings.json is read once, as user', async () => {
  const root = await tree({ [USER]: hooksFor('shared'), 'home/.claude/settings.local.json': hooksFor('local') });
  const result = await load(root, { projectDir: path.join(root, 'home') });
  assert.deepEqual(
    result.hooks.map((h) => [h.provenance.layer, commandOf(h)]),
    [
      ['user', 'shared'],
      ['local', 'local'],
    ],
  );
  assert.deepEqual(
    result.sources.map((s) => s.layer),
    ['user', 'local', 'managed'],
  );
  // Without the user source the same file is the project file.
  const projectOnly = await load(root, { projectDir: path.join(root, 'home'), settingSources: ['project'] });
  assert.deepEqual(
    projectOnly.hooks.map((h) => h.provenance.layer),
    ['project'],
  );
});

test('settingSources: [] loads only --settings and plugins; a subset loads only those', async () => {
  const root = await tree({
    [USER]: hooksFor('user'),
    [PROJECT]: hooksFor('project'),
    [LOCAL]: hooksFor('local'),
    [MANAGED]: hooksFor('managed'),
    'plugin/hooks/hooks.json': hooksFor('plugin'),
  });
  const none = await load(root, {
    settingSources: [],
    settings: [JSON.stringify(hooksFor('flag'))],
    pluginDirs: [path.join(root, 'plugin')],
  });
  assert.deepEqual(commands(none.hooks), ['flag', 'plugin']);
  // The order of the list does not change the collection order.
  const some = await load(root, { settingSources: ['local', 'user'] });
  assert.deepEqual(commands(some.hooks), ['user', 'local']);
});

test('--settings: a missing file and invalid inline JSON are warnings naming them; the rest loads', async () => {
  const root = await tree({ [USER]: hooksFor('user') });
  const result = await load(root, { settings: ['nope/settings.json', '{"hooks": {"Stop": [}}', ' {"hooks": {}}'] });
  assert.deepEqual(commands(result.hooks), ['user']);
  assert.deepEqual(result.diagnostics, [
    {
      severity: 'warning',
      code: 'file-missing',
      message: `--settings file does not exist: ${path.resolve('nope/settings.json')}`,
      file: path.resolve('nope/settings.json'),
      fix: 'give the path of a settings file, or inline JSON starting with {',
    },
    {
      severity: 'warning',
      code: 'invalid-json',
      message:
        '--settings[1] value "{\\"hooks\\": {\\"Stop\\": [}}" is not valid JSON (Unexpected token \'}\'); its settings are skipped',
      file: '--settings[1]',
      line: 1,
      column: 21,
      fix: 'settings files are strict JSON: no comments, no trailing commas, double-quoted keys',
    },
  ]);
  assert.deepEqual(
    result.sources.filter((s) => s.layer === 'flag').map((s) => [s.file, s.status]),
    [
      [path.resolve('nope/settings.json'), 'missing'],
      ['--settings[1]', 'invalid'],
      ['--settings[2]', 'loaded'],
    ],
  );
});

test('invalid JSON: a warning with line and column, other sources still load', async () => {
  const root = await tree({
    [USER]: '{\n  "hooks": {\n    "Stop": [],\n  }\n}\n',
    [PROJECT]: '{\n  // a comment\n  "hooks": {}\n}',
    [LOCAL]: '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}',
    [MANAGED]: '[1, 2]',
  });
  const result = await load(root);
  assert.equal(result.hooks.length, 1);
  const fix = 'settings files are strict JSON: no comments, no trailing commas, double-quoted keys';
  assert.deepEqual(result.diagnostics, [
    {
      severity: 'warning',
      code: 'invalid-json',
      message: `${path.join(root, USER)} is not valid JSON (Expected double-quoted property name); its settings are skipped`,
      file: path.join(root, USER),
      line: 4,
      column: 3,
      fix,
    },
    {
      severity: 'warning',
      code: 'invalid-json',
      message: `${path.join(root, PROJECT)} is not valid JSON (Expected property name or '}'); its settings are skipped`,
      file: path.join(root, PROJECT),
      line: 2,
      column: 3,
      fix,
    },
    {
      severity: 'warning',
      code: 'not-an-object',
      message: `${path.join(root, MANAGED)} must hold a JSON object; its settings are skipped`,
      file: path.join(root, MANAGED),
      line: 1,
      column: 1,
      fix: 'write { "hooks": { ... } }',
    },
  ]);
  assert.deepEqual(
    result.sources.map((s) => s.status),
    ['invalid', 'invalid', 'loaded', 'invalid'],
  );
});

test('an unreadable settings file (a directory) is a warning; an empty file is an empty configuration', async () => {
  const root = await tree({ [PROJECT]: '  \n', [LOCAL]: hooksFor('local') });
  await mkdir(path.join(root, USER), { recursive: true });
  const result = await load(root);
  assert.deepEqual(commands(result.hooks), ['local']);
  assert.deepEqual(
    result.diagnostics.map((d) => [d.code, d.severity, d.message]),
    [
      [
        'settings-unreadable',
        'warning',
        `cannot read ${path.join(root, USER)}: it is a directory; its settings are skipped`,
      ],
    ],
  );
  assert.deepEqual(
    result.sources.map((s) => s.status),
    ['invalid', 'loaded', 'loaded', 'missing'],
  );
});
