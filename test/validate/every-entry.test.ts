// `everyEntry` (validate's loading) reads more, but what fire loads stays the same: same hooks, same sources.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { type LoadOptions, loadSettings } from '../../src/config/index.ts';
import { ROOT } from '../helpers/cli.ts';

const TREE = join(ROOT, 'fixtures/mistakes');
const options: LoadOptions = {
  projectDir: join(TREE, 'project'),
  home: join(TREE, 'home'),
  env: {},
  managedDir: join(TREE, 'managed'),
  pluginDirs: [join(TREE, 'plugins/guard')],
};

test('everyEntry adds unapplied hooks and the diagnostics inside dropped entries, and changes nothing that fires', async () => {
  const fire = await loadSettings(options);
  const every = await loadSettings({ ...options, everyEntry: true });
  assert.deepEqual(every.hooks, fire.hooks);
  assert.deepEqual(every.settings, fire.settings);
  assert.deepEqual(every.sources, fire.sources);
  assert.equal(fire.unapplied, undefined);
  assert.ok(fire.diagnostics.every((d) => every.diagnostics.some((e) => JSON.stringify(e) === JSON.stringify(d))));
  // settings.local.json is inapplicable: its loadable hooks and those inside its dropped entries come back unapplied.
  const local = every
    .unapplied!.filter((hook) => hook.provenance.file.endsWith('settings.local.json'))
    .map((hook) => hook.provenance.pointer);
  assert.deepEqual(local.sort(), [
    '/hooks/PreToolUse/2/hooks/0',
    '/hooks/PreToolUse/3/hooks/0',
    '/hooks/Stop/0/hooks/0',
    '/hooks/UserPromptSubmit/0/hooks/0',
    '/hooks/postToolUse/0/hooks/0',
  ]);
  const inside = every.diagnostics
    .filter((d) => !fire.diagnostics.some((f) => JSON.stringify(f) === JSON.stringify(d)))
    .map((d) => [d.severity, d.code, d.pointer]);
  assert.deepEqual(inside, [['warning', 'timeout-in-ms', '/hooks/postToolUse/0/hooks/0/timeout']]);
});

test('inside dropped entries: a handler without its array, a flat handler, a non-string matcher, a mis-cased event', async () => {
  const inline = JSON.stringify({
    hooks: {
      Stop: [
        { matcher: '', hooks: { type: 'command', command: 'true', timeout: 9000 } },
        { type: 'command', command: 'true', timeout: 8000 },
        { matcher: ['x'], hooks: [{ type: 'command', command: 'true', timeout: 7000 }] },
      ],
      stop: [{ hooks: [{ type: 'command', command: 'true', timeout: 6000 }] }],
      Nonsense: [{ hooks: [{ type: 'command', command: 'true', timeout: 5000 }] }],
    },
  });
  const load = {
    projectDir: '/nonexistent',
    home: '/nonexistent',
    env: {},
    settingSources: [],
    settings: [inline],
  } satisfies LoadOptions;
  const fire = await loadSettings(load);
  const every = await loadSettings({ ...load, everyEntry: true });
  const timeouts = (diagnostics: typeof fire.diagnostics) =>
    diagnostics.filter((d) => d.code === 'timeout-in-ms').map((d) => d.pointer);
  assert.deepEqual(timeouts(fire.diagnostics), []);
  // A name too far from any event is not read: there is no event to read it as.
  assert.deepEqual(timeouts(every.diagnostics), [
    '/hooks/Stop/0/hooks/timeout',
    '/hooks/Stop/1/timeout',
    '/hooks/Stop/2/hooks/0/timeout',
    '/hooks/stop/0/hooks/0/timeout',
  ]);
  assert.deepEqual(every.hooks, []);
  assert.deepEqual(
    every.unapplied!.map((hook) => hook.event),
    ['Stop', 'Stop', 'Stop', 'Stop'],
  );
});
