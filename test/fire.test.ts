// What a firing decides, in process: real hook scripts in a temporary project and real Claude Code 2.1.332 payloads,
// through fire() and the default (decision) answer as `peri-hooks fire` prints it. The CLI as a process (flags,
// process trees, signals, bad input) is test/e2e/fire.test.ts's.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { makeProject, type Project } from './helpers/cli.ts';
import { fireAnswer } from './helpers/fire.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

/** Writes the project's settings and fires the event with the fixture input. */
async function fireWith(
  event: string,
  fixture: string,
  hooks: Record<string, unknown>,
  options: { projectDir?: string } = {},
  overrides: Record<string, unknown> = {},
) {
  project.write('.claude/settings.json', { hooks });
  return fireAnswer(event, project.input(fixture, overrides), 'decision', {
    env: project.env(),
    home: project.home,
    managedDir: project.managed,
    ...options,
  });
}

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
const bash = (matcher: string, ...hooks: object[]) => ({ PreToolUse: [{ matcher, hooks }] });

describe('PreToolUse decisions', () => {
  test('exit 2 blocks: exit code 2, stderr reason, deny JSON on stdout', async () => {
    const script = project.write('hooks/exit2.sh', '#!/bin/sh\ncat >/dev/null\necho "no force pushes" >&2\nexit 2\n');
    const result = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', bash('Bash', cmd(script)));
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no force pushes/);
    assert.deepEqual(JSON.parse(result.stdout), {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no force pushes',
      },
    });
  });

  test('JSON deny blocks with its reason', async () => {
    const script = project.write(
      'hooks/deny.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy says no"}}'\n`,
    );
    const result = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', bash('Bash', cmd(script)));
    assert.equal(result.code, 2);
    assert.equal(JSON.parse(result.stdout).hookSpecificOutput.permissionDecisionReason, 'policy says no');
  });

  test('updatedInput replaces the tool input; the hook saw the original on stdin', async () => {
    const seen = `${project.dir}/seen.json`;
    const script = project.write(
      'hooks/rewrite.sh',
      `#!/bin/sh\ncat > ${seen}\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo safe"}}}'\n`,
    );
    const result = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', bash('Bash', cmd(script)));
    assert.equal(result.code, 0);
    assert.deepEqual(JSON.parse(result.stdout).hookSpecificOutput, {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { command: 'echo safe' },
    });
    const received = JSON.parse(execFileSync('cat', [seen], { encoding: 'utf8' }));
    assert.equal(received.tool_input.command, 'touch MARKER && echo hi');
    assert.equal(received.hook_event_name, 'PreToolUse');
    assert.equal(received.effort.level, 'medium');
  });

  test('allow + deny from two hooks: deny wins; ask + allow: ask', async () => {
    const allow = project.write(
      'hooks/allow.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'\n`,
    );
    const ask = project.write(
      'hooks/ask.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"are you sure?"}}'\n`,
    );
    const deny = project.write(
      'hooks/deny2.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied"}}'\n`,
    );
    const denied = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', bash('Bash', cmd(allow), cmd(deny)));
    assert.equal(denied.code, 2);
    assert.equal(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision, 'deny');
    const asked = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', bash('Bash', cmd(ask), cmd(allow)));
    assert.equal(asked.code, 0);
    assert.deepEqual(JSON.parse(asked.stdout).hookSpecificOutput, {
      hookEventName: 'PreToolUse',
      permissionDecision: 'ask',
      permissionDecisionReason: 'are you sure?',
    });
  });

  test('exit 1 is a non-blocking error: exit 0, the error on stderr', async () => {
    const script = project.write('hooks/exit1.sh', '#!/bin/sh\necho "crashed" >&2\nexit 1\n');
    const result = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', bash('Bash', cmd(script)));
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /PreToolUse hook error: .*Failed with non-blocking status code 1: crashed/);
  });

  test('exit 3 with valid deny JSON: the JSON decides', async () => {
    const script = project.write(
      'hooks/exit3.sh',
      `#!/bin/sh\necho '{"decision":"block","reason":"legacy block"}'\nexit 3\n`,
    );
    const result = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', bash('Bash', cmd(script)));
    assert.equal(result.code, 2);
    assert.equal(JSON.parse(result.stdout).hookSpecificOutput.permissionDecisionReason, 'legacy block');
  });

  test('invalid and schema-invalid JSON are non-blocking errors', async () => {
    const invalid = project.write('hooks/invalid.sh', `#!/bin/sh\necho '{"decision": block}'\n`);
    const schema = project.write(
      'hooks/schema.sh',
      `#!/bin/sh\necho '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"maybe"}}'\n`,
    );
    const result = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', bash('Bash', cmd(invalid), cmd(schema)));
    assert.equal(result.code, 0);
    assert.match(result.stderr, /looks like a JSON object but is not valid JSON/);
    assert.match(result.stderr, /hookSpecificOutput\.permissionDecision/);
  });

  test('a hook that cannot start is a non-blocking error naming the command', async () => {
    const result = await fireWith(
      'PreToolUse',
      'PreToolUse.tool_name-Bash',
      bash('Bash', cmd(`${project.dir}/missing.sh`), { type: 'command', command: 'no-such-program-xyz', args: ['a'] }),
    );
    assert.equal(result.code, 0);
    assert.match(result.stderr, /missing\.sh/);
    assert.match(result.stderr, /no-such-program-xyz/);
  });

  test('exec form with args: no shell, placeholders substituted per element', async () => {
    const script = project.write('hooks/args.sh', '#!/bin/sh\ncat >/dev/null\nprintf "%s|" "$@" >&2\nexit 2\n');
    const result = await fireWith(
      'PreToolUse',
      'PreToolUse.tool_name-Bash',
      bash('Bash', { type: 'command', command: script, args: ['one two', '${CLAUDE_PROJECT_DIR}/x', '$HOME'] }),
    );
    assert.equal(result.code, 2);
    assert.equal(result.stderr.trim(), `one two|${project.dir}/x|$HOME|`);
  });

  test('matcher and if select the hooks; unmatched hooks never run', async () => {
    const marker = `${project.dir}/ran-edit`;
    const edit = project.write('hooks/edit.sh', `#!/bin/sh\ntouch ${marker}\n`);
    const matched = `${project.dir}/ran-touch`;
    const touch = cmd(`touch ${matched}`, { if: 'Bash(touch *)' });
    const result = await fireWith('PreToolUse', 'PreToolUse.tool_name-Bash', {
      PreToolUse: [
        { matcher: 'Edit|Write', hooks: [cmd(edit)] },
        { matcher: 'Bash', hooks: [cmd(edit, { if: 'Bash(git push *)' }), touch] },
      ],
    });
    assert.equal(result.code, 0);
    assert.throws(() => execFileSync('test', ['-e', marker]));
    // The control: the hook whose matcher and if both match did run.
    execFileSync('test', ['-e', matched]);
  });
});

describe('other events', () => {
  test('UserPromptSubmit plain stdout becomes additionalContext', async () => {
    const result = await fireWith('UserPromptSubmit', 'UserPromptSubmit', {
      UserPromptSubmit: [{ hooks: [cmd('echo "the build is green"')] }],
    });
    assert.equal(result.code, 0);
    assert.deepEqual(JSON.parse(result.stdout), {
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'the build is green' },
    });
  });

  test('SessionStart plain stdout becomes additionalContext; exit 2 does not block', async () => {
    const result = await fireWith('SessionStart', 'SessionStart', {
      SessionStart: [{ matcher: 'startup', hooks: [cmd('echo "branch: main"'), cmd('echo warn >&2; exit 2')] }],
    });
    assert.equal(result.code, 0);
    assert.equal(JSON.parse(result.stdout).hookSpecificOutput.additionalContext, 'branch: main');
    assert.match(result.stderr, /SessionStart hook error: .*warn/);
  });

  test('Stop decision block: exit 2, reason fed back', async () => {
    const result = await fireWith('Stop', 'Stop', {
      Stop: [{ hooks: [cmd(`echo '{"decision":"block","reason":"run the tests first"}'`)] }],
    });
    assert.equal(result.code, 2);
    assert.deepEqual(JSON.parse(result.stdout), { decision: 'block', reason: 'run the tests first' });
    assert.match(result.stderr, /run the tests first/);
  });

  test('PermissionRequest: allow wins over a sibling exit 2; deny blocks', async () => {
    const allow = `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`;
    const allowed = await fireWith('PermissionRequest', 'PermissionRequest', {
      PermissionRequest: [{ matcher: 'Bash', hooks: [cmd('echo no >&2; exit 2'), cmd(allow)] }],
    });
    assert.equal(allowed.code, 0);
    assert.deepEqual(JSON.parse(allowed.stdout).hookSpecificOutput.decision, { behavior: 'allow' });
    const deny = `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not here"}}}'`;
    const denied = await fireWith('PermissionRequest', 'PermissionRequest', {
      PermissionRequest: [{ matcher: 'Bash', hooks: [cmd(allow), cmd(deny)] }],
    });
    assert.equal(denied.code, 2);
    assert.deepEqual(JSON.parse(denied.stdout).hookSpecificOutput.decision, { behavior: 'deny', message: 'not here' });
  });

  test('hooks run in the input cwd with CLAUDE_PROJECT_DIR and CLAUDE_CODE_SESSION_ID set', async () => {
    project.write('sub/.keep', '');
    const result = await fireWith(
      'PostToolUse',
      'PostToolUse',
      { PostToolUse: [{ hooks: [cmd('echo "$(pwd)|$CLAUDE_PROJECT_DIR|$CLAUDE_CODE_SESSION_ID" >&2; exit 2')] }] },
      { projectDir: project.dir },
      { cwd: `${project.dir}/sub` },
    );
    assert.equal(result.code, 2);
    const [cwd, projectDir, session] = result.stderr.trim().split('\n').at(-1)!.split('|');
    assert.equal(cwd, `${project.dir}/sub`);
    assert.equal(projectDir, project.dir);
    assert.match(session!, /^[0-9a-f-]{36}$/);
  });
});
