// In JSON mode an error is a JSON document on stdout too (same exit code), so that a script never parses English.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { makeProject, runCli } from '../helpers/cli.ts';

const project = makeProject();
after(() => project.cleanup());

test('fire --output json with an invalid input: every problem, each with its pointer; exit 1', async () => {
  const input = JSON.stringify({
    session_id: 5,
    transcript_path: '',
    cwd: project.dir,
    hook_event_name: 'PreToolUse',
    tool_input: [],
  });
  const result = await runCli(['fire', 'PreToolUse', '--output', 'json'], {
    stdin: input,
    env: project.env(),
    cwd: project.dir,
  });
  assert.equal(result.code, 1);
  const { schemaVersion, error } = JSON.parse(result.stdout);
  assert.equal(schemaVersion, 1);
  assert.equal(error.code, 'invalid-input');
  assert.equal(error.file, 'stdin');
  assert.equal(error.pointer, '/session_id');
  assert.deepEqual(
    error.problems.map((problem: { pointer: string }) => problem.pointer),
    ['/session_id', '/tool_name', '/tool_input', '/tool_use_id'],
  );
  assert.match(error.problems[2].fix, /make \$\.tool_input a JSON object/);
  assert.equal(error.failClosed, false);
  // The message for people is on stderr, as without JSON.
  assert.match(result.stderr, /^peri-hooks: invalid PreToolUse input on stdin, 4 problems:\n {2}at \$\.session_id: /);
});

test('under --fail-closed the JSON error says so and the exit is the block', async () => {
  const result = await runCli(['fire', 'PreToolUse', '--output=json', '--fail-closed'], {
    stdin: '{',
    env: project.env(),
    cwd: project.dir,
  });
  assert.equal(result.code, 2);
  const { error } = JSON.parse(result.stdout);
  assert.equal(error.code, 'invalid-json');
  assert.equal(error.failClosed, true);
});

test('usage errors in JSON mode are JSON: an unknown event, a missing value, an unknown option', async () => {
  const rows: Array<[string[], string, RegExp]> = [
    [['fire', 'Foo', '--output', 'json'], 'unknown-event', /unknown hook event "Foo"$/],
    [['validate', '--output', 'json', '--settings'], 'usage', /--settings needs a value/],
    [['list', '--output', 'json', '--bogus'], 'usage', /unknown option --bogus/],
  ];
  for (const [args, code, message] of rows) {
    const result = await runCli(args, { stdin: '', env: project.env(), cwd: project.dir });
    assert.equal(result.code, 1, args.join(' '));
    const { error } = JSON.parse(result.stdout);
    assert.equal(error.code, code, args.join(' '));
    assert.match(error.message, message, args.join(' '));
    assert.equal(typeof error.fix, 'string', args.join(' '));
  }
});

test('without JSON mode stdout stays empty on an error', async () => {
  const result = await runCli(['fire', 'Foo'], { stdin: '', env: project.env(), cwd: project.dir });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
});
