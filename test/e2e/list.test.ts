// `peri-hooks list`: the hooks panel, from the same loader as fire.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
  project.writeHome('.claude/settings.json', {
    hooks: { Stop: [{ hooks: [{ type: 'http', url: 'https://example.com/stop' }] }] },
  });
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Edit|Write',
          hooks: [
            { type: 'command', command: './hooks/guard.sh' },
            { type: 'prompt', prompt: 'Is this edit safe?' },
          ],
        },
      ],
      Stop: [{ hooks: [{ type: 'command', command: 'npm test' }] }],
    },
  });
});
after(() => project.cleanup());

test('json: every event with its count; per hook type, matcher, source file and command or URL', async () => {
  const result = await runCli(['list', '--project-dir', project.dir, '--output', 'json'], { env: project.env() });
  assert.equal(result.code, 0, result.stderr);
  const { events, sources } = JSON.parse(result.stdout);
  assert.equal(events.length, 34);
  assert.deepEqual(
    events
      .filter((e: { count: number }) => e.count > 0)
      .map((e: { event: string; count: number }) => [e.event, e.count]),
    [
      ['PreToolUse', 2],
      ['Stop', 2],
    ],
  );
  const stop = events.find((e: { event: string }) => e.event === 'Stop');
  assert.deepEqual(
    stop.hooks.map((h: Record<string, unknown>) => [h.type, h.matcher, h.layer, h.file, h.line, h.label]),
    [
      ['http', null, 'user', `${project.home}/.claude/settings.json`, 6, 'https://example.com/stop'],
      ['command', null, 'project', `${project.dir}/.claude/settings.json`, 21, 'npm test'],
    ],
  );
  assert.deepEqual(
    sources.map((s: { layer: string; status: string }) => [s.layer, s.status]),
    [
      ['user', 'loaded'],
      ['project', 'loaded'],
      ['local', 'missing'],
      ['managed', 'missing'],
    ],
  );
});

test('human: a block per configured event, then the events without hooks', async () => {
  const result = await runCli(['list', '--project-dir', project.dir], { env: project.env() });
  assert.equal(result.code, 0);
  const blocks = result.stdout.trimEnd().split('\n\n');
  assert.equal(blocks.length, 3);
  assert.match(
    blocks[0]!,
    /^PreToolUse \(2\)\n {2}command +Edit\|Write +project \S+settings\.json:\d+ +\.\/hooks\/guard\.sh\n {2}prompt +Edit\|Write +project \S+ +Is this edit safe\?$/,
  );
  assert.match(blocks[1]!, /^Stop \(2\)\n {2}http +\(all\) +user \S+:6 +https:\/\/example\.com\/stop\n/);
  assert.match(blocks[2]!, /^no hooks: PostToolUse, PostToolUseFailure, /);
  assert.doesNotMatch(blocks[2]!, /PreToolUse|\bStop\b/);
});
