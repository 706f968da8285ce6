import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { commandOf, hooksFor, load, tree } from './tree.ts';

const bare = (command: string) => ({ PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command }] }] });

test('plugin hooks: hooks.json (wrapped or bare), then plugin.json hooks inline, as a path or as paths', async () => {
  const root = await tree({
    'wrapped/hooks/hooks.json': { description: 'formatter', ...hooksFor('wrapped') },
    'wrapped/.claude-plugin/plugin.json': { name: 'fmt', hooks: bare('inline') },
    'bare/hooks/hooks.json': { description: 'no wrapper', ...bare('bare') },
    'bare/.claude-plugin/plugin.json': { name: 'lint', hooks: './extra/one.json' },
    'bare/extra/one.json': hooksFor('one'),
    'multi/.claude-plugin/plugin.json': { hooks: ['./a.json', 'b.json'] },
    'multi/a.json': bare('a'),
    'multi/b.json': hooksFor('b'),
  });
  const dirs = ['wrapped', 'bare', 'multi'].map((d) => path.join(root, d));
  const result = await load(root, { settingSources: [], pluginDirs: dirs });
  assert.deepEqual(result.diagnostics, []);
  assert.deepEqual(
    result.hooks.map((h) => [
      commandOf(h),
      h.provenance.pluginName,
      path.relative(root, h.provenance.file),
      h.provenance.pointer,
    ]),
    [
      ['wrapped', 'fmt', 'wrapped/hooks/hooks.json', '/hooks/PreToolUse/0/hooks/0'],
      ['inline', 'fmt', 'wrapped/.claude-plugin/plugin.json', '/hooks/PostToolUse/0/hooks/0'],
      ['bare', 'lint', 'bare/hooks/hooks.json', '/PostToolUse/0/hooks/0'],
      ['one', 'lint', 'bare/extra/one.json', '/hooks/PreToolUse/0/hooks/0'],
      ['a', 'multi', 'multi/a.json', '/PostToolUse/0/hooks/0'],
      ['b', 'multi', 'multi/b.json', '/hooks/PreToolUse/0/hooks/0'],
    ],
  );
  const first = result.hooks[0]!;
  assert.equal(first.provenance.layer, 'plugin');
  assert.equal(first.provenance.pluginRoot, dirs[0]);
  assert.equal(first.id, `plugin:${path.join(dirs[0]!, 'hooks/hooks.json')}#/hooks/PreToolUse/0/hooks/0`);
  assert.deepEqual(
    result.sources.map((s) => [path.relative(root, s.file), s.status, s.hooks]),
    [
      ['wrapped/hooks/hooks.json', 'loaded', 1],
      ['wrapped/.claude-plugin/plugin.json', 'loaded', 1],
      ['bare/hooks/hooks.json', 'loaded', 1],
      ['bare/.claude-plugin/plugin.json', 'loaded', 0],
      ['bare/extra/one.json', 'loaded', 1],
      ['multi/hooks/hooks.json', 'missing', 0],
      ['multi/.claude-plugin/plugin.json', 'loaded', 0],
      ['multi/a.json', 'loaded', 1],
      ['multi/b.json', 'loaded', 1],
    ],
  );
});

test('plugin problems: missing dir, missing or duplicate hook paths, invalid plugin.json, bad hooks field', async () => {
  const root = await tree({
    'p/hooks/hooks.json': hooksFor('standard'),
    'p/.claude-plugin/plugin.json': { name: 'p', hooks: ['./hooks/hooks.json', './gone.json'] },
    'q/hooks/hooks.json': hooksFor('q'),
    'q/.claude-plugin/plugin.json': '{ "name": "q", }',
    'r/.claude-plugin/plugin.json': { hooks: 42 },
  });
  const result = await load(root, {
    settingSources: [],
    pluginDirs: ['p', 'missing', 'q', 'r'].map((d) => path.join(root, d)),
  });
  // plugin.json of q is invalid, so the folder name names the plugin; its hooks.json still loads.
  assert.deepEqual(
    result.hooks.map((h) => [commandOf(h), h.provenance.pluginName]),
    [
      ['standard', 'p'],
      ['q', 'q'],
    ],
  );
  const manifest = path.join(root, 'p/.claude-plugin/plugin.json');
  assert.deepEqual(
    result.diagnostics.map((d) => [
      d.severity,
      d.code,
      d.file && path.relative(root, d.file),
      d.pointer,
      d.line,
      d.message,
    ]),
    [
      [
        'warning',
        'plugin-dir-missing',
        'missing',
        undefined,
        undefined,
        `Plugin directory does not exist: ${path.join(root, 'missing')}`,
      ],
      [
        'note',
        'plugin-hooks-duplicate',
        'p/.claude-plugin/plugin.json',
        '/hooks/0',
        4,
        `${path.join(root, 'p/hooks/hooks.json')} is already loaded; read once`,
      ],
      [
        'warning',
        'file-missing',
        'p/.claude-plugin/plugin.json',
        '/hooks/1',
        5,
        `hooks file named in plugin.json does not exist: ${path.join(root, 'p/gone.json')}`,
      ],
      [
        'warning',
        'invalid-json',
        'q/.claude-plugin/plugin.json',
        undefined,
        1,
        `${path.join(root, 'q/.claude-plugin/plugin.json')} is not valid JSON (Expected double-quoted property name); its settings are skipped`,
      ],
      [
        'warning',
        'plugin-hooks-invalid',
        'r/.claude-plugin/plugin.json',
        '/hooks',
        2,
        '"hooks" in plugin.json must be an object of hooks, a path, or an array of paths',
      ],
    ],
  );
  assert.equal(result.diagnostics[2]!.file, manifest);
});
