// Replaying transcripts against real hook scripts in a temporary project: verdicts, --post, --dry-run.

import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { renderReplayHuman, summarise } from '../../src/replay/report.ts';
import { type Firing, type Planned, replay } from '../../src/replay/run.ts';
import { makeProject, type Project } from '../helpers/cli.ts';
import { transcriptLines } from './build.ts';

let project: Project;
let transcript: string;
let marker: string;
before(() => {
  project = makeProject();
  marker = `${project.dir}/hook-ran`;
  const deny = project.write(
    'hooks/deny.sh',
    `#!/bin/sh\ntouch ${marker}\ncat | grep -q -- '--force' && { echo "no force pushes" >&2; exit 2; }\nexit 0\n`,
  );
  const policy = project.write(
    'hooks/policy.sh',
    `#!/bin/sh
input=$(cat)
case "$input" in
  *'"command":"npm install"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"npm ci"}}}' ;;
  *'"command":"ls"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}' ;;
  *'.env"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"env files"}}' ;;
esac
`,
  );
  const post = project.write('hooks/post.sh', `#!/bin/sh\necho '{"decision":"block","reason":"review the write"}'\n`);
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: deny }] },
        { hooks: [{ type: 'command', command: policy }] },
      ],
      PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: post }] }],
    },
  });
  const cwd = project.dir;
  transcript = project.write(
    'session.jsonl',
    transcriptLines(cwd, [
      [{ id: 't1', name: 'Bash', input: { command: 'git push --force' } }],
      [{ id: 't2', name: 'Bash', input: { command: 'npm install' }, result: { content: 'added 3 packages' } }],
      [{ id: 't3', name: 'Bash', input: { command: 'ls' }, result: { content: 'a b', structured: { stdout: 'a b' } } }],
      '{"type": "assistant", "message": ',
      [
        {
          id: 't4',
          name: 'Edit',
          input: { file_path: `${cwd}/.env`, old_string: 'a', new_string: 'b' },
          result: { content: 'denied by user', isError: true },
        },
      ],
      [
        {
          id: 't5',
          name: 'Write',
          input: { file_path: `${cwd}/src/a.ts`, content: '' },
          result: { content: 'ok', structured: { type: 'create' } },
        },
      ],
    ]).join('\n'),
  );
});
after(() => project.cleanup());

const options = (extra: { post?: boolean; dryRun?: boolean } = {}) => ({
  transcripts: [transcript],
  post: extra.post ?? false,
  dryRun: extra.dryRun ?? false,
  sources: { projectDir: project.dir },
  env: project.env(),
  jobs: 1,
});

test("every tool call gets the verdict of today's policy; malformed lines are kept with their numbers", async () => {
  const result = await replay(options());
  const verdicts = result.calls.map((call) => [
    call.toolUseId,
    (call.pre as Firing).verdict,
    (call.pre as Firing).reason,
  ]);
  assert.deepEqual(verdicts, [
    ['t1', 'denied', 'no force pushes'],
    ['t2', 'rewritten', undefined],
    ['t3', 'allowed', undefined],
    ['t4', 'asked', 'env files'],
    ['t5', 'no decision', undefined],
  ]);
  assert.deepEqual((result.calls[1]!.pre as Firing).updatedInput, { command: 'npm ci' });
  assert.deepEqual(
    result.malformed.map((entry) => entry.line),
    [7],
  );
  assert.equal(
    result.calls.every((call) => call.post === undefined && call.postNote === undefined),
    true,
  );
  assert.deepEqual(summarise(result).PreToolUse, {
    calls: 5,
    allowed: 1,
    denied: 1,
    asked: 1,
    deferred: 0,
    rewritten: 1,
    blocked: 0,
    'no decision': 1,
    error: 0,
  });
});

test('--post fires PostToolUse for results and PostToolUseFailure for error results; calls without results say so', async () => {
  const result = await replay(options({ post: true }));
  assert.deepEqual(
    result.calls.map((call) => [call.post?.event, (call.post as Firing | undefined)?.verdict, call.postNote]),
    [
      [undefined, undefined, 'no tool_result in the transcript'],
      ['PostToolUse', 'no decision', undefined],
      ['PostToolUse', 'no decision', undefined],
      ['PostToolUseFailure', 'no decision', undefined],
      ['PostToolUse', 'blocked', undefined],
    ],
  );
  assert.equal((result.calls[4]!.post as Firing).reason, 'review the write');
  const table = renderReplayHuman(result, project.dir, false);
  assert.deepEqual(cells(table), [
    ['Event', 'Calls', 'Allowed', 'Denied', 'Asked', 'Deferred', 'Rewritten', 'Blocked', 'No decision', 'Error'],
    ['PreToolUse', '5', '1', '1', '1', '0', '1', '0', '1', '0'],
    ['PostToolUse', '3', '0', '0', '0', '0', '0', '1', '2', '0'],
    ['PostToolUseFailure', '1', '0', '0', '0', '0', '0', '0', '1', '0'],
  ]);
  assert.match(
    table,
    /^session\.jsonl:2 {3}Bash {3}git push --force\n {4}PreToolUse: denied: no force pushes \(2 ran\)\n {4}post: no tool_result in the transcript\n/,
  );
});

test('--dry-run plans every call and runs no hook', async () => {
  rmSync(marker, { force: true });
  const result = await replay(options({ dryRun: true, post: true }));
  assert.equal(existsSync(marker), false);
  const first = result.calls[0]!.pre as Planned;
  assert.equal(first.run.length, 2);
  const write = result.calls[4]!;
  assert.deepEqual(
    (write.pre as Planned).skipped.map((item) => item.reason),
    ['matcher'],
  );
  assert.equal((write.post as Planned).run.length, 1);
  assert.deepEqual(cells(renderReplayHuman(result, project.dir, false)), [
    ['Event', 'Calls', 'With hooks', 'Without hooks', 'Errors'],
    ['PreToolUse', '5', '5', '0', '0'],
    ['PostToolUse', '3', '1', '2', '0'],
    ['PostToolUseFailure', '1', '0', '1', '0'],
  ]);
});

/** The summary table after the blank line, as cells (columns are separated by at least two spaces). */
function cells(text: string): string[][] {
  return text
    .trimEnd()
    .split('\n\n')
    .at(-1)!
    .split('\n')
    .map((line) => line.split(/ {2,}/));
}
