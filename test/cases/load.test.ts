// Case files: the discovery convention, the project each file tests, and located errors for files and
// cases that cannot be read.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultProjectDir, discoverCaseFiles } from '../../src/cases/discover.ts';
import { loadCaseFile } from '../../src/cases/load.ts';
import { makeProject, type Project } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

describe('discovery', () => {
  test('hooks.test.json, *.hooks.test.json and .claude/hooks-tests/*.json; not node_modules, not other dot folders', () => {
    const wanted = [
      project.write('hooks.test.json', []),
      project.write('sub/push.hooks.test.json', []),
      project.write('.claude/hooks-tests/a.json', []),
    ];
    project.write('node_modules/x/hooks.test.json', []);
    project.write('.git/hooks.test.json', []);
    project.write('other.json', []);
    project.write('.claude/settings.json', {});
    project.write('.claude/hooks-tests/notes.txt', '');
    const found = discoverCaseFiles([], project.dir);
    assert.deepEqual(found.errors, []);
    assert.deepEqual(found.files, [...wanted].sort());
  });

  test('a named file is read whatever its name; a missing path and a folder without cases are errors', () => {
    const named = project.write('cases/anything.json', []);
    project.write('empty/readme.md', '');
    const found = discoverCaseFiles(['cases/anything.json', 'missing', 'empty'], project.dir);
    assert.deepEqual(found.files, [named]);
    assert.deepEqual(
      found.errors.map((error) => error.code),
      ['case-file-unreadable', 'no-case-files'],
    );
    assert.match(found.errors[0]!.message, /cannot read missing: ENOENT/);
    assert.ok(found.errors.every((error) => error.fix));
  });

  test("the project of .claude/hooks-tests/x.json is the folder holding .claude; else the file's folder", () => {
    assert.deepEqual(defaultProjectDir('/repo/.claude/hooks-tests/x.json'), {
      dir: '/repo',
      from: "the folder holding the case file's .claude/hooks-tests",
    });
    assert.deepEqual(defaultProjectDir('/repo/sub/hooks.test.json'), {
      dir: '/repo/sub',
      from: 'the folder holding the case file (no "projectDir" in it)',
    });
  });
});

describe('loading', () => {
  test('an array of cases; settings paths relative to the file; event defaults to PreToolUse', async () => {
    const file = project.write('load/hooks.test.json', [
      { name: 'a', tool: 'Bash', settings: 'policy.json' },
      { name: 'b', event: 'Stop', settings: { hooks: {} } },
    ]);
    const loaded = await loadCaseFile(file);
    assert.deepEqual(loaded.errors, []);
    assert.deepEqual(
      loaded.cases.map((item) => [item.name, item.event, item.line, item.settings]),
      [
        ['a', 'PreToolUse', 2, [path.join(project.dir, 'load/policy.json')]],
        ['b', 'Stop', 7, ['{"hooks":{}}']],
      ],
    );
    assert.equal(loaded.cases[0]!.projectDir, path.join(project.dir, 'load'));
  });

  test("the object form shares projectDir and settings; a case's own settings win", async () => {
    const file = project.write('shared/x.hooks.test.json', {
      projectDir: '..',
      settings: 's.json',
      cases: [{ name: 'a' }, { name: 'b', settings: ['t.json'] }],
    });
    const loaded = await loadCaseFile(file);
    assert.equal(loaded.cases[0]!.projectDir, project.dir);
    assert.deepEqual(
      loaded.cases.map((item) => item.settings),
      [[path.join(project.dir, 'shared/s.json')], [path.join(project.dir, 'shared/t.json')]],
    );
    assert.equal(loaded.cases[1]!.pointer, '/cases/1');
  });

  test('invalid JSON: one error at the line and column of the syntax error', async () => {
    const file = project.write('bad/hooks.test.json', '[\n  { "name": "a", }\n]\n');
    const loaded = await loadCaseFile(file);
    assert.equal(loaded.cases.length, 0);
    assert.equal(loaded.errors.length, 1);
    const [error] = loaded.errors;
    assert.equal(error!.code, 'case-file-invalid-json');
    assert.equal(error!.line, 2);
    assert.match(error!.fix!, /no trailing commas/);
  });

  test('an unreadable file is an error', async () => {
    const loaded = await loadCaseFile(path.join(project.dir, 'nope.hooks.test.json'));
    assert.equal(loaded.errors[0]!.code, 'case-file-unreadable');
    assert.match(loaded.errors[0]!.message, /ENOENT/);
  });

  test('invalid cases are located errors with a fix; the valid cases of the file still load', async () => {
    const file = project.write(
      'mixed/hooks.test.json',
      `[
  { "name": "fine", "tool": "Bash" },
  { "name": "typo", "expect": { "decison": "deny" } },
  { "name": "event", "event": "pretooluse" },
  { "name": "shorthand", "event": "Stop", "tool": "Bash" },
  { "name": "regex", "expect": { "reasonMatches": "(" } },
  { "name": "fine" },
  { "name": "input", "input": "missing.json" },
  { "nam": "x" }
]`,
    );
    const loaded = await loadCaseFile(file);
    assert.deepEqual(
      loaded.cases.map((item) => item.name),
      ['fine'],
    );
    const byLine = loaded.errors.map((error) => [error.line, error.pointer, error.message, error.fix]);
    assert.deepEqual(
      byLine.map(([line, pointer]) => [line, pointer]),
      [
        [3, '/1/expect/decison'],
        [4, '/2/event'],
        [5, '/3/tool'],
        [6, '/4/expect/reasonMatches'],
        [7, '/5/name'],
        [8, '/6/input'],
        [9, '/7/nam'],
      ],
    );
    assert.match(String(byLine[0]![2]), /unknown field "decison"/);
    assert.equal(byLine[0]![3], 'did you mean "decision"?');
    assert.match(String(byLine[1]![2]), /did you mean PreToolUse\?/);
    assert.match(String(byLine[2]![2]), /"tool" applies to tool events only, not to Stop/);
    assert.match(String(byLine[3]![2]), /regular expression/);
    assert.match(String(byLine[4]![2]), /two cases are named "fine"/);
    assert.match(String(byLine[5]![2]), /cannot use the input file missing.json: ENOENT/);
    assert.equal(byLine[6]![3], 'did you mean "name"?');
    assert.ok(loaded.errors.every((error) => error.file === file && error.column !== undefined));
  });

  test('a file that is neither an array nor {cases} is one error', async () => {
    const loaded = await loadCaseFile(project.write('shape/hooks.test.json', { case: [] }));
    assert.equal(loaded.errors.length, 1);
    assert.match(loaded.errors[0]!.fix!, /array of cases/);
  });
});
