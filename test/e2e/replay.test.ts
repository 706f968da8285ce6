// `peri-hooks replay` as a real process over transcripts built in Claude Code's format.

import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';
import { transcriptLines } from '../replay/build.ts';

let project: Project;
let transcript: string;
let marker: string;
before(() => {
  project = makeProject();
  marker = `${project.dir}/ran`;
  const deny = project.write(
    'hooks/deny.sh',
    `#!/bin/sh\ntouch ${marker}\ncat | grep -q 'rm -rf' && { echo "no rm -rf" >&2; exit 2; }\nexit 0\n`,
  );
  project.write('.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deny }] }] },
  });
  transcript = project.write(
    's.jsonl',
    transcriptLines(project.dir, [
      [{ id: 't1', name: 'Bash', input: { command: 'rm -rf build' }, result: { content: 'blocked', isError: true } }],
      'not json at all',
      [{ id: 't2', name: 'Bash', input: { command: 'ls' } }],
    ]).join('\n'),
  );
});
after(() => project.cleanup());

const cli = (args: string[]) => runCli(['replay', ...args], { env: project.env(), cwd: project.dir });

test('says it runs hooks for real, reports each call, warns about malformed lines, prints the table', async () => {
  const result = await cli([transcript]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stderr,
    /replay runs the hooks for real: 2 PreToolUse firings against the hooks of .*\(use --dry-run to only plan\)/,
  );
  assert.match(result.stderr, /s\.jsonl:4: not valid JSON.*; line skipped/);
  assert.match(result.stdout, /s\.jsonl:2 {2}Bash {2}rm -rf build\n {4}PreToolUse: denied: no rm -rf/);
  assert.match(result.stdout, /\nPreToolUse +2 +0 +1 +0 +0 +0 +0 +1 +0\n$/);
  assert.ok(existsSync(marker));
});

test('--output json gives the details; --post adds PostToolUseFailure for error results', async () => {
  const result = await cli([transcript, '--post', '--output', 'json']);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.deepEqual(
    report.calls.map(
      (call: { tool: string; pre: { verdict: string }; post: { event: string } | null; postNote: string | null }) => [
        call.tool,
        call.pre.verdict,
        call.post?.event ?? null,
        call.postNote,
      ],
    ),
    [
      ['Bash', 'denied', 'PostToolUseFailure', null],
      ['Bash', 'no decision', null, 'no tool_result in the transcript'],
    ],
  );
  assert.equal(report.calls[0].pre.reason, 'no rm -rf');
  assert.deepEqual(
    report.malformed.map((entry: { line: number }) => entry.line),
    [4],
  );
  assert.equal(report.summary.PreToolUse.denied, 1);
});

test('--dry-run runs nothing and says so', async () => {
  rmSync(marker, { force: true });
  const result = await cli([transcript, '--dry-run']);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /dry run: planning 2 PreToolUse firings .* no hook runs/);
  assert.match(result.stdout, /PreToolUse: would run .*deny\.sh/);
  assert.equal(existsSync(marker), false);
});

test('an unreadable transcript and a bad --output are errors with a fix', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['missing.jsonl'], /^peri-hooks: cannot read the transcript missing\.jsonl: ENOENT\n {2}fix: /],
    [[transcript, '--output', 'xml'], /^peri-hooks: unknown --output "xml"\n {2}fix: use one of: table, json\n$/],
    [
      [transcript, '--jobs', '0'],
      /^peri-hooks: --jobs must be a whole number of at least 1, not "0"\n {2}fix: e\.g\. --jobs 4 \(default 1: /,
    ],
    [[], /peri-hooks: missing required args/],
  ];
  for (const [args, message] of cases) {
    const result = await cli(args);
    assert.equal(result.code, 1, args.join(' '));
    assert.match(result.stderr, /peri-hooks: .*\n {2}fix: |peri-hooks: missing required args/, args.join(' '));
    assert.match(result.stderr, message, args.join(' '));
    assert.equal(result.stdout, '', args.join(' '));
  }
});
