// Running suites in-process: real hook scripts in a temporary project, per-case isolation, errors,
// the bounded pool and --update.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { TestCase } from '../../src/cases/load.ts';
import { runPool } from '../../src/cases/pool.ts';
import { runSuite, selectCases } from '../../src/cases/run.ts';
import { recordExpectations } from '../../src/cases/update.ts';
import { makeProject, type Project } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const cmd = (command: string, extra: object = {}) => ({ type: 'command', command, ...extra });
const run = (paths: string[], extra: { jobs?: number; recording?: boolean } = {}) =>
  runSuite({ paths, cwd: project.dir, env: project.env(), ...extra });

describe('runSuite', () => {
  test("without settings, a case runs against the project's own settings, as fire loads them", async () => {
    const deny = project.write('hooks/deny.sh', '#!/bin/sh\necho "project says no" >&2\nexit 2\n');
    project.write('.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [cmd(deny)] }] } });
    project.write('own/.claude/hooks-tests/a.json', {
      projectDir: '../../..',
      cases: [
        {
          name: 'denied',
          tool: 'Bash',
          toolInput: { command: 'ls' },
          expect: { decision: 'deny', reasonContains: 'project says no' },
        },
      ],
    });
    const suite = await run(['own']);
    assert.deepEqual(
      suite.results.map((result) => [result.status, result.failures]),
      [['passed', []]],
    );
    assert.equal(suite.passed, 1);
    assert.equal(suite.failed, 0);
  });

  test("with settings, only those settings load (the project's are not read)", async () => {
    const allow = project.write(
      'hooks/allow.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'\n`,
    );
    project.write('inline/hooks.test.json', [
      {
        name: 'inline',
        tool: 'Bash',
        settings: { hooks: { PreToolUse: [{ hooks: [cmd(allow)] }] } },
        expect: { decision: 'allow', ran: ['allow.sh'] },
      },
      { name: 'file', tool: 'Bash', settings: 'policy.json', expect: { decision: 'allow' } },
    ]);
    project.write('inline/policy.json', { hooks: { PreToolUse: [{ matcher: '*', hooks: [cmd(allow)] }] } });
    const suite = await run(['inline']);
    assert.deepEqual(
      suite.results.map((result) => [result.testCase.name, result.status, result.actual?.ran]),
      [
        ['inline', 'passed', [allow]],
        ['file', 'passed', [allow]],
      ],
    );
  });

  test('each case gets its own state folder, removed afterwards; cases run through the pool', async () => {
    const log = `${project.dir}/state-dirs.txt`;
    const record = project.write(
      'hooks/record.sh',
      `#!/bin/sh\ncat >/dev/null\necho "$PERI_HOOKS_STATE_DIR" >> ${log}\n`,
    );
    const cases = Array.from({ length: 6 }, (_, index) => ({
      name: `case ${index}`,
      tool: 'Bash',
      settings: { hooks: { PreToolUse: [{ hooks: [cmd(record)] }] } },
      expect: { decision: 'none', exitCode: 0 },
    }));
    project.write('isolated/hooks.test.json', cases);
    const suite = await run(['isolated'], { jobs: 3 });
    assert.equal(suite.passed, 6);
    const dirs = readFileSync(log, 'utf8').trim().split('\n');
    assert.equal(new Set(dirs).size, 6);
    assert.ok(dirs.every((dir) => dir !== '' && !existsSync(dir)));
  });

  test('timed out, ran and skipped, checked against real hooks', async () => {
    const slow = project.write('hooks/slow.sh', '#!/bin/sh\nsleep 5\n');
    const push = project.write('hooks/push.sh', '#!/bin/sh\nexit 0\n');
    project.write('timing/hooks.test.json', [
      {
        name: 'slow',
        tool: 'Bash',
        toolInput: { command: 'ls' },
        settings: {
          hooks: { PreToolUse: [{ hooks: [cmd(slow, { timeout: 1 }), cmd(push, { if: 'Bash(git push *)' })] }] },
        },
        expect: {
          timedOut: ['slow.sh'],
          decision: 'none',
          ran: ['slow.sh'],
          skipped: [{ hook: 'push.sh', reason: 'if' }],
        },
      },
    ]);
    const suite = await run(['timing']);
    assert.deepEqual(suite.results[0]!.failures, []);
    assert.equal(suite.results[0]!.hooks[0]!.timedOut, true);
  });

  test("a failing case carries the hooks' stderr; cases that cannot run are errors", async () => {
    const noisy = project.write('hooks/noisy.sh', '#!/bin/sh\necho "checked the command" >&2\nexit 0\n');
    project.write('errors/hooks.test.json', [
      {
        name: 'wrong',
        tool: 'Bash',
        settings: { hooks: { PreToolUse: [{ hooks: [cmd(noisy)] }] } },
        expect: { decision: 'deny' },
      },
      { name: 'bad input', event: 'UserPromptSubmit', settings: { hooks: {} }, expect: { decision: 'none' } },
      { name: 'missing settings', tool: 'Bash', settings: 'nowhere.json', expect: { decision: 'none' } },
      { name: 'no expectations', tool: 'Bash', settings: { hooks: { PreToolUse: [{ hooks: [cmd(noisy)] }] } } },
    ]);
    const suite = await run(['errors']);
    const [wrong, bad, missing, none] = suite.results;
    assert.equal(wrong!.status, 'failed');
    assert.deepEqual(
      wrong!.hooks.map((hook) => [hook.exitCode, hook.stderr.trim()]),
      [[0, 'checked the command']],
    );
    assert.equal(bad!.status, 'error');
    assert.match(
      bad!.error!,
      /invalid UserPromptSubmit input on \S*errors\/hooks\.test\.json, case "bad input" at \$\.prompt/,
    );
    assert.doesNotMatch(bad!.error!, /stdin/);
    assert.equal(missing!.status, 'error');
    assert.match(missing!.error!, /nowhere\.json.*does not exist/);
    assert.equal(none!.status, 'failed');
    assert.equal(none!.failures[0]!.key, 'expect');
    assert.equal(suite.failed, 4);
  });

  test('unreadable files count as failures next to the cases that ran', async () => {
    project.write('unreadable/a.hooks.test.json', '{ not json');
    project.write('unreadable/b.hooks.test.json', [
      {
        name: 'fine',
        tool: 'Bash',
        settings: { hooks: { PreToolUse: [{ hooks: [cmd('true')] }] } },
        expect: { decision: 'none' },
      },
    ]);
    const suite = await run(['unreadable', 'no-such-folder']);
    assert.equal(suite.passed, 1);
    assert.equal(suite.failed, 2);
    assert.deepEqual(
      suite.errors.map((error) => error.code),
      ['case-file-unreadable', 'case-file-invalid-json'],
    );
  });
});

describe('no hooks at all', () => {
  test('a case that loads no hooks for its event fails, naming the project folder and how it was chosen', async () => {
    project.write('bare/nested/.claude/hooks-tests/a.json', [
      {
        name: 'dangerous call, nothing loaded',
        tool: 'Bash',
        toolInput: { command: 'rm -rf /' },
        expect: { decision: 'none' },
      },
    ]);
    project.write('bare/shared.hooks.test.json', {
      projectDir: 'nested',
      cases: [{ name: 'projectDir named', tool: 'Bash', expect: { decision: 'none' } }],
    });
    project.write('bare/inline.hooks.test.json', [
      {
        name: 'inline, other event only',
        tool: 'Bash',
        settings: { hooks: { Stop: [{ hooks: [cmd('true')] }] } },
        expect: { decision: 'none' },
      },
    ]);
    const suite = await run(['bare'], { recording: true });
    const byName = Object.fromEntries(suite.results.map((result) => [result.testCase.name, result]));
    const nested = `${project.dir}/bare/nested`;
    for (const result of suite.results) {
      assert.equal(result.status, 'failed', result.testCase.name);
      assert.deepEqual(
        result.failures.map((failure) => failure.key),
        ['noHooks'],
      );
    }
    assert.match(
      byName['dangerous call, nothing loaded']!.failures[0]!.message,
      new RegExp(
        `no PreToolUse hooks loaded: no settings of project ${nested} \\(chosen by the folder holding the case file's \\.claude/hooks-tests\\) hold PreToolUse hooks; searched: .*${nested}/\\.claude/settings\\.json`,
      ),
    );
    assert.match(
      byName['projectDir named']!.failures[0]!.message,
      /\(chosen by "projectDir": "nested" in the case file\)/,
    );
    assert.match(
      byName['inline, other event only']!.failures[0]!.message,
      /the case's "settings" hold no PreToolUse hooks/,
    );
  });
});

describe('--update', () => {
  test("records the actual result into cases without expectations, never over existing ones, keeping the file's text", async () => {
    const rewrite = project.write(
      'hooks/rewrite.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safer","updatedInput":{"command":"npm ci"}}}'\n`,
    );
    const text = `{
    "settings": { "hooks": { "PreToolUse": [ { "hooks": [ { "type": "command", "command": "${rewrite}" } ] } ] } },
    "cases": [
        { "name": "new", "tool": "Bash", "toolInput": { "command": "npm install" } },
        { "name": "kept", "tool": "Bash", "expect": { "decision": "deny" } },
        { "name": "empty", "tool": "Bash", "expect": {} }
    ]
}
`;
    const file = project.write('update/hooks.test.json', text);
    const first = await run(['update'], { recording: true });
    assert.deepEqual(
      first.results.map((result) => result.status),
      ['passed', 'failed', 'passed'],
    );
    const outcome = recordExpectations(first);
    assert.deepEqual(outcome, { recorded: [{ file, cases: ['new', 'empty'] }], skipped: [] });
    const updated = readFileSync(file, 'utf8');
    const cases = JSON.parse(updated).cases;
    assert.deepEqual(cases[0].expect, {
      decision: 'allow',
      exitCode: 0,
      reasonContains: 'safer',
      updatedInput: { command: 'npm ci' },
    });
    assert.deepEqual(cases[1].expect, { decision: 'deny' });
    assert.equal(cases[2].expect.decision, 'allow');
    assert.ok(
      updated.includes('        { "name": "kept", "tool": "Bash", "expect": { "decision": "deny" } },'),
      'untouched lines keep their text',
    );
    assert.ok(updated.includes('\n    "settings": '), 'the file keeps its 4-space indentation');
    const second = await run(['update']);
    assert.deepEqual(
      second.results.map((result) => result.status),
      ['passed', 'failed', 'passed'],
    );
    assert.deepEqual(recordExpectations(second).recorded, []);
  });
});

test('runPool never runs more than the limit at once and keeps the order of results', async () => {
  let active = 0;
  let peak = 0;
  const results = await runPool(
    Array.from({ length: 20 }, (_, index) => index),
    4,
    async (item) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setImmediate(resolve));
      active--;
      return item * 2;
    },
  );
  assert.equal(peak, 4);
  assert.deepEqual(
    results,
    Array.from({ length: 20 }, (_, index) => index * 2),
  );
  assert.deepEqual(await runPool([], 4, async () => 1), []);
});

test("--shard partitions the filtered suite: for every n, the shards' union is the suite and no case is in two", () => {
  const cases = Array.from(
    { length: 23 },
    (_, index) => ({ name: `case ${index}`, file: `/f${index % 3}.json` }) as TestCase,
  );
  for (const filter of [undefined, /[13579]$/]) {
    const suite = selectCases(cases, filter ? { filter } : {});
    for (let count = 1; count <= 7; count++) {
      const shards = Array.from({ length: count }, (_, index) =>
        selectCases(cases, { ...(filter ? { filter } : {}), shard: { index: index + 1, count } }),
      );
      const names = shards.flat().map((testCase) => testCase.name);
      assert.equal(names.length, suite.length, `${count} shards: no case twice`);
      assert.deepEqual(new Set(names), new Set(suite.map((testCase) => testCase.name)), `${count} shards: every case`);
      assert.ok(
        shards.every((shard) => Math.abs(shard.length - suite.length / count) < 1),
        `${count} shards are balanced`,
      );
    }
  }
});
