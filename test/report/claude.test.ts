// `--output claude` as a row table, in process (fire() and the Claude renderer, as the CLI calls them): peri-hooks
// as Claude Code's one hook answers in the form the original hooks used. The process itself (exit code, stderr as
// Claude Code reads them) is test/e2e/claude-output.test.ts's.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeProject, type Project } from '../helpers/cli.ts';
import { type Answer, fireAnswer, projectOptions } from '../helpers/fire.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
const preJson = (specific: object) =>
  `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific } })}'`;
const context = (event: string, text: string) =>
  cmd(`echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })}'`);

function claude(event: string, hooks: object[], matcher?: string, fixture = event): Promise<Answer> {
  const settings = { hooks: { [event]: [{ ...(matcher ? { matcher } : {}), hooks }] } };
  return fireAnswer(event, project.input(fixture), 'claude', projectOptions(project, settings));
}

interface Row {
  name: string;
  event: string;
  /** The input fixture; default the event's. */
  fixture?: string;
  matcher?: string;
  hooks: object[];
  code: number;
  /** A string is the exact stdout; an object the JSON it must parse to. Absent: not looked at. */
  stdout?: string | object;
  stderr?: string | RegExp;
}

const BASH = { fixture: 'PreToolUse.tool_name-Bash', matcher: 'Bash' };
const ROWS: Row[] = [
  {
    name: 'a block by exit 2 stays an exit 2 with the same stderr',
    event: 'PreToolUse',
    ...BASH,
    hooks: [cmd('echo "no rm here" >&2; exit 2')],
    code: 2,
    stdout: '',
    stderr: 'no rm here\n',
  },
  {
    name: 'a block by JSON stays JSON with exit 0',
    event: 'PreToolUse',
    ...BASH,
    hooks: [cmd(preJson({ permissionDecision: 'deny', permissionDecisionReason: 'json no' }))],
    code: 0,
    stdout: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'json no',
      },
    },
    stderr: '',
  },
  {
    name: 'exit 2 plus a sibling context: exit 2, and the context rides along as JSON',
    event: 'PreToolUse',
    ...BASH,
    hooks: [cmd('echo blocked >&2; exit 2'), cmd(preJson({ additionalContext: 'note for Claude' }))],
    code: 2,
    stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'note for Claude' } },
    stderr: 'blocked\n',
  },
  {
    name: 'Stop: a JSON block stays JSON',
    event: 'Stop',
    hooks: [cmd(`echo '{"decision":"block","reason":"tests are red"}'`)],
    code: 0,
    stdout: { decision: 'block', reason: 'tests are red' },
  },
  {
    name: 'Stop: an exit-2 block stays exit 2',
    event: 'Stop',
    hooks: [cmd('echo "tests are red" >&2; exit 2')],
    code: 2,
    stdout: '',
    stderr: 'tests are red\n',
  },
  {
    name: 'SessionStart: an exit-2 hook keeps its notice, context still arrives',
    event: 'SessionStart',
    hooks: [cmd('echo "heads up" >&2; exit 2'), cmd('echo "branch main"')],
    code: 2,
    stdout: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'branch main' } },
    stderr: 'heads up\n',
  },
  {
    name: 'hooks that only failed: exit 1 so that Claude Code shows the hook error notice',
    event: 'PreToolUse',
    ...BASH,
    hooks: [cmd('echo oops >&2; exit 1')],
    code: 1,
    stdout: '',
    stderr: /oops/,
  },
  {
    name: 'nothing to say: exit 0 and no output',
    event: 'PreToolUse',
    ...BASH,
    hooks: [cmd('exit 0')],
    code: 0,
    stdout: '',
    stderr: '',
  },
  {
    name: 'WorktreeCreate: the path as plain text',
    event: 'WorktreeCreate',
    hooks: [cmd('echo "creating..." >&2; echo /tmp/worktrees/feature')],
    code: 0,
    stdout: '/tmp/worktrees/feature\n',
  },
  {
    name: 'WorktreeCreate: no path fails with exit 1',
    event: 'WorktreeCreate',
    hooks: [cmd('echo "git failed" >&2; exit 1')],
    code: 1,
    stderr: /git failed/,
  },
  {
    name: 'PermissionRequest deny is JSON with exit 0 (Claude Code ignores exit 2 there)',
    event: 'PermissionRequest',
    matcher: 'Bash',
    hooks: [
      cmd(
        `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}'`,
      ),
    ],
    code: 0,
    stdout: {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } },
    },
  },
  {
    name: 'UserPromptSubmit: exit 2 blocks the prompt with the same stderr',
    event: 'UserPromptSubmit',
    hooks: [cmd('echo "no secrets in prompts" >&2; exit 2')],
    code: 2,
    stderr: 'no secrets in prompts\n',
  },
  {
    name: 'plain-text context stays plain text (Claude Code frames it as "hook success")',
    event: 'UserPromptSubmit',
    hooks: [cmd('echo "the build is green"')],
    code: 0,
    stdout: 'the build is green\n',
    stderr: '',
  },
  {
    name: 'plain text beside JSON: the text becomes additionalContext of the JSON answer',
    event: 'UserPromptSubmit',
    hooks: [cmd('echo plain'), cmd(`echo '{"systemMessage":"hi"}'`)],
    code: 0,
    stdout: {
      systemMessage: 'hi',
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'plain' },
    },
  },
  {
    name: 'PreSkillShellCommand: an ask answered in JSON stays JSON with exit 0, though it keeps the command from running',
    event: 'PreSkillShellCommand',
    hooks: [
      cmd(
        `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreSkillShellCommand', permissionDecision: 'ask', permissionDecisionReason: 'check' } })}'`,
      ),
    ],
    code: 0,
    stdout: {
      hookSpecificOutput: {
        hookEventName: 'PreSkillShellCommand',
        permissionDecision: 'ask',
        permissionDecisionReason: 'check',
      },
    },
    stderr: '',
  },
  {
    name: 'PostModelSwitch: plain stdout stays plain text',
    event: 'PostModelSwitch',
    hooks: [cmd('echo "mind the budget"')],
    code: 0,
    stdout: 'mind the budget\n',
    stderr: '',
  },
  // Claude Code frames each hook's text apart and keeps one reason of several denies; what these rows assert is
  // what `npm run test:claude` saw the real Claude Code show for the same hooks registered directly.
  {
    name: 'onFailure "block": the message without the label (Claude Code adds peri-hooks\'), then the failure',
    event: 'PreToolUse',
    ...BASH,
    hooks: [cmd('echo "policy server unreachable" >&2; exit 1', { onFailure: 'block' })],
    code: 2,
    stdout: '',
    stderr: 'failed; blocking because onFailure is "block"\npolicy server unreachable',
  },
  {
    name: 'onFailure "block" on a timeout: "timed out", then nothing',
    event: 'PreToolUse',
    ...BASH,
    hooks: [cmd('sleep 5', { onFailure: 'block', timeout: 0.5 })],
    code: 2,
    stderr: 'timed out; blocking because onFailure is "block"',
  },
  {
    name: 'several PreToolUse denies by exit 2: the reason of the last in configuration order',
    event: 'PreToolUse',
    ...BASH,
    hooks: [cmd('echo first >&2; exit 2'), cmd('echo second >&2; exit 2')],
    code: 2,
    stderr: 'second\n',
  },
  {
    name: 'several PreToolUse denies, the last in JSON: its reason, in its own form',
    event: 'PreToolUse',
    ...BASH,
    hooks: [
      cmd('echo first >&2; exit 2'),
      cmd(preJson({ permissionDecision: 'deny', permissionDecisionReason: 'json no' })),
    ],
    code: 0,
    stdout: {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'json no',
      },
    },
    stderr: '',
  },
  {
    name: 'exit 2 with an empty stderr: an empty stderr, so that Claude Code says "No stderr output" as for the hook',
    event: 'PreToolUse',
    ...BASH,
    hooks: [cmd('exit 2')],
    code: 2,
    stderr: '',
  },
  {
    name: "several hooks' context before a tool: one answer, the paragraphs one per line",
    event: 'PreToolUse',
    ...BASH,
    hooks: [context('PreToolUse', 'first'), context('PreToolUse', 'second')],
    code: 0,
    stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'first\nsecond' } },
  },
  {
    name: "several hooks' context after a tool: each later paragraph framed as Claude Code frames it",
    event: 'PostToolUse',
    fixture: 'PostToolUse.tool_name-Bash',
    matcher: 'Bash',
    hooks: [context('PostToolUse', 'first'), context('PostToolUse', 'second')],
    code: 0,
    stdout: {
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        additionalContext: 'first\n\nPostToolUse:Bash hook additional context: second',
      },
    },
  },
  {
    name: "several hooks' context on a prompt: JSON context, then stdout as a hook success",
    event: 'UserPromptSubmit',
    hooks: [context('UserPromptSubmit', 'from json'), cmd('echo "from stdout"')],
    code: 0,
    stdout: {
      hookSpecificOutput: {
        hookEventName: 'UserPromptSubmit',
        additionalContext: 'from json\n\nUserPromptSubmit hook success: from stdout',
      },
    },
  },
  {
    // The first paragraph is plain stdout's: the answer is plain stdout too.
    name: "several hooks' context at session start: plain stdout first, so the answer is plain text",
    event: 'SessionStart',
    hooks: [context('SessionStart', 'from json'), cmd('echo "from stdout"')],
    code: 0,
    stdout: 'from stdout\n\nSessionStart hook additional context: from json\n',
  },
];

describe('--output claude answers in the form of the hook that decided', () => {
  for (const row of ROWS)
    test(row.name, async () => {
      const answer = await claude(row.event, row.hooks, row.matcher, row.fixture);
      assert.equal(answer.code, row.code, answer.stderr);
      if (typeof row.stdout === 'string') assert.equal(answer.stdout, row.stdout);
      else if (row.stdout) assert.deepEqual(JSON.parse(answer.stdout), row.stdout);
      if (typeof row.stderr === 'string') assert.equal(answer.stderr, row.stderr);
      else if (row.stderr) assert.match(answer.stderr, row.stderr);
    });
});

// Issue 29 item 2: a policy that stops loading used to leave `--output claude` silent (exit 0, nothing printed).
describe("a policy that does not load is said to Claude Code's user, and blocks under --fail-closed", () => {
  const deny = { type: 'command', command: 'echo "no Bash" >&2; exit 2' };
  const good = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [deny] }] } };
  const text = (value: object) => JSON.stringify(value);
  const discovered = (failClosed = false) =>
    fireAnswer('PreToolUse', project.input('PreToolUse.tool_name-Bash'), 'claude', {
      ...projectOptions(project),
      ...(failClosed ? { failClosed } : {}),
    });
  const BROKEN: ReadonlyArray<[string, (path: string) => void]> = [
    ['a comment', (path) => writeFileSync(path, `{ // no Bash\n${text(good).slice(1)}`)],
    ['a trailing comma', (path) => writeFileSync(path, `${text(good).slice(0, -1)},}`)],
    ['a FIFO in its place', (path) => execFileSync('mkfifo', [path])],
    ['a folder in its place', (path) => mkdirSync(path)],
    ['a symlink loop', (path) => symlinkSync(path, path)],
    ['matcher: 5', (path) => writeFileSync(path, text({ hooks: { PreToolUse: [{ matcher: 5, hooks: [deny] }] } }))],
    [
      'a misspelt type',
      (path) =>
        writeFileSync(
          path,
          text({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ ...deny, type: 'comand' }] }] } }),
        ),
    ],
    ['a misspelt event', (path) => writeFileSync(path, text({ hooks: { PretoolUse: good.hooks.PreToolUse } }))],
    [
      'nesting over the limit',
      (path) => writeFileSync(path, `{"hooks":${text(good.hooks)},"x":${'['.repeat(200)}${']'.repeat(200)}}`),
    ],
    ['hooks as an array', (path) => writeFileSync(path, text({ hooks: [good.hooks] }))],
  ];
  for (const [shape, breakFile] of BROKEN) {
    test(shape, async () => {
      const path = join(project.dir, '.claude', 'settings.json');
      rmSync(path, { recursive: true, force: true });
      mkdirSync(dirname(path), { recursive: true });
      breakFile(path);
      try {
        const open = await discovered();
        assert.equal(open.code, 0, open.stderr);
        assert.equal(open.stderr, '');
        const message = (JSON.parse(open.stdout) as { systemMessage: string }).systemMessage;
        assert.match(message, /^peri-hooks: policy not enforced, it did not load:\n- /);
        assert.ok(message.includes(path), message);
        const closed = await discovered(true);
        assert.equal(closed.code, 2, closed.stderr);
        assert.match(closed.stderr, /blocking because of --fail-closed/);
      } finally {
        rmSync(path, { recursive: true, force: true });
      }
    });
  }

  test("beside a hook's own systemMessage and failures, the notice joins them in one JSON answer", async () => {
    project.write('.claude/settings.json', text({ hooks: { PreToolUse: [{ matcher: 5, hooks: [deny] }] } }));
    try {
      const settings = text({
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [cmd(`echo '{"systemMessage":"from the hook"}'`), cmd('echo oops >&2; exit 1')] },
          ],
        },
      });
      const result = await fireAnswer('PreToolUse', project.input('PreToolUse.tool_name-Bash'), 'claude', {
        ...projectOptions(project),
        settings: [settings],
      });
      assert.equal(result.code, 0, result.stderr);
      const message = (JSON.parse(result.stdout) as { systemMessage: string }).systemMessage;
      assert.match(
        message,
        /^from the hook\nperi-hooks: policy not enforced, it did not load:\n- [^\n]*"matcher" must be a string[\s\S]*\nPreToolUse hook error: \[echo oops >&2; exit 1\]: [^\n]*oops/,
      );
    } finally {
      rmSync(join(project.dir, '.claude', 'settings.json'), { force: true });
    }
  });
});

// Issue 29 item 3: an empty policy was an empty configuration, even the one the user named.
describe('an empty or blank settings file', () => {
  const fire = (options: { settings?: string[]; failClosed?: boolean }) =>
    fireAnswer('PreToolUse', project.input('PreToolUse.tool_name-Bash'), 'claude', {
      ...projectOptions(project),
      ...(options.settings ? { settings: options.settings, settingSources: [] } : {}),
      ...(options.failClosed ? { failClosed: true } : {}),
    });
  const triple = ({ code, stdout, stderr }: Answer) => [code, stdout, stderr];

  test('found by discovery: an empty configuration, silent, also under --fail-closed', async () => {
    const settings = project.write('.claude/settings.json', ' \n');
    try {
      for (const failClosed of [false, true]) assert.deepEqual(triple(await fire({ failClosed })), [0, '', '']);
    } finally {
      rmSync(settings);
    }
  });

  test('named with --settings, without hooks but with settings of its own (allowedHttpHookUrls for another policy): no finding', async () => {
    const settings = project.write('urls.json', { allowedHttpHookUrls: ['http://127.0.0.1:*'] });
    for (const failClosed of [false, true])
      assert.deepEqual(triple(await fire({ settings: [settings], failClosed })).slice(0, 2), [0, '']);
  });

  for (const [shape, text] of [
    ['empty', ''],
    ['blank', ' \n\t\n'],
    ['without hooks', '{}'],
    ['with no hook in its events', '{"hooks": {"PreToolUse": []}}'],
  ] as const) {
    test(`named with --settings and ${shape}: said to the user, and a block under --fail-closed`, async () => {
      const policy = project.write('policy.json', text);
      const open = await fire({ settings: [policy] });
      assert.equal(open.code, 0, open.stderr);
      assert.equal(open.stderr, '');
      assert.match(
        JSON.parse(open.stdout).systemMessage,
        new RegExp(
          `not enforced[\\s\\S]*the --settings file ${policy} ${text.trim() === '' ? 'is empty' : 'holds no hooks'}: none of its policy is enforced`,
        ),
      );
      const closed = await fire({ settings: [policy], failClosed: true });
      assert.equal(closed.code, 2);
      assert.match(closed.stderr, /holds no hooks|is empty/);
      assert.match(closed.stderr, /blocking because of --fail-closed/);
    });
  }
});
