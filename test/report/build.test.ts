// The report of a firing (src/report/build.ts), in process, as a row table: every configured hook of the event
// once, in configuration order, ran or skipped with why; the hooks that decided; the non-blocking errors; where
// nothing was found, the places searched. Real hook scripts through fire(), no CLI process.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fire } from '../../src/fire.ts';
import type { FireReport } from '../../src/report/types.ts';
import { makeProject, type Project } from '../helpers/cli.ts';
import { projectOptions } from '../helpers/fire.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });

interface Row {
  name: string;
  event: string;
  fixture: string;
  groups: object[];
  /** Each configured hook of the event: [label, 'ran' or the skip reason]. */
  hooks: Array<[string, string]>;
  blocked: boolean;
  deciders?: string[];
  errors?: RegExp[];
}

const BASH = 'PreToolUse.tool_name-Bash';
const ROWS: Row[] = [
  {
    name: 'a hook whose matcher or `if` does not fit is reported skipped with why, beside the one that ran',
    event: 'PreToolUse',
    fixture: BASH,
    groups: [
      { matcher: 'Read', hooks: [cmd('true read')] },
      { matcher: 'Bash', hooks: [cmd('true bash'), cmd('true push', { if: 'Bash(git push *)' })] },
    ],
    hooks: [
      ['true read', 'matcher'],
      ['true bash', 'ran'],
      ['true push', 'if'],
    ],
    blocked: false,
    deciders: [],
  },
  {
    name: 'the hook that blocked is the decider; a sibling that failed is a non-blocking error',
    event: 'PreToolUse',
    fixture: BASH,
    groups: [{ hooks: [cmd('echo crashed >&2; exit 1'), cmd('echo no >&2; exit 2'), cmd('exit 0')] }],
    hooks: [
      ['echo crashed >&2; exit 1', 'ran'],
      ['echo no >&2; exit 2', 'ran'],
      ['exit 0', 'ran'],
    ],
    blocked: true,
    deciders: ['echo no >&2; exit 2'],
    errors: [/crashed/],
  },
  {
    name: 'a sequential group that blocked: the hooks after the block are reported short-circuited',
    event: 'Stop',
    fixture: 'Stop',
    groups: [{ sequential: true, hooks: [cmd('echo first >&2; exit 2'), cmd('true after')] }, { hooks: [cmd('true')] }],
    hooks: [
      ['echo first >&2; exit 2', 'ran'],
      ['true after', 'short-circuit'],
      ['true', 'ran'],
    ],
    blocked: true,
    deciders: ['echo first >&2; exit 2'],
  },
];

const statusOf = (hook: FireReport['hooks'][number]) => (hook.status === 'ran' ? 'ran' : hook.skipReason!);

describe('the report of a firing', () => {
  for (const row of ROWS)
    test(row.name, async () => {
      const report = await fire(row.event, project.input(row.fixture), {
        ...projectOptions(project, { hooks: { [row.event]: row.groups } }),
        noState: true,
      });
      assert.deepEqual(
        report.hooks.map((hook) => [hook.label, statusOf(hook)]),
        row.hooks,
      );
      for (const hook of report.hooks.filter(({ status }) => status === 'skipped'))
        assert.notEqual(hook.skipDetail, '', `${hook.label}: a skip says why`);
      assert.equal(report.blocked, row.blocked);
      assert.equal(report.exitCode, row.blocked ? 2 : 0);
      if (row.deciders)
        assert.deepEqual(
          report.deciders.map((id) => report.hooks.find((hook) => hook.id === id)!.label),
          row.deciders,
        );
      assert.equal(report.errors.length, (row.errors ?? []).length, report.errors.join('\n'));
      for (const [index, error] of (row.errors ?? []).entries()) assert.match(report.errors[index]!, error);
      assert.equal(report.noHooksFound, undefined);
    });

  test('no source with a hook for the event: the places searched are named', async () => {
    const report = await fire('PreToolUse', project.input(BASH), {
      ...projectOptions(project),
      noState: true,
    });
    assert.deepEqual(report.hooks, []);
    assert.ok(report.noHooksFound, 'noHooksFound is set');
    for (const place of [`${project.dir}/.claude/settings.json`, `${project.home}/.claude/settings.json`])
      assert.ok(report.noHooksFound.searched.includes(place), `${place} in ${report.noHooksFound.searched}`);
  });
});
