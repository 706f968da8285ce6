import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { LoadedHook } from '../../src/types.ts';
import { commandOf, hooksFor, LOCAL, load, MANAGED, PROJECT, tree, USER } from './tree.ts';

const state = (hooks: LoadedHook[]) => hooks.map((h) => [commandOf(h), h.disabledReason ?? 'on']);

/** One hook per layer, plus two plugins: `forced` (force-enabled by managed enabledPlugins when asked) and `other`. */
async function layered(extra: { user?: object; project?: object; local?: object; flag?: object; managed?: object }) {
  const root = await tree({
    [USER]: hooksFor('user', undefined, extra.user),
    [PROJECT]: hooksFor('project', undefined, extra.project),
    [LOCAL]: hooksFor('local', undefined, extra.local),
    'flag.json': hooksFor('flag', undefined, extra.flag),
    [MANAGED]: hooksFor('managed', undefined, extra.managed),
    'forced/.claude-plugin/plugin.json': { name: 'forced', hooks: hooksFor('forced-plugin').hooks },
    'other/hooks/hooks.json': hooksFor('other-plugin'),
  });
  const result = await load(root, {
    settings: [path.join(root, 'flag.json')],
    pluginDirs: [path.join(root, 'forced'), path.join(root, 'other')],
  });
  return { root, result };
}

test('no kill switch: every hook on', async () => {
  const { result } = await layered({});
  assert.deepEqual(
    state(result.hooks).map(([, s]) => s),
    ['on', 'on', 'on', 'on', 'on', 'on', 'on'],
  );
});

test('managed disableAllHooks: true turns off every hook, managed and force-enabled plugins included', async () => {
  const { root, result } = await layered({
    managed: { disableAllHooks: true, enabledPlugins: { 'forced@market': true } },
  });
  const reason = `disableAllHooks: true in managed settings ${path.join(root, MANAGED)} turns off every hook`;
  assert.ok(result.hooks.every((h) => h.disabledReason === reason));
  assert.equal(result.settings.disableAllHooks, true);
});

test('disableAllHooks elsewhere: all but managed hooks and force-enabled plugins are off', async () => {
  const { root, result } = await layered({
    user: { disableAllHooks: true },
    managed: { enabledPlugins: { 'forced@market': true, 'other@market': false } },
  });
  const reason = `disableAllHooks: true in user settings ${path.join(root, USER)}`;
  assert.deepEqual(state(result.hooks), [
    ['user', reason],
    ['project', reason],
    ['local', reason],
    ['flag', reason],
    ['managed', 'on'],
    ['forced-plugin', 'on'],
    ['other-plugin', reason],
  ]);
});

test('disableAllHooks precedence: managed > flag > local > project > user', async () => {
  assert.equal(
    (await layered({ user: { disableAllHooks: true }, project: { disableAllHooks: false } })).result.settings
      .disableAllHooks,
    false,
  );
  assert.equal(
    (await layered({ project: { disableAllHooks: false }, local: { disableAllHooks: true } })).result.settings
      .disableAllHooks,
    true,
  );
  assert.equal(
    (await layered({ local: { disableAllHooks: true }, flag: { disableAllHooks: false } })).result.settings
      .disableAllHooks,
    false,
  );
  const managedOff = await layered({ flag: { disableAllHooks: true }, managed: { disableAllHooks: false } });
  assert.equal(managedOff.result.settings.disableAllHooks, false);
  assert.ok(managedOff.result.hooks.every((h) => h.disabledReason === undefined));
});

test('allowManagedHooksOnly in managed: only managed hooks and force-enabled plugins run; elsewhere it is ignored', async () => {
  const { root, result } = await layered({
    managed: { allowManagedHooksOnly: true, enabledPlugins: { 'forced@market': true } },
  });
  const reason = `allowManagedHooksOnly: true in managed settings ${path.join(root, MANAGED)}: only managed hooks run`;
  assert.deepEqual(state(result.hooks), [
    ['user', reason],
    ['project', reason],
    ['local', reason],
    ['flag', reason],
    ['managed', 'on'],
    ['forced-plugin', 'on'],
    ['other-plugin', reason],
  ]);
  assert.equal(result.settings.allowManagedHooksOnly, true);
  const ignored = await layered({ project: { allowManagedHooksOnly: true } });
  assert.equal(ignored.result.settings.allowManagedHooksOnly, false);
  assert.ok(ignored.result.hooks.every((h) => h.disabledReason === undefined));
});

test('managed-settings.d drop-ins override managed-settings.json in name order; http lists merge across them', async () => {
  const root = await tree({
    [MANAGED]: { disableAllHooks: true, allowedHttpHookUrls: ['https://base/*'] },
    'managed/managed-settings.d/10-a.json': { disableAllHooks: false },
    'managed/managed-settings.d/20-b.json': { allowedHttpHookUrls: ['https://drop-in/*'] },
  });
  const result = await load(root);
  assert.equal(result.settings.disableAllHooks, false);
  assert.deepEqual(result.settings.managedAllowedHttpHookUrls, ['https://base/*', 'https://drop-in/*']);
});

// As Claude Code 2.1.332 was observed to do: every file's entries count, so a [] does not refuse what another file
// lists; the lists apply to managed hooks only where managed settings set one, and then merged with the rest.
test('http settings: both lists merged across files; managed hooks get them only where managed settings set them', async () => {
  const { result } = await layered({
    user: { allowedHttpHookUrls: ['https://user/*'], httpHookAllowedEnvVars: ['A', 'B'] },
    project: { allowedHttpHookUrls: ['https://project/*'], httpHookAllowedEnvVars: ['B', 'C'] },
  });
  assert.deepEqual(result.settings, {
    disableAllHooks: false,
    allowManagedHooksOnly: false,
    allowedHttpHookUrls: ['https://user/*', 'https://project/*'],
    httpHookAllowedEnvVars: ['A', 'B', 'C'],
    managedAllowedHttpHookUrls: undefined,
    managedHttpHookAllowedEnvVars: undefined,
  });
  const managed = await layered({
    local: { allowedHttpHookUrls: [], httpHookAllowedEnvVars: ['TOK'] },
    managed: { allowedHttpHookUrls: ['https://corp/*'], httpHookAllowedEnvVars: [] },
  });
  assert.deepEqual(managed.result.settings.allowedHttpHookUrls, ['https://corp/*']);
  assert.deepEqual(managed.result.settings.managedAllowedHttpHookUrls, ['https://corp/*']);
  assert.deepEqual(managed.result.settings.httpHookAllowedEnvVars, ['TOK']);
  assert.deepEqual(managed.result.settings.managedHttpHookAllowedEnvVars, ['TOK']);
  const localOnly = await layered({ local: { allowedHttpHookUrls: [], httpHookAllowedEnvVars: ['OTHER'] } });
  assert.deepEqual(localOnly.result.settings.allowedHttpHookUrls, []);
  assert.equal(localOnly.result.settings.managedAllowedHttpHookUrls, undefined);
  assert.equal(localOnly.result.settings.managedHttpHookAllowedEnvVars, undefined);
  const emptyBeside = await layered({
    user: { allowedHttpHookUrls: ['https://user/*'] },
    project: { allowedHttpHookUrls: [] },
  });
  assert.deepEqual(emptyBeside.result.settings.allowedHttpHookUrls, ['https://user/*']);
});
