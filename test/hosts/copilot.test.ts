// GitHub Copilot CLI: both payload dialects (fixtures/hosts/copilot); a block is JSON on exit 0, because
// Copilot logs and skips a failing hook.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { json, preToolUse, useBench } from './harness.ts';

const bench = useBench();

describe('copilot', () => {
  test('preToolUse (camelCase): toolArgs as JSON text; exit 2 from the hook is a JSON deny on exit 0', async () => {
    bench().policy({ PreToolUse: [{ matcher: 'Bash', hooks: [bench().hook('bash', { stderr: 'no force pushes', exit: 2 })] }] });
    const result = await bench().fire('copilot', 'preToolUse', bench().payload('copilot', 'preToolUse.bash'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), { permissionDecision: 'deny', permissionDecisionReason: 'no force pushes' });
    const [seen] = bench().seen('bash');
    assert.equal(seen!.tool_name, 'Bash');
    assert.deepEqual(seen!.tool_input, { command: 'git push --force origin main', description: 'Push the branch' });
    assert.equal(seen!.session_id, '7f3c2b1a-9d8e-4f6a-b5c4-3e2d1f0a9b8c');
    assert.equal(seen!.hook_event_name, 'PreToolUse');
  });

  test('preToolUse: edit is Edit with Claude Code\'s fields; a rewrite is modifiedArgs in Copilot\'s', async () => {
    bench().policy({ PreToolUse: [{ matcher: 'Edit', hooks: [bench().hook('edit', preToolUse({ permissionDecision: 'allow', updatedInput: { file_path: `${bench().project.dir}/src/config.ts`, old_string: 'debug: false', new_string: 'debug: false // reviewed' } }))] }] });
    const result = await bench().fire('copilot', 'preToolUse', bench().payload('copilot', 'preToolUse.edit'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), { permissionDecision: 'allow', modifiedArgs: { path: `${bench().project.dir}/src/config.ts`, old_str: 'debug: false', new_str: 'debug: false // reviewed' } });
    assert.deepEqual(bench().seen('edit')[0]!.tool_input, { file_path: `${bench().project.dir}/src/config.ts`, old_string: 'debug: false', new_string: 'debug: true' });
  });

  test('PreToolUse (PascalCase, snake_case fields): the same policy, the same answer', async () => {
    bench().policy({ PreToolUse: [{ matcher: 'Bash', hooks: [bench().hook('pascal', preToolUse({ permissionDecision: 'ask', permissionDecisionReason: 'really?' }))] }] });
    const result = await bench().fire('copilot', undefined, bench().payload('copilot', 'PreToolUse'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), { permissionDecision: 'ask', permissionDecisionReason: 'really?' });
    assert.deepEqual(bench().seen('pascal')[0]!.tool_input, { command: 'rm -rf /', description: 'Clean up' });
  });

  test('permissionRequest: behavior deny with its message; continue false adds interrupt', async () => {
    bench().policy({ PermissionRequest: [{ hooks: [bench().hook('perm', { stdout: { continue: false, hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no piping into sh' } } } })] }] });
    const result = await bench().fire('copilot', 'permissionRequest', bench().payload('copilot', 'permissionRequest'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), { behavior: 'deny', message: 'no piping into sh', interrupt: true });
  });

  test('postToolUse: the result is the tool response; nothing goes back', async () => {
    bench().policy({ PostToolUse: [{ hooks: [bench().hook('post')] }] });
    const result = await bench().fire('copilot', 'postToolUse', bench().payload('copilot', 'postToolUse'));
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '');
    assert.deepEqual(bench().seen('post')[0]!.tool_response, { resultType: 'success', textResultForLlm: '3 passing' });
  });

  test('userPromptSubmitted cannot block: unsupported on stderr, never pretended', async () => {
    bench().policy({ UserPromptSubmit: [{ hooks: [bench().hook('prompt', { stderr: 'no', exit: 2 })] }] });
    const result = await bench().fire('copilot', 'userPromptSubmitted', bench().payload('copilot', 'userPromptSubmitted'));
    assert.equal(result.code, 0);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /unsupported on GitHub Copilot CLI userPromptSubmitted: blocking \(no\); the action goes on/);
  });

  test('agentStop: a block is decision block with the reason', async () => {
    bench().policy({ Stop: [{ hooks: [bench().hook('stop', { stdout: { decision: 'block', reason: 'update the changelog' } })] }] });
    const result = await bench().fire('copilot', 'agentStop', bench().payload('copilot', 'agentStop'));
    assert.equal(result.code, 0);
    assert.deepEqual(json(result), { decision: 'block', reason: 'update the changelog' });
    assert.equal(bench().seen('stop')[0]!.transcript_path, '/home/user/.copilot/session-state/7f3c2b1a/events.jsonl');
  });

  test('subagentStart: context is additionalContext; the agent name is agent_type', async () => {
    bench().policy({ SubagentStart: [{ matcher: 'explore', hooks: [bench().hook('sub', { stdout: { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'read only' } } })] }] });
    const result = await bench().fire('copilot', 'subagentStart', bench().payload('copilot', 'subagentStart'));
    assert.deepEqual(json(result), { additionalContext: 'read only' });
    assert.equal(bench().seen('sub')[0]!.agent_type, 'explore');
  });

  test('sessionStart cannot take context: unsupported on stderr', async () => {
    bench().policy({ SessionStart: [{ hooks: [bench().hook('start', { stdout: 'hello' })] }] });
    const result = await bench().fire('copilot', 'sessionStart', bench().payload('copilot', 'sessionStart'));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /unsupported on GitHub Copilot CLI sessionStart: adding model context/);
  });

  test('a camelCase payload without its event on the command line names the host and the field', async () => {
    const result = await bench().fire('copilot', undefined, bench().payload('copilot', 'preToolUse.bash'));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /the GitHub Copilot CLI payload names no event peri-hooks maps \(\$\.hook_event_name is nothing\)/);
  });

  test('a malformed payload under --fail-closed is a JSON deny in Copilot\'s form', async () => {
    const result = await bench().fire('copilot', 'preToolUse', '[1, 2]', ['--fail-closed']);
    assert.equal(result.code, 0);
    assert.match((json(result) as { permissionDecisionReason: string }).permissionDecisionReason, /the GitHub Copilot CLI preToolUse payload is not a JSON object at \$ \(blocking because of --fail-closed\)/);
    assert.equal((json(result) as { permissionDecision: string }).permissionDecision, 'deny');
  });
});
