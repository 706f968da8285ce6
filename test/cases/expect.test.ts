// Expectations against fire reports: every kind passes when it holds and fails with expected against actual.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actualOf, check } from '../../src/cases/expect.ts';
import type { Expectation } from '../../src/cases/schema.ts';
import type { FireReport, HookReport } from '../../src/report/types.ts';

const hook = (label: string, extra: Partial<HookReport> = {}): HookReport => ({
  id: `project:/p/.claude/settings.json#/hooks/PreToolUse/0/hooks/${label}`,
  type: 'command',
  layer: 'project',
  file: '/p/.claude/settings.json',
  pointer: '/x',
  label,
  status: 'ran',
  exitCode: 0,
  timedOut: false,
  stderr: '',
  ...extra,
});

function report(extra: Partial<FireReport> = {}): FireReport {
  return {
    event: 'PreToolUse',
    projectDir: '/p',
    blocked: false,
    exitCode: 0,
    hooks: [],
    deciders: [],
    errors: [],
    warnings: [],
    ...extra,
  };
}

const denied = report({
  blocked: true,
  exitCode: 2,
  reason: 'no force pushes',
  output: {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'no force pushes',
    },
  },
  hooks: [
    hook('sh push.sh', { exitCode: 2 }),
    hook('sh fmt.sh', { status: 'skipped', skipReason: 'if', skipDetail: 'no match' }),
    hook('sh slow.sh', { timedOut: true, exitCode: null }),
  ],
});

const keys = (expect: Expectation, fired = denied) =>
  check(expect, fired, actualOf(fired)).map((failure) => failure.key);

test('the decision of each event family', () => {
  assert.equal(actualOf(denied).decision, 'deny');
  for (const decision of ['allow', 'ask', 'defer'] as const) {
    assert.equal(
      actualOf(
        report({ output: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision } } }),
      ).decision,
      decision,
    );
  }
  assert.equal(
    actualOf(
      report({
        event: 'PermissionRequest',
        output: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } },
      }),
    ).decision,
    'allow',
  );
  assert.equal(
    actualOf(
      report({
        event: 'Stop',
        blocked: true,
        exitCode: 2,
        reason: 'go on',
        output: { decision: 'block', reason: 'go on' },
      }),
    ).decision,
    'block',
  );
  assert.equal(actualOf(report()).decision, 'none');
});

test('passing expectations of every kind', () => {
  assert.deepEqual(
    keys({
      decision: 'deny',
      exitCode: 2,
      reasonContains: ['force', 'push'],
      reasonMatches: '^no \\w+',
      updatedInput: null,
      ran: ['push.sh'],
      skipped: ['fmt.sh', { hook: 'fmt.sh', reason: 'if' }],
      timedOut: ['slow.sh'],
    }),
    [],
  );
  assert.deepEqual(keys({ timedOut: true }), []);
  assert.deepEqual(keys({ decision: 'block' }), [], 'block holds for any blocked action, a deny included');
});

test('failing expectations of every kind, each with expected and actual', () => {
  const failures = check(
    {
      decision: 'allow',
      exitCode: 0,
      reasonContains: 'rebase',
      reasonMatches: 'x$',
      updatedInput: { command: 'ls' },
      contextContains: 'c',
      contextMatches: 'c',
      ran: ['fmt.sh', 'nowhere.sh'],
      skipped: ['push.sh', { hook: 'fmt.sh', reason: 'matcher' }],
      timedOut: false,
    },
    denied,
    actualOf(denied),
  );
  assert.deepEqual(
    failures.map((failure) => failure.key),
    [
      'decision',
      'exitCode',
      'reasonContains',
      'reasonMatches',
      'contextContains',
      'contextMatches',
      'updatedInput',
      'ran',
      'ran',
      'skipped',
      'skipped',
      'timedOut',
    ],
  );
  const message = (key: string) => failures.filter((failure) => failure.key === key).map((failure) => failure.message);
  assert.deepEqual(message('decision'), ['decision: expected allow, got deny']);
  assert.deepEqual(message('reasonContains'), ['reason: expected to contain "rebase", got "no force pushes"']);
  assert.deepEqual(message('contextContains'), ['context: expected to contain "c", got nothing']);
  assert.deepEqual(message('updatedInput'), ['updatedInput: expected {"command":"ls"}, got nothing']);
  assert.deepEqual(message('ran'), [
    'ran: expected "fmt.sh" to run; it was skipped (if: no match)',
    'ran: no configured PreToolUse hook matches "nowhere.sh"',
  ]);
  assert.deepEqual(message('skipped'), [
    'skipped: expected "push.sh" to be skipped; it ran',
    'skipped: expected "fmt.sh" to be skipped by matcher; it was skipped by if',
  ]);
  assert.deepEqual(message('timedOut'), ['timed out: expected no time-out; "sh slow.sh" timed out']);
  assert.equal(failures[0]!.expected, 'allow');
  assert.equal(failures[0]!.actual, 'deny');
});

test('updatedInput is compared whole and deeply; context from additionalContext', () => {
  const rewritten = report({
    output: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'npm ci', env: { A: '1' } },
        additionalContext: 'ran the formatter',
      },
    },
  });
  assert.deepEqual(
    keys(
      {
        updatedInput: { command: 'npm ci', env: { A: '1' } },
        contextContains: 'formatter',
        contextMatches: 'ran the \\w+',
      },
      rewritten,
    ),
    [],
  );
  assert.deepEqual(keys({ updatedInput: { command: 'npm ci' } }, rewritten), ['updatedInput']);
  assert.deepEqual(keys({ updatedInput: null }, rewritten), ['updatedInput']);
  assert.deepEqual(keys({ timedOut: true }, rewritten), ['timedOut']);
});

test('updatedInputIncludes matches part of the rewrite, nested objects field by field', () => {
  const rewritten = report({
    output: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'npm ci', env: { A: '1', B: '2' }, args: ['x'] },
      },
    },
  });
  assert.deepEqual(keys({ updatedInputIncludes: { command: 'npm ci' } }, rewritten), []);
  assert.deepEqual(keys({ updatedInputIncludes: { env: { B: '2' }, args: ['x'] } }, rewritten), []);
  const failures = check({ updatedInputIncludes: { env: { A: '2' } } }, rewritten, actualOf(rewritten));
  assert.deepEqual(
    failures.map((failure) => failure.message),
    [
      'updatedInput: expected to include {"env":{"A":"2"}}, got {"command":"npm ci","env":{"A":"1","B":"2"},"args":["x"]}',
    ],
  );
  assert.deepEqual(
    keys({ updatedInputIncludes: { args: [] } }, rewritten),
    ['updatedInputIncludes'],
    'arrays compare whole',
  );
  assert.deepEqual(
    keys({ updatedInputIncludes: {} }, report()),
    ['updatedInputIncludes'],
    'no rewrite includes nothing',
  );
});

test("systemMessage, the hooks' stdout and stderr, and what each named hook did", () => {
  const fired = report({
    output: { systemMessage: 'formatter ran on 3 files' },
    hooks: [
      hook('sh fmt.sh', { stdout: 'formatted a.ts\n', stderr: 'warning: slow\n', outcome: 'success' }),
      hook('sh lint.sh', { exitCode: 1, stderr: 'lint failed\n', outcome: 'non_blocking_error', error: 'exit 1' }),
      hook('sh push.sh', { status: 'skipped', skipReason: 'matcher', skipDetail: 'Bash does not match Write' }),
    ],
  });
  assert.deepEqual(
    keys(
      {
        systemMessageContains: ['formatter', '3 files'],
        stdoutContains: 'formatted a.ts',
        stderrContains: ['slow', 'lint failed'],
        hooks: {
          'fmt.sh': { outcome: 'success', exitCode: 0, stdoutContains: 'a.ts' },
          'lint.sh': { outcome: 'non_blocking_error', exitCode: 1, stderrContains: 'lint' },
        },
      },
      fired,
    ),
    [],
  );
  const failures = check(
    {
      systemMessageContains: 'nothing to do',
      stdoutContains: 'lint',
      hooks: {
        'lint.sh': { outcome: 'success', exitCode: 0, stderrContains: 'all good' },
        'push.sh': { outcome: 'success' },
        'gone.sh': {},
      },
    },
    fired,
    actualOf(fired),
  );
  assert.deepEqual(
    failures.map((failure) => [failure.key, failure.message]),
    [
      ['systemMessageContains', 'systemMessage: expected to contain "nothing to do", got "formatter ran on 3 files"'],
      ['stdoutContains', 'stdout: expected to contain "lint", got "formatted a.ts\\n"'],
      ['hooks/lint.sh', 'hook "lint.sh": expected outcome success, got non_blocking_error (exit 1)'],
      ['hooks/lint.sh', 'hook "lint.sh": expected exit code 0, got 1'],
      ['hooks/lint.sh', 'hook "lint.sh" stderr: expected to contain "all good", got "lint failed\\n"'],
      ['hooks/push.sh', 'hook "push.sh": it did not run (matcher: Bash does not match Write)'],
      ['hooks/gone.sh', 'hook "gone.sh": no configured PreToolUse hook matches it'],
    ],
  );
  assert.deepEqual([failures[2]!.expected, failures[2]!.actual], ['success', 'non_blocking_error']);
});
