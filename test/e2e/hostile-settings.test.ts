// Issue 13 item 5 through the CLI: each hostile project file used to make `fire` exit 1 with an internal
// error, so the managed deny beside it never ran. Now the deny blocks, and `validate` reports the file.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';
import { HOSTILE_FILES, MANAGED_DENY } from '../helpers/hostile-settings.ts';

let project: Project;
before(() => {
  project = makeProject();
  project.writeManaged('managed-settings.json', MANAGED_DENY);
});
after(() => project.cleanup());

for (const [shape, text] of Object.entries(HOSTILE_FILES)) {
  test(`${shape}: the managed deny still blocks, and validate reports instead of crashing`, async () => {
    project.write('.claude/settings.json', text);
    const fired = await runCli(['fire', 'PreToolUse'], {
      stdin: project.input('PreToolUse.tool_name-Bash'),
      env: project.env(),
    });
    assert.equal(fired.code, 2, fired.stderr.slice(0, 2000));
    assert.match(fired.stderr, /managed policy: no Bash/);
    assert.doesNotMatch(fired.stderr, /internal error/);
    assert.ok(fired.stderr.length < 5000, 'no diagnostic repeats the hostile text');

    const validated = await runCli(['validate', '--output', 'json', '--project-dir', project.dir], {
      env: project.env(),
    });
    assert.doesNotMatch(validated.stderr, /internal error/);
    const report = JSON.parse(validated.stdout) as { sources: Array<{ layer: string; status: string }> };
    const status = Object.fromEntries(report.sources.map((source) => [source.layer, source.status]));
    assert.equal(status.managed, 'loaded');
    assert.match(status.project!, /^(loaded|invalid)$/);
  });
}

test('a catastrophic matcher regex answers in a firing, on a tool name it would take hours on', async () => {
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        { matcher: '^(\\w|\\w)*$', hooks: [{ type: 'command', command: 'echo "tool matched" >&2; exit 2' }] },
      ],
    },
  });
  const tool = (name: string) => project.input('PreToolUse.tool_name-Bash', { tool_name: name });
  const missed = await runCli(['fire', 'PreToolUse'], {
    stdin: tool(`mcp__server__${'a'.repeat(40)}!`),
    env: project.env(),
  });
  assert.equal(missed.code, 0, missed.stderr.slice(0, 2000));
  const matched = await runCli(['fire', 'PreToolUse'], {
    stdin: tool(`mcp__server__${'a'.repeat(40)}`),
    env: project.env(),
  });
  assert.equal(matched.code, 2, matched.stderr.slice(0, 2000));
  assert.match(matched.stderr, /tool matched/);
});
