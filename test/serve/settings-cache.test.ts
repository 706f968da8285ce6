// The server's settings cache: one load while nothing changes, a reload as soon as any file read or looked
// for changes (size, mtime, inode), including files that were absent.

import assert from 'node:assert/strict';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { settingsCache } from '../../src/config/settings-cache.ts';
import { sourcesToLoad } from '../../src/config/sources.ts';
import { makeProject } from '../helpers/cli.ts';

const HOOK = (command: string) => ({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command }] }] } });

test('settings load once per project while unchanged, and again after any watched file changes', async (t) => {
  const project = makeProject();
  t.after(() => project.cleanup());
  const plugin = join(project.home, 'plugin');
  const sources = sourcesToLoad({ projectDir: project.dir, env: project.env(), pluginDirs: [plugin] }, project.dir);
  const cache = settingsCache();
  const commands = async () =>
    (await cache.load(sources)).hooks.map((hook) => (hook.handler as { command: string }).command);

  assert.deepEqual(await commands(), []);
  assert.deepEqual(await commands(), []);
  assert.equal(cache.loads(), 1);

  const steps: Array<[string, () => void, string[]]> = [
    ['an absent project file appears', () => project.write('.claude/settings.json', HOOK('one')), ['one']],
    [
      'a file is replaced by rename (new inode, same size)',
      () => {
        const next = project.write('.claude/next.json', HOOK('two'));
        renameSync(next, join(project.dir, '.claude/settings.json'));
      },
      ['two'],
    ],
    [
      'a managed drop-in is added',
      () => project.writeManaged('managed-settings.d/10-team.json', HOOK('team')),
      ['two', 'team'],
    ],
    [
      'a plugin folder appears with its hooks',
      () => project.writeHome('plugin/hooks/hooks.json', HOOK('plugged')),
      ['two', 'team', 'plugged'],
    ],
    [
      'the user file is written in place',
      () => writeFileSync(project.writeHome('.claude/settings.json', HOOK('user')), JSON.stringify(HOOK('me'))),
      ['me', 'two', 'team', 'plugged'],
    ],
  ];
  for (const [index, [what, change, expected]] of steps.entries()) {
    change();
    assert.deepEqual((await commands()).sort(), [...expected].sort(), what);
    assert.deepEqual((await commands()).sort(), [...expected].sort(), `${what} (cached)`);
    assert.equal(cache.loads(), index + 2, `${what}: one reload, then none`);
  }
});

test('concurrent requests of one project share one load', async (t) => {
  const project = makeProject();
  t.after(() => project.cleanup());
  project.write('.claude/settings.json', HOOK('one'));
  const cache = settingsCache();
  const sources = sourcesToLoad({ env: project.env() }, project.dir);
  await Promise.all(Array.from({ length: 20 }, () => cache.load(sources)));
  assert.equal(cache.loads(), 1);
});

test('the cache holds a bounded number of projects, dropping the one used longest ago', async (t) => {
  const projects = [makeProject(), makeProject(), makeProject()];
  t.after(() => {
    for (const project of projects) project.cleanup();
  });
  const cache = settingsCache(2);
  const [a, b, c] = projects.map((project) => sourcesToLoad({ env: project.env() }, project.dir));
  for (const sources of [a, b, a, c]) await cache.load(sources!);
  assert.equal(cache.size(), 2);
  assert.equal(cache.loads(), 3);
  await cache.load(a!);
  assert.equal(cache.loads(), 3, 'a, used after b, is still cached');
  await cache.load(b!);
  assert.equal(cache.loads(), 4, 'b was dropped for c');
  assert.equal(cache.size(), 2);
});

test('a layer left out by settingSources is not watched: its file changing reloads nothing, a loaded one still does', async (t) => {
  const project = makeProject();
  t.after(() => project.cleanup());
  const sources = sourcesToLoad({ projectDir: project.dir, env: project.env(), settingSources: ['user'] }, project.dir);
  const cache = settingsCache();
  const commands = async () =>
    (await cache.load(sources)).hooks.map((hook) => (hook.handler as { command: string }).command);
  assert.deepEqual(await commands(), []);
  project.write('.claude/settings.json', HOOK('project'));
  project.write('.claude/settings.local.json', HOOK('local'));
  project.writeManaged('managed-settings.json', HOOK('managed'));
  assert.deepEqual(await commands(), []);
  assert.equal(cache.loads(), 1, 'no reload for files the load never reads');
  project.writeHome('.claude/settings.json', HOOK('user'));
  assert.deepEqual(await commands(), ['user']);
  assert.equal(cache.loads(), 2);
});
