// Table tests of one hook's raw outcome -> result (spec §6.1, §6.2, §10.4).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classify, parseStdout } from '../src/outcome.ts';
import type { HookHandler } from '../src/config/schema.ts';
import type { EventName } from '../src/events.ts';
import type { RawOutcome } from '../src/types.ts';

const command: HookHandler = { type: 'command', command: 'hook.sh' };
const blockOnFailure: HookHandler = { type: 'command', command: 'hook.sh', onFailure: 'block' };

function raw(partial: Partial<RawOutcome>): RawOutcome {
  return { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1, ...partial };
}

function run(event: EventName, partial: Partial<RawOutcome>, handler: HookHandler = command) {
  return classify(raw(partial), { event, handler, label: 'hook.sh' });
}

const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });

test('exit 0 with empty stdout is a plain success', () => {
  assert.deepEqual(run('PreToolUse', {}), { outcome: 'success', answeredInJson: false });
});

test('exit 0 plain stdout is kept as plain text', () => {
  assert.equal(run('UserPromptSubmit', { stdout: 'hello\n' }).plainText, 'hello');
});

test('exit 2 blocks with stderr, or "No stderr output"', () => {
  assert.deepEqual(run('PreToolUse', { exitCode: 2, stderr: 'nope\n' }), { outcome: 'blocking', blockedBy: 'exit2', blockingMessage: 'nope', answeredInJson: false });
  assert.equal(run('PreToolUse', { exitCode: 2 }).blockingMessage, 'No stderr output');
});

test('exit 2 still applies JSON, and a JSON block reason replaces stderr', () => {
  const result = run('PreToolUse', { exitCode: 2, stderr: 'from stderr', stdout: deny });
  assert.equal(result.outcome, 'blocking');
  assert.equal(result.blockedBy, 'exit2');
  assert.equal(result.blockingMessage, 'no');
  const context = run('PreToolUse', { exitCode: 2, stderr: 'from stderr', stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'ctx' } }) });
  assert.equal(context.blockingMessage, 'from stderr');
  assert.equal(context.specific?.additionalContext, 'ctx');
});

test('exit 1 and 3 are non-blocking errors naming stderr', () => {
  const result = run('PreToolUse', { exitCode: 1, stderr: 'boom' });
  assert.equal(result.outcome, 'non_blocking_error');
  assert.match(result.error ?? '', /Failed with non-blocking status code 1: boom/);
  assert.equal(run('PreToolUse', { exitCode: 3 }).outcome, 'non_blocking_error');
});

test('exit 3 with valid JSON: the JSON decides and it is no error', () => {
  const result = run('PreToolUse', { exitCode: 3, stdout: deny });
  assert.equal(result.outcome, 'blocking');
  assert.equal(result.blockedBy, 'json');
  assert.equal(result.permission, 'deny');
  assert.equal(result.error, undefined);
});

test('invalid JSON that looks like an object is a non-blocking error', () => {
  const result = run('PreToolUse', { stdout: '{"hookSpecificOutput": ' + '}' });
  assert.equal(result.outcome, 'non_blocking_error');
  assert.match(result.error ?? '', /looks like a JSON object but is not valid JSON/);
});

test('stdout that does not end with } is plain text', () => {
  assert.deepEqual(parseStdout('PreToolUse', '{"a": 1} trailing'), { kind: 'plain', text: '{"a": 1} trailing' });
  assert.equal(parseStdout('PreToolUse', '[1, 2]').kind, 'plain');
  assert.equal(parseStdout('PreToolUse', '"quoted"').kind, 'plain');
});

test('several JSON objects on separate lines are plain text', () => {
  assert.equal(parseStdout('PreToolUse', '{"a":1}\n{"b":2}').kind, 'plain');
});

test('schema-invalid JSON names the field', () => {
  const bad = run('PreToolUse', { stdout: JSON.stringify({ decision: 'maybe' }) });
  assert.equal(bad.outcome, 'non_blocking_error');
  assert.match(bad.error ?? '', /decision/);
  const nested = run('PreToolUse', { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'yes' } }) });
  assert.equal(nested.outcome, 'non_blocking_error');
  assert.match(nested.error ?? '', /hookSpecificOutput\.permissionDecision/);
  const continueType = run('Stop', { stdout: JSON.stringify({ continue: 'no' }) });
  assert.match(continueType.error ?? '', /continue/);
});

test('a mismatched hookEventName drops the nested object but honours decision: block', () => {
  const mismatched = run('PreToolUse', { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } }) });
  assert.equal(mismatched.outcome, 'non_blocking_error');
  assert.match(mismatched.error ?? '', /hookEventName is "PostToolUse"/);
  const withBlock = run('Stop', { stdout: JSON.stringify({ decision: 'block', reason: 'keep going', hookSpecificOutput: { hookEventName: 'PreToolUse' } }) });
  assert.equal(withBlock.outcome, 'blocking');
  assert.equal(withBlock.blockingMessage, 'keep going');
});

test('legacy decision approve/block map to allow/deny on PreToolUse', () => {
  assert.equal(run('PreToolUse', { stdout: JSON.stringify({ decision: 'approve', reason: 'fine' }) }).permission, 'allow');
  const blocked = run('PreToolUse', { stdout: JSON.stringify({ decision: 'block', reason: 'bad' }) });
  assert.equal(blocked.permission, 'deny');
  assert.equal(blocked.blockingMessage, 'bad');
});

test('Stop decision block, default reason', () => {
  const result = run('Stop', { stdout: JSON.stringify({ decision: 'block' }) });
  assert.equal(result.outcome, 'blocking');
  assert.equal(result.blockingMessage, 'Blocked by hook');
});

test('timeout is cancelled, or a block with onFailure: block', () => {
  assert.equal(run('PreToolUse', { timedOut: true, exitCode: null }).outcome, 'cancelled');
  const blocked = run('PreToolUse', { timedOut: true, exitCode: null }, blockOnFailure);
  assert.equal(blocked.outcome, 'blocking');
  assert.equal(blocked.blockedBy, 'onFailure');
  assert.equal(blocked.blockingMessage, '[hook.sh]: timed out; blocking because onFailure is "block"');
});

test('onFailure: block turns a failure into a block, but not on Stop', () => {
  assert.equal(run('PreToolUse', { exitCode: 1 }, blockOnFailure).outcome, 'blocking');
  assert.equal(run('PreToolUse', { exitCode: null, error: 'spawn ENOENT' }, blockOnFailure).outcome, 'blocking');
  assert.equal(run('PreToolUse', { stdout: '{bad}' }, blockOnFailure).outcome, 'blocking');
  assert.equal(run('Stop', { exitCode: 1 }, blockOnFailure).outcome, 'non_blocking_error');
  assert.equal(run('PreToolUse', { exitCode: 0 }, blockOnFailure).outcome, 'success');
});

test('mcp_tool reads any onFailure other than "continue" as block', () => {
  const handler: HookHandler = { type: 'mcp_tool', server: 's', tool: 't', onFailure: 'yes' };
  assert.equal(run('PreToolUse', { exitCode: null, error: 'not connected' }, handler).outcome, 'blocking');
  const cont: HookHandler = { type: 'mcp_tool', server: 's', tool: 't', onFailure: 'continue' };
  assert.equal(run('PreToolUse', { exitCode: null, error: 'not connected' }, cont).outcome, 'non_blocking_error');
});

test('exit 2 with a missing-script stderr on Stop is a non-blocking error', () => {
  const result = run('Stop', { exitCode: 2, stderr: '/bin/sh: 1: ./stop.sh: not found: No such file or directory' });
  assert.equal(result.outcome, 'non_blocking_error');
  assert.equal(run('PreToolUse', { exitCode: 2, stderr: "sh: can't open x" }).outcome, 'blocking');
});

test('exit 2 on Elicitation ignores hookSpecificOutput', () => {
  const result = run('Elicitation', { exitCode: 2, stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept' } }) });
  assert.equal(result.outcome, 'blocking');
  assert.equal(result.specific, undefined);
});

test('PreModelSwitch has no defer', () => {
  const result = run('PreModelSwitch', { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreModelSwitch', permissionDecision: 'defer' } }) });
  assert.equal(result.outcome, 'non_blocking_error');
});

test('a wrong-typed hookSpecificOutput field fails the whole output, decision: block included (§6.2)', () => {
  const output = JSON.stringify({ decision: 'block', reason: 'keep going', hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 5 } });
  const result = run('Stop', { stdout: output });
  assert.equal(result.outcome, 'non_blocking_error');
  assert.match(result.error ?? '', /hookSpecificOutput\.additionalContext/);
  // Exit 2 still blocks, but with stderr: the JSON that failed validation is not applied.
  const exit2 = run('Stop', { exitCode: 2, stdout: output, stderr: 'from stderr' });
  assert.equal(exit2.outcome, 'blocking');
  assert.equal(exit2.blockingMessage, 'from stderr');
  assert.equal(exit2.json, undefined);
});
