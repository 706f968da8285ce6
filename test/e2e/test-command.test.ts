// `peri-hooks test` as a real process: the sample policy in fixtures/policies, every reporter, discovery
// from the current folder, located errors, --update, usage errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { makeProject, runCli, type Project } from '../helpers/cli.ts';
import { parseTap, parseXml } from '../cases/formats.ts';

let project: Project;
before(() => { project = makeProject(); });
after(() => project.cleanup());

const cli = (args: string[], cwd?: string) => runCli(['test', ...args], { env: project.env(), ...(cwd ? { cwd } : {}) });

describe('the sample policy', () => {
  test('its passing cases pass: exit 0, the summary line last', async () => {
    const result = await cli(['fixtures/policies/guard']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(result.stdout.trimEnd().split('\n').at(-1), '8 passed, 0 failed');
    assert.equal(result.stdout.match(/^✓ /gm)?.length, 8);
  });

  test('with the deliberately failing cases: exit 1, expected against actual, the hooks\' stderr', async () => {
    const result = await cli(['fixtures/policies']);
    assert.equal(result.code, 1);
    assert.equal(result.stdout.trimEnd().split('\n').at(-1), '8 passed, 5 failed');
    assert.match(result.stdout, /- decision: expected allow, got deny\n/);
    assert.match(result.stdout, /stderr \| force pushes are not allowed here/);
    assert.match(result.stdout, /- updatedInput: expected \{"command":"npm install --ignore-scripts"\}, got \{"command":"npm ci"\}/);
    assert.match(result.stdout, /run peri-hooks test --update to record the actual decision/);
  });

  test('--reporter tap parses as TAP', async () => {
    const result = await cli(['fixtures/policies', '--reporter', 'tap']);
    assert.equal(result.code, 1);
    const tap = parseTap(result.stdout);
    assert.equal(tap.plan, 13);
    assert.equal(tap.points.filter((point) => !point.ok).length, 5);
    assert.deepEqual(tap.comments, ['8 passed, 5 failed']);
  });

  test('--reporter junit writes well-formed XML to --output-file; the console keeps the default report', async () => {
    const file = `${project.dir}/out/junit.xml`;
    project.write('out/.keep', '');
    const result = await cli(['fixtures/policies', '--reporter', 'junit', '--output-file', file]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /JUnit report written to .*junit\.xml/);
    assert.equal(result.stdout.trimEnd().split('\n').at(-1), '8 passed, 5 failed');
    const root = parseXml(readFileSync(file, 'utf8'));
    assert.deepEqual([root.attributes.tests, root.attributes.failures, root.attributes.errors], ['13', '5', '0']);
  });

  test('--reporter github prints annotations on the case file lines, with junit alongside', async () => {
    const result = await cli(['fixtures/policies', '--reporter', 'github', '--reporter', 'junit', '--output-file', `${project.dir}/gh.xml`]);
    assert.equal(result.code, 1);
    const annotations = result.stdout.split('\n').filter((line) => line.startsWith('::error file=fixtures/policies/deliberately-failing.hooks.test.json,line='));
    assert.equal(annotations.length, 6);
    assert.equal(result.stdout.trimEnd().split('\n').at(-1), '8 passed, 5 failed');
  });
});

test('without paths, case files are found from the current folder', async () => {
  const dir = `${project.dir}/discovered`;
  const quiet = project.write('discovered/hooks/quiet.sh', '#!/bin/sh\nexit 0\n');
  const settings = { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: quiet }] }], UserPromptSubmit: [{ hooks: [{ type: 'command', command: quiet }] }] } };
  project.write('discovered/hooks.test.json', [{ name: 'a quiet hook, no decision', tool: 'Read', toolInput: { file_path: '${CLAUDE_PROJECT_DIR}/a' }, settings, expect: { decision: 'none', exitCode: 0 } }]);
  project.write('discovered/.claude/hooks-tests/more.json', [{ name: 'a prompt', event: 'UserPromptSubmit', input: { prompt: 'hi' }, settings, expect: { decision: 'none' } }]);
  const result = await cli(['--jobs', '1'], dir);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.equal(result.stdout.trimEnd().split('\n').at(-1), '2 passed, 0 failed');
});

// This case passed before: "no hooks, no decision" for a dangerous call was green. It fails now, deliberately.
test('no hooks, no decision: the case fails, naming the project folder and how it was chosen', async () => {
  const dir = `${project.dir}/unguarded`;
  project.write('unguarded/hooks.test.json', [{ name: 'no hooks, no decision', tool: 'Bash', toolInput: { command: 'rm -rf /' }, expect: { decision: 'none', exitCode: 0 } }]);
  const result = await cli([], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(result.stdout, new RegExp(`no PreToolUse hooks loaded: no settings of project ${dir} \\(chosen by the folder holding the case file \\(no "projectDir" in it\\)\\) hold PreToolUse hooks; searched: `));
  assert.equal(result.stdout.trimEnd().split('\n').at(-1), '0 passed, 1 failed');
});

test('a case file that cannot be parsed is an error with its line, column and a fix; never a stack trace', async () => {
  const file = project.write('broken/hooks.test.json', '[\n  { "name": "a", "expect": { "decision": "deny" }, }\n]\n');
  project.write('broken/typo.hooks.test.json', '[\n  { "name": "a", "expect": { "decison": "deny" } }\n]\n');
  const result = await cli([`${project.dir}/broken`]);
  assert.equal(result.code, 1);
  assert.ok(result.stdout.includes(`peri-hooks: error: ${file}:2:52: the case file is not valid JSON`), result.stdout);
  assert.match(result.stdout, /typo\.hooks\.test\.json:2:30 \(\/0\/expect\/decison\): unknown field "decison"\n {2}fix: did you mean "decision"\?/);
  assert.equal(result.stdout.trimEnd().split('\n').at(-1), '0 passed, 2 failed');
  assert.doesNotMatch(result.stdout + result.stderr, /\n\s+at .*\.ts:\d+/);
});

test('--update records the decisions of new cases and the next run passes', async () => {
  const deny = project.write('hooks/deny.sh', '#!/bin/sh\necho "not here" >&2\nexit 2\n');
  const file = project.write('snap/hooks.test.json', { settings: { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: deny }] }] } }, cases: [{ name: 'new policy', tool: 'Bash' }] });
  const first = await cli([file, '--update']);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.match(first.stderr, /recorded expectations in .*hooks\.test\.json for "new policy"/);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).cases[0].expect, { decision: 'deny', exitCode: 2, reasonContains: 'not here' });
  const second = await cli([file]);
  assert.equal(second.code, 0);
});

test('usage errors exit 1 with a fix', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['--reporter', 'nope'], /unknown --reporter "nope"\n {2}fix: use one of: default, tap, junit, github/],
    [['--jobs', '0'], /--jobs must be a whole number of at least 1, not "0"\n {2}fix: e\.g\. --jobs 4 \(default: the number of cores\)/],
    [['--reporter', 'tap', '--reporter', 'github'], /only one of default, tap and github can write to the console\n {2}fix: /],
    [['--output-file', 'x.xml'], /--output-file names the JUnit file, but --reporter junit is not given\n {2}fix: /],
    [['no/such/path'], /cannot read no\/such\/path: ENOENT[^]*fix: /],
  ];
  for (const [args, message] of cases) {
    const result = await cli(args);
    assert.equal(result.code, 1, args.join(' '));
    assert.match(result.stderr + result.stdout, /fix: /, args.join(' '));
    assert.match(result.stderr + result.stdout, message, args.join(' '));
  }
});
