// --verbose / PERI_HOOKS_DEBUG: one timestamped line per stage on stderr (or in a file), never a secret.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { hooksSettings, makeProject, runCli } from '../helpers/cli.ts';

const SECRET = 'sk-live-do-not-print-0123456789';
const project = makeProject();
after(() => project.cleanup());
project.write(
  '.claude/settings.json',
  hooksSettings({
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no pushing" >&2; exit 2' }] },
      { matcher: 'Read', hooks: [{ type: 'command', command: 'true' }] },
      { matcher: 'Bash', hooks: [{ type: 'http', url: `http://user:${SECRET}@127.0.0.1:9/hook`, timeout: 5 }] },
    ],
  }),
);
const input = project.input('PreToolUse', { tool_input: { command: `git push --token ${SECRET}` } });
const TRACE = /^peri-hooks: trace \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \+\d+\.\d ms (\w+): (.*)$/;

function traced(stderr: string): Array<[stage: string, message: string]> {
  return stderr
    .split('\n')
    .map((line) => TRACE.exec(line))
    .filter((match) => match !== null)
    .map((match) => [match[1]!, match[2]!]);
}

test('--verbose traces each stage in order: input (the tool and the call, redacted), sources, plan, each hook start and end, reduce (the decision and its reason), settle', async () => {
  const result = await runCli(['fire', 'PreToolUse', '--verbose'], {
    stdin: input,
    env: project.env({ API_TOKEN: SECRET }),
    cwd: project.dir,
  });
  assert.equal(result.code, 2, result.stderr);
  const lines = traced(result.stderr);
  const stages = [...new Set(lines.map(([stage]) => stage))];
  assert.deepEqual(stages, ['input', 'sources', 'plan', 'hook', 'reduce', 'settle']);
  assert.match(
    lines.find(([stage]) => stage === 'input')![1],
    /^PreToolUse, \d+ bytes from stdin, session .*, tool Bash "git push --token \[redacted\]"$/,
  );
  assert.ok(
    lines.some(([stage, message]) => stage === 'sources' && message.endsWith('.claude/settings.json: loaded, 3 hooks')),
    result.stderr,
  );
  assert.match(lines.find(([stage]) => stage === 'plan')![1], /^2 to run; .*; skipped: "true" \(matcher\)$/);
  assert.ok(
    lines.some(
      ([stage, message]) =>
        stage === 'hook' && /^end "echo \\"no pushing\\" >&2; exit 2": exit 2 in \d+ ms$/.test(message),
    ),
    result.stderr,
  );
  assert.ok(
    lines.some(
      ([stage, message]) => stage === 'hook' && /^end "http:\/\/\*\*\*@127\.0\.0\.1:9\/hook": error: /.test(message),
    ),
    result.stderr,
  );
  assert.equal(
    lines.find(([stage]) => stage === 'reduce')![1],
    'blocks, decision deny, reason "no pushing"; 1 non-blocking error',
  );
  // The decision's stderr is still there, after the trace.
  assert.match(result.stderr, /no pushing/);
  assert.ok(!result.stderr.includes(SECRET) && !result.stdout.includes(SECRET), 'no secret in the output');
});

test('without --verbose there is no trace; PERI_HOOKS_DEBUG=1 turns it on, 0 keeps it off', async () => {
  const quiet = await runCli(['fire', 'PreToolUse'], {
    stdin: input,
    env: project.env({ PERI_HOOKS_DEBUG: '0' }),
    cwd: project.dir,
  });
  assert.equal(quiet.code, 2);
  assert.deepEqual(traced(quiet.stderr), []);
  const debug = await runCli(['fire', 'PreToolUse'], {
    stdin: input,
    env: project.env({ PERI_HOOKS_DEBUG: '1' }),
    cwd: project.dir,
  });
  assert.equal(debug.code, 2);
  assert.ok(traced(debug.stderr).length >= 6, debug.stderr);
});

test('PERI_HOOKS_DEBUG=<path> appends the trace to that file and leaves stderr as Claude Code reads it', async () => {
  const file = join(project.home, 'trace.log');
  const plain = await runCli(['fire', 'PreToolUse', '--output', 'claude'], {
    stdin: input,
    env: project.env(),
    cwd: project.dir,
  });
  const result = await runCli(['fire', 'PreToolUse', '--output', 'claude'], {
    stdin: input,
    env: project.env({ PERI_HOOKS_DEBUG: file }),
    cwd: project.dir,
  });
  assert.equal(result.code, 2);
  assert.equal(result.stderr, plain.stderr);
  const written = readFileSync(file, 'utf8');
  assert.ok(
    traced(written).some(([stage]) => stage === 'reduce'),
    written,
  );
  assert.ok(!written.includes(SECRET));
});
