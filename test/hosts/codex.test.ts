// Codex CLI: its own payloads (fixtures/hosts/codex) through a policy of real command hooks.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { patchCalls, patchOf } from '../../src/hosts/apply-patch.ts';
import { json, preToolUse, useBench } from './harness.ts';

const bench = useBench();

const deny = (reason: string) => preToolUse({ permissionDecision: 'deny', permissionDecisionReason: reason });

describe('codex PreToolUse', () => {
  test('a deny blocks: exit 2, the reason on stderr; the hook saw Claude Code input', async () => {
    bench().policy({ PreToolUse: [{ matcher: 'Bash', hooks: [bench().hook('bash-deny', deny('no force pushes'))] }] });
    const result = await bench().fire('codex', 'PreToolUse', bench().payload('codex', 'PreToolUse.Bash'));
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'no force pushes\n');
    assert.deepEqual(json(result), {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no force pushes',
      },
    });
    const [seen] = bench().seen('bash-deny');
    assert.equal(seen!.tool_name, 'Bash');
    assert.deepEqual(seen!.tool_input, { command: 'git push --force origin main' });
    assert.equal(seen!.session_id, '019a5c4e-7d2b-7c33-9f0e-1b7a3c2d4e5f');
    assert.equal(seen!.tool_use_id, 'call_Qm3xT8vYpL2nR5sK');
    assert.equal(seen!.permission_mode, 'default');
    assert.deepEqual(seen!.peri_hooks_host, {
      name: 'codex',
      event: 'PreToolUse',
      tool_name: 'Bash',
      fields: { turn_id: '019a5c4e-8a10-7f21-b1c2-3d4e5f607182' },
    });
  });

  test('the event comes from the payload when the command line gives none; a rewrite is updatedInput', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            bench().hook(
              'rewrite',
              preToolUse({ permissionDecision: 'allow', updatedInput: { command: 'git push origin main' } }),
            ),
          ],
        },
      ],
    });
    const result = await bench().fire('codex', undefined, bench().payload('codex', 'PreToolUse.Bash'));
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(json(result), {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'git push origin main' },
      },
    });
  });

  test('apply_patch becomes one Write or Edit per file; a deny of one file blocks the patch', async () => {
    bench().policy({
      PreToolUse: [
        { matcher: 'Edit|Write', hooks: [bench().hook('files')] },
        { matcher: 'Write', hooks: [{ type: 'command', command: `${bench().hook('env-guard')}`, if: 'Write(.env)' }] },
      ],
    });
    bench().hook('env-guard', { stderr: 'the .env file is protected', exit: 2 });
    const result = await bench().fire('codex', 'PreToolUse', bench().payload('codex', 'PreToolUse.apply_patch'));
    const dir = bench().project.dir;
    assert.deepEqual(
      bench()
        .seen('files')
        .map((input) => [input.tool_name, input.tool_input]),
      [
        ['Write', { file_path: `${dir}/docs/NOTES.md`, content: '# Notes\nfirst line\n' }],
        ['Edit', { file_path: `${dir}/src/app.py`, old_string: '    print("hi")', new_string: '    print("hello")' }],
        ['Write', { file_path: `${dir}/.env`, content: '' }],
      ],
    );
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'the .env file is protected\n');
    assert.deepEqual(bench().seen('files')[0]!.peri_hooks_host, {
      name: 'codex',
      event: 'PreToolUse',
      tool_name: 'apply_patch',
      fields: { turn_id: '019a5c4e-8a10-7f21-b1c2-3d4e5f607182' },
    });
  });

  test('a rewrite of one file of a patch cannot be applied: the call is refused, and stderr (which Codex shows the model) is the reason alone', async () => {
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Edit',
          hooks: [
            bench().hook(
              'edit-rewrite',
              preToolUse({
                permissionDecision: 'allow',
                updatedInput: { file_path: '/x', old_string: 'a', new_string: 'b' },
              }),
            ),
          ],
        },
      ],
    });
    const result = await bench().fire('codex', 'PreToolUse', bench().payload('codex', 'PreToolUse.apply_patch'));
    assert.equal(result.code, 2);
    assert.equal(
      (json(result) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision,
      'deny',
    );
    assert.equal(
      result.stderr,
      'the policy rewrites this call, which Codex CLI cannot apply; it is refused rather than run unchanged\n',
    );
    const traced = await bench().fire('codex', 'PreToolUse', bench().payload('codex', 'PreToolUse.apply_patch'), [
      '--verbose',
    ]);
    assert.match(
      traced.stderr,
      /withheld from the model: peri-hooks: unsupported on Codex CLI PreToolUse: rewriting one call of several .*; the call is refused instead, the safe side/,
    );
  });

  test('ask: Codex would let the call proceed, so it is a deny (the safe side), said on stderr', async () => {
    bench().policy({
      PreToolUse: [
        {
          hooks: [
            bench().hook(
              'ask',
              preToolUse({ permissionDecision: 'ask', permissionDecisionReason: 'confirm the push' }),
            ),
          ],
        },
      ],
    });
    const result = await bench().fireCli('codex', 'PreToolUse', bench().payload('codex', 'PreToolUse.Bash'), [], {
      PERI_HOOKS_DEBUG: join(bench().project.dir, 'debug.log'),
    });
    assert.equal(result.code, 2);
    // Codex shows the model a block's whole stderr: the reason alone there, the note in the debug log.
    assert.equal(result.stderr, 'confirm the push\n');
    assert.match(
      readFileSync(join(bench().project.dir, 'debug.log'), 'utf8'),
      /withheld from the model: peri-hooks: unsupported on Codex CLI PreToolUse: asking the user .*denied instead, the safe side/,
    );
    assert.equal(
      json(result) &&
        (json(result) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision,
      'deny',
    );
  });

  test('continue: false on PreToolUse is not honoured by Codex: the call is blocked instead', async () => {
    bench().policy({
      PreToolUse: [{ hooks: [bench().hook('stop', { stdout: { continue: false, stopReason: 'out of budget' } })] }],
    });
    const result = await bench().fire('codex', 'PreToolUse', bench().payload('codex', 'PreToolUse.Bash'));
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'out of budget\n');
    assert.match(result.stdout, /out of budget/);
  });
});

describe('codex other events', () => {
  test('PermissionRequest: deny is decision.behavior deny on exit 0 (exit 2 is no block there)', async () => {
    bench().policy({
      PermissionRequest: [
        {
          hooks: [
            bench().hook('perm', {
              stdout: {
                hookSpecificOutput: {
                  hookEventName: 'PermissionRequest',
                  decision: { behavior: 'deny', message: 'no piping to sh' },
                },
              },
            }),
          ],
        },
      ],
    });
    const result = await bench().fire('codex', 'PermissionRequest', bench().payload('codex', 'PermissionRequest'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'no piping to sh' },
      },
    });
    assert.equal(bench().seen('perm')[0]!.tool_use_id, undefined);
  });

  test('PostToolUse: a block with context is JSON on exit 0 (on exit 2 Codex reads stderr alone, the context lost)', async () => {
    bench().policy({
      PostToolUse: [
        {
          hooks: [
            bench().hook('post', {
              stdout: {
                decision: 'block',
                reason: 'tests fail',
                hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'run npm test again' },
              },
            }),
          ],
        },
      ],
    });
    const result = await bench().fire('codex', 'PostToolUse', bench().payload('codex', 'PostToolUse'));
    assert.equal(result.code, 0);
    assert.equal(result.stderr, '');
    assert.deepEqual(json(result), {
      decision: 'block',
      reason: 'tests fail',
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'run npm test again' },
    });
    // Codex's tool_response is the text the model read: Bash's becomes Claude Code's {stdout, …}.
    assert.deepEqual(bench().seen('post')[0]!.tool_response, {
      stdout: 'exit code 1: 3 failing',
      stderr: '',
      interrupted: false,
      isImage: false,
    });
    assert.equal(
      (bench().seen('post')[0]!.peri_hooks_host as { tool_response: string }).tool_response,
      'exit code 1: 3 failing',
    );
  });

  test('UserPromptSubmit: exit 2 rejects the prompt', async () => {
    bench().policy({
      UserPromptSubmit: [{ hooks: [bench().hook('prompt', { stderr: 'no deploys on Fridays', exit: 2 })] }],
    });
    const result = await bench().fire('codex', 'UserPromptSubmit', bench().payload('codex', 'UserPromptSubmit'));
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'no deploys on Fridays\n');
    assert.equal(bench().seen('prompt')[0]!.prompt, 'deploy to production now');
  });

  test('SessionStart: plain stdout is additionalContext; a null transcript_path is ""', async () => {
    bench().policy({ SessionStart: [{ hooks: [bench().hook('start', { stdout: 'the main branch is protected' })] }] });
    const result = await bench().fire('codex', 'SessionStart', bench().payload('codex', 'SessionStart'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), {
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'the main branch is protected' },
    });
    assert.equal(bench().seen('start')[0]!.transcript_path, '');
    assert.equal(bench().seen('start')[0]!.source, 'startup');
  });

  test('Stop: a block keeps Codex working (exit 2, the reason as its next instruction)', async () => {
    bench().policy({
      Stop: [
        { hooks: [bench().hook('stop-block', { stdout: { decision: 'block', reason: 'run the linter first' } })] },
      ],
    });
    const result = await bench().fire('codex', 'Stop', bench().payload('codex', 'Stop'));
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'run the linter first\n');
    assert.equal(bench().seen('stop-block')[0]!.stop_hook_active, false);
  });
});

describe('codex malformed payloads', () => {
  test('no tool name: a clear error naming the host and the field, exit 1', async () => {
    bench().policy({ PreToolUse: [{ hooks: [bench().hook('never')] }] });
    const payload = JSON.parse(bench().payload('codex', 'PreToolUse.Bash'));
    delete payload.tool_name;
    const result = await bench().fire('codex', 'PreToolUse', JSON.stringify(payload));
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /peri-hooks: the Codex CLI PreToolUse payload has no tool name at \$\.tool_name\n {2}fix: /,
    );
    assert.deepEqual(bench().seen('never'), []);
  });

  test('with --fail-closed the same payload blocks, and says why', async () => {
    const payload = JSON.parse(bench().payload('codex', 'PreToolUse.Bash'));
    delete payload.tool_name;
    const result = await bench().fire('codex', 'PreToolUse', JSON.stringify(payload), ['--fail-closed']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /has no tool name at \$\.tool_name \(blocking because of --fail-closed\)/);
  });

  test('an apply_patch without an envelope is malformed, not an allow', async () => {
    const payload = JSON.parse(bench().payload('codex', 'PreToolUse.apply_patch'));
    payload.tool_input.command = 'not a patch';
    const result = await bench().fire('codex', 'PreToolUse', JSON.stringify(payload));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /the Codex CLI PreToolUse payload holds no file of an apply_patch envelope/);
  });

  test('text that is not JSON names the host', async () => {
    const result = await bench().fire('codex', 'PreToolUse', '{not json');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /the Codex CLI payload on stdin is not valid JSON/);
  });
});

describe('codex answers as Codex takes them', () => {
  test("a rewrite of a one-file apply_patch comes back as a patch in command, not Claude Code's {file_path, content}", async () => {
    const dir = bench().project.dir;
    bench().policy({
      PreToolUse: [
        {
          matcher: 'Write',
          hooks: [
            bench().hook(
              'move',
              preToolUse({
                permissionDecision: 'allow',
                updatedInput: { file_path: `${dir}/safe/captured.txt`, content: 'captured\n' },
              }),
            ),
          ],
        },
      ],
    });
    const result = await bench().fire('codex', 'PreToolUse', bench().payload('codex', 'real/PreToolUse.apply_patch'));
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(json(result), {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: '*** Begin Patch\n*** Add File: safe/captured.txt\n+captured\n*** End Patch\n' },
      },
    });
    assert.deepEqual(bench().seen('move')[0]!.tool_input, { file_path: `${dir}/captured.txt`, content: 'captured\n' });
  });

  test('an allow without a rewrite leaves permissionDecision out (Codex refuses it and drops the answer), its context stays', async () => {
    bench().policy({
      PreToolUse: [
        {
          hooks: [
            bench().hook(
              'allow',
              preToolUse({
                permissionDecision: 'allow',
                permissionDecisionReason: 'fine',
                additionalContext: 'mind the tests',
              }),
            ),
          ],
        },
      ],
    });
    const result = await bench().fire('codex', 'PreToolUse', bench().payload('codex', 'real/PreToolUse.Bash'));
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(json(result), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'mind the tests' },
    });
  });

  test('--fail-closed: a crashing hook blocks with a reason that names no command line and quotes no output', async () => {
    const crash = bench().hook('crash', { stderr: 'Traceback: secret-token-123 at /opt/policy/check.py', exit: 1 });
    bench().policy({ PreToolUse: [{ hooks: [`${crash} --api-key=hunter2`] }] });
    const log = join(bench().project.dir, 'fail-closed.log');
    const result = await bench().fireCli(
      'codex',
      'PreToolUse',
      bench().payload('codex', 'real/PreToolUse.Bash'),
      ['--fail-closed'],
      { PERI_HOOKS_DEBUG: log },
    );
    assert.equal(result.code, 2);
    // What Codex shows the model: the reason alone.
    assert.equal(result.stderr, 'a policy hook failed (blocking because of --fail-closed)\n');
    // The failure, command line and output, is the user's: in the debug log.
    assert.match(
      readFileSync(log, 'utf8'),
      /withheld from the model: PreToolUse hook error: \[.*--api-key=hunter2\]: .*secret-token-123/,
    );
  });
});

describe('apply_patch rewrites as patches', () => {
  const rows = [
    {
      name: 'a Write of an added file adds it, its lines each ending in a newline',
      call: { file_path: '/p/a.txt', content: 'one\ntwo\n' },
      kind: 'Add',
      patch: '*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** End Patch\n',
    },
    {
      name: 'an Edit is an update replacing its old lines with its new ones',
      call: { file_path: '/p/src/x.py', old_string: 'a = 1', new_string: 'a = 2\nb = 3' },
      kind: 'Update',
      patch: '*** Begin Patch\n*** Update File: src/x.py\n@@\n-a = 1\n+a = 2\n+b = 3\n*** End Patch\n',
    },
    {
      name: 'an empty Write of a deleted file stays a delete',
      call: { file_path: '/p/.env', content: '' },
      kind: 'Delete',
      patch: '*** Begin Patch\n*** Delete File: .env\n*** End Patch\n',
    },
    {
      name: 'a path outside the project stays absolute',
      call: { file_path: '/elsewhere/a.txt', content: 'x\n' },
      kind: 'Add',
      patch: '*** Begin Patch\n*** Add File: /elsewhere/a.txt\n+x\n*** End Patch\n',
    },
    { name: 'neither a Write nor an Edit has no patch', call: { command: 'ls' }, kind: 'Add', patch: undefined },
  ] as const;
  for (const row of rows) {
    test(row.name, () => {
      assert.equal(patchOf(row.call, row.kind, '/p'), row.patch);
      if (row.patch && row.kind !== 'Delete')
        assert.deepEqual(
          (patchCalls(row.patch, '/p') as { calls: Array<{ input: unknown }> }).calls[0]!.input,
          row.call,
          'read back, the same call',
        );
    });
  }
});
