// The run's settings cache: one load per source set, a new load when a named settings file is another file
// or has changed, and the files --watch watches (settings looked at, hook scripts named by command hooks).

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { runSettingsCache } from '../../src/cases/settings-cache.ts';
import { sourcesToLoad } from '../../src/config/sources.ts';
import { makeProject, type Project } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

test('one load per source set; a changed settings file loads again; the watched files', async () => {
  const script = project.write('hooks/guard.sh', '#!/bin/sh\nexit 0\n');
  const policy = project.write('policy.json', {
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh --strict' }] }] },
  });
  const sources = (settings: string[]) =>
    sourcesToLoad({ projectDir: project.dir, env: project.env(), settings, settingSources: [] }, project.dir);
  const cache = runSettingsCache();
  const first = await cache.load(sources([policy]));
  assert.equal(first.hooks.length, 1);
  assert.equal(await cache.load(sources([policy])), first, 'the same sources share one load');
  assert.equal(cache.loads(), 1);
  await cache.load(sources(['{"hooks":{}}']));
  assert.equal(cache.loads(), 2, 'other sources load on their own');
  writeFileSync(
    policy,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: script },
              { type: 'command', command: 'true' },
            ],
          },
        ],
      },
    }),
  );
  const changed = await cache.load(sources([policy]));
  assert.equal(cache.loads(), 3, 'a settings file that changed loads again');
  assert.equal(changed.hooks.length, 2);
  assert.deepEqual(cache.files(), [policy, script].sort());
});
