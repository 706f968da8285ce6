// `fire --tool <Name> [--command | --file | --input-json]`: a hook input built for a quick try by hand.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeProject, runCli } from '../helpers/cli.ts';

test('fire --tool builds the input: PreToolUse by default, the current folder, the tool input from one flag', async () => {
  const project = makeProject();
  try {
    const log = join(project.dir, 'seen.jsonl');
    project.write('.claude/settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: `cat >> ${log}; echo >> ${log}; grep -q 'push --force' ${log} && { echo "no force pushes" >&2; exit 2; }; exit 0`,
              },
            ],
          },
        ],
        PostToolUse: [{ hooks: [{ type: 'command', command: `cat >> ${log}; echo >> ${log}` }] }],
      },
    });
    const run = (args: string[]) => runCli(['fire', ...args], { cwd: project.dir, env: project.env() });
    const denied = await run(['--tool', 'Bash', '--command', 'git push --force']);
    assert.equal(denied.code, 2, denied.stderr);
    assert.match(denied.stderr, /no force pushes/);
    await run(['--tool', 'Read', '--file', 'notes.txt']);
    await run([
      'PostToolUse',
      '--tool',
      'Edit',
      '--input-json',
      '{"file_path":"a.ts","old_string":"x","new_string":"y"}',
    ]);
    const seen = (await import('node:fs'))
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      seen.map((input) => [input.hook_event_name, input.tool_name, input.tool_input, input.cwd]),
      [
        ['PreToolUse', 'Bash', { command: 'git push --force' }, project.dir],
        ['PostToolUse', 'Edit', { file_path: 'a.ts', old_string: 'x', new_string: 'y' }, project.dir],
      ],
    );
    const both = await run(['--tool', 'Bash', '--command', 'ls', '--file', 'x']);
    assert.equal(both.code, 1);
    assert.equal(
      both.stderr,
      'peri-hooks: --command and --file each give the whole tool input\n  fix: give one of --command, --file, --input-json\n',
    );
    const notAnObject = await run(['--tool', 'Bash', '--input-json', '[1]']);
    assert.equal(notAnObject.code, 1);
    assert.match(notAnObject.stderr, /--input-json must be a JSON object/);
    const notATool = await run(['Stop', '--tool', 'Bash']);
    assert.equal(notATool.code, 1);
    assert.match(notATool.stderr, /--tool applies to tool events only, not Stop/);
  } finally {
    project.cleanup();
  }
});
