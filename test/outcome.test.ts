// Table tests of one hook's raw outcome -> result (spec §6.1, §6.2, §10.4).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HookHandler } from '../src/config/schema.ts';
import { EVENTS, type EventName } from '../src/events.ts';
import { classify, type HookResult, loadOutputSchemas, parseStdout } from '../src/outcome.ts';
import type { RawOutcome } from '../src/types.ts';

// classify words a bad hook output with zod's schemas, which a caller loads first (the fire path on demand).
await loadOutputSchemas();

const command: HookHandler = { type: 'command', command: 'hook.sh' };
const blockOnFailure: HookHandler = { type: 'command', command: 'hook.sh', onFailure: 'block' };

function raw(partial: Partial<RawOutcome>): RawOutcome {
  return { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1, ...partial };
}

function run(event: EventName, partial: Partial<RawOutcome>, handler: HookHandler = command) {
  return classify(raw(partial), { event, handler, label: 'hook.sh' });
}

const deny = JSON.stringify({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
});

test('exit 0 with empty stdout is a plain success', () => {
  assert.deepEqual(run('PreToolUse', {}), { outcome: 'success', answeredInJson: false });
});

test('exit 0 plain stdout is kept as plain text', () => {
  assert.equal(run('UserPromptSubmit', { stdout: 'hello\n' }).plainText, 'hello');
});

test('exit 2 blocks with stderr, or "No stderr output"', () => {
  assert.deepEqual(run('PreToolUse', { exitCode: 2, stderr: 'nope\n' }), {
    outcome: 'blocking',
    blockedBy: 'exit2',
    blockingMessage: 'nope',
    answeredInJson: false,
  });
  assert.equal(run('PreToolUse', { exitCode: 2 }).blockingMessage, 'No stderr output');
});

test('exit 2 still applies JSON, and a JSON block reason replaces stderr', () => {
  const result = run('PreToolUse', { exitCode: 2, stderr: 'from stderr', stdout: deny });
  assert.equal(result.outcome, 'blocking');
  assert.equal(result.blockedBy, 'exit2');
  assert.equal(result.blockingMessage, 'no');
  const context = run('PreToolUse', {
    exitCode: 2,
    stderr: 'from stderr',
    stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'ctx' } }),
  });
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
  const nested = run('PreToolUse', {
    stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'yes' } }),
  });
  assert.equal(nested.outcome, 'non_blocking_error');
  assert.match(nested.error ?? '', /hookSpecificOutput\.permissionDecision/);
  const continueType = run('Stop', { stdout: JSON.stringify({ continue: 'no' }) });
  assert.match(continueType.error ?? '', /continue/);
});

test('a mismatched hookEventName drops the nested object but honours decision: block', () => {
  const mismatched = run('PreToolUse', {
    stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } }),
  });
  assert.equal(mismatched.outcome, 'non_blocking_error');
  assert.match(mismatched.error ?? '', /hookEventName is "PostToolUse"/);
  const withBlock = run('Stop', {
    stdout: JSON.stringify({
      decision: 'block',
      reason: 'keep going',
      hookSpecificOutput: { hookEventName: 'PreToolUse' },
    }),
  });
  assert.equal(withBlock.outcome, 'blocking');
  assert.equal(withBlock.blockingMessage, 'keep going');
});

test('legacy decision approve/block map to allow/deny on PreToolUse', () => {
  assert.equal(
    run('PreToolUse', { stdout: JSON.stringify({ decision: 'approve', reason: 'fine' }) }).permission,
    'allow',
  );
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
  const result = run('Elicitation', {
    exitCode: 2,
    stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept' } }),
  });
  assert.equal(result.outcome, 'blocking');
  assert.equal(result.specific, undefined);
});

test('PreModelSwitch has no defer', () => {
  const result = run('PreModelSwitch', {
    stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreModelSwitch', permissionDecision: 'defer' } }),
  });
  assert.equal(result.outcome, 'non_blocking_error');
});

test('a wrong-typed hookSpecificOutput field fails the whole output, decision: block included (§6.2)', () => {
  const output = JSON.stringify({
    decision: 'block',
    reason: 'keep going',
    hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 5 },
  });
  const result = run('Stop', { stdout: output });
  assert.equal(result.outcome, 'non_blocking_error');
  assert.match(result.error ?? '', /hookSpecificOutput\.additionalContext/);
  // Exit 2 still blocks, but with stderr: the JSON that failed validation is not applied.
  const exit2 = run('Stop', { exitCode: 2, stdout: output, stderr: 'from stderr' });
  assert.equal(exit2.outcome, 'blocking');
  assert.equal(exit2.blockingMessage, 'from stderr');
  assert.equal(exit2.json, undefined);
});

// The classify table: one row per (event family, raw outcome) case -> the fields of the result that matter.
// A key given as undefined asserts that the result lacks it; `error` rows match a regex.
interface ClassifyRow {
  name: string;
  event: EventName;
  raw: Partial<RawOutcome>;
  handler?: HookHandler;
  fromPlugin?: boolean;
  expect: Partial<Omit<HookResult, 'error'>> & { error?: RegExp | undefined };
}

const json = (value: unknown) => JSON.stringify(value);
const specificOf = (event: EventName, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  json({ hookSpecificOutput: { hookEventName: event, ...fields }, ...extra });
const http: HookHandler = { type: 'http', url: 'http://127.0.0.1:1/hook', onFailure: 'block' };
const asyncBlock: HookHandler = { type: 'command', command: 'hook.sh', async: true, onFailure: 'block' };
const missingScript = { exitCode: 2, stderr: '/bin/sh: 1: ./x.sh: No such file or directory' };

const classifyRows: ClassifyRow[] = [
  // Exit 0
  {
    name: 'exit 0, no output',
    event: 'PreToolUse',
    raw: {},
    expect: { outcome: 'success', plainText: undefined, json: undefined, answeredInJson: false },
  },
  {
    name: 'exit 0 plain text is kept (trimmed) on any event; reduce decides what it means',
    event: 'PreToolUse',
    raw: { stdout: ' note \n' },
    expect: { outcome: 'success', plainText: 'note' },
  },
  {
    name: 'exit 0 JSON with continue:false is a success carrying it',
    event: 'Stop',
    raw: { stdout: json({ continue: false, stopReason: 'done' }) },
    expect: { outcome: 'success', answeredInJson: true, json: { continue: false, stopReason: 'done' } },
  },
  {
    name: 'an async marker line is dropped; the rest is the answer',
    event: 'Stop',
    raw: { stdout: `${json({ async: true })}\n${json({ decision: 'block', reason: 'later' })}` },
    expect: { outcome: 'blocking', blockedBy: 'json', blockingMessage: 'later' },
  },

  // Exit 2 on every family
  {
    name: 'permission: exit 2 blocks with stderr',
    event: 'PreToolUse',
    raw: { exitCode: 2, stderr: 'no\n' },
    expect: { outcome: 'blocking', blockedBy: 'exit2', blockingMessage: 'no', answeredInJson: false },
  },
  {
    name: 'permission (skill shell): exit 2 blocks',
    event: 'PreSkillShellCommand',
    raw: { exitCode: 2, stderr: 'no' },
    expect: { outcome: 'blocking', blockedBy: 'exit2', blockingMessage: 'no' },
  },
  {
    name: 'modelSwitch: exit 2 blocks',
    event: 'PreModelSwitch',
    raw: { exitCode: 2, stderr: 'no' },
    expect: { outcome: 'blocking', blockedBy: 'exit2' },
  },
  {
    name: 'permissionRequest: exit 2 is classified a block (reduce ignores it)',
    event: 'PermissionRequest',
    raw: { exitCode: 2, stderr: 'no' },
    expect: { outcome: 'blocking', blockedBy: 'exit2' },
  },
  {
    name: 'decision: exit 2 blocks',
    event: 'Stop',
    raw: { exitCode: 2, stderr: 'go on' },
    expect: { outcome: 'blocking', blockedBy: 'exit2', blockingMessage: 'go on' },
  },
  {
    name: 'elicitation: exit 2 blocks',
    event: 'ElicitationResult',
    raw: { exitCode: 2 },
    expect: { outcome: 'blocking', blockedBy: 'exit2', blockingMessage: 'No stderr output' },
  },
  {
    name: 'worktree: exit 2 blocks',
    event: 'WorktreeCreate',
    raw: { exitCode: 2, stderr: 'no' },
    expect: { outcome: 'blocking', blockedBy: 'exit2' },
  },
  {
    name: 'observe: exit 2 is classified a block (reduce makes it a hook error)',
    event: 'SessionStart',
    raw: { exitCode: 2, stderr: 'warn' },
    expect: { outcome: 'blocking', blockedBy: 'exit2', blockingMessage: 'warn' },
  },

  // Exit 2 with JSON
  {
    name: 'exit 2 + JSON deny: the JSON reason replaces stderr',
    event: 'PreToolUse',
    raw: {
      exitCode: 2,
      stderr: 'stderr',
      stdout: specificOf('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'json' }),
    },
    expect: { outcome: 'blocking', blockedBy: 'exit2', blockingMessage: 'json', permission: 'deny' },
  },
  {
    name: 'exit 2 + JSON allow: still a block (JSON cannot turn a 2 into allow)',
    event: 'PreToolUse',
    raw: { exitCode: 2, stderr: 'stderr', stdout: specificOf('PreToolUse', { permissionDecision: 'allow' }) },
    expect: { outcome: 'blocking', blockedBy: 'exit2', blockingMessage: 'stderr', permission: 'allow' },
  },
  {
    name: 'exit 2 + decision block on Stop: its reason replaces stderr',
    event: 'Stop',
    raw: { exitCode: 2, stderr: 'stderr', stdout: json({ decision: 'block', reason: 'json' }) },
    expect: { outcome: 'blocking', blockedBy: 'exit2', blockingMessage: 'json' },
  },
  {
    name: 'exit 2 + context: the block keeps its context',
    event: 'PostToolUse',
    raw: { exitCode: 2, stderr: 'stderr', stdout: specificOf('PostToolUse', { additionalContext: 'ctx' }) },
    expect: { outcome: 'blocking', blockingMessage: 'stderr', specific: { additionalContext: 'ctx' } },
  },
  {
    name: 'exit 2 on Elicitation drops hookSpecificOutput',
    event: 'Elicitation',
    raw: { exitCode: 2, stdout: specificOf('Elicitation', { action: 'accept' }) },
    expect: { outcome: 'blocking', specific: undefined },
  },
  {
    name: 'exit 2 on ElicitationResult drops hookSpecificOutput',
    event: 'ElicitationResult',
    raw: { exitCode: 2, stdout: specificOf('ElicitationResult', { action: 'accept' }) },
    expect: { outcome: 'blocking', specific: undefined },
  },
  {
    name: 'exit 2 + invalid JSON: a block that also reports the JSON error',
    event: 'PreToolUse',
    raw: { exitCode: 2, stderr: 'no', stdout: '{"a": }' },
    expect: { outcome: 'blocking', blockingMessage: 'no', error: /not valid JSON/ },
  },

  // Missing scripts (§6.1)
  {
    name: 'missing script on Stop is a non-blocking error',
    event: 'Stop',
    raw: missingScript,
    expect: { outcome: 'non_blocking_error', error: /hook script is missing/ },
  },
  {
    name: 'missing script on SubagentStop is a non-blocking error',
    event: 'SubagentStop',
    raw: missingScript,
    expect: { outcome: 'non_blocking_error' },
  },
  {
    name: 'missing script on TaskCompleted is a non-blocking error',
    event: 'TaskCompleted',
    raw: missingScript,
    expect: { outcome: 'non_blocking_error' },
  },
  {
    name: 'missing script on TeammateIdle is a non-blocking error',
    event: 'TeammateIdle',
    raw: missingScript,
    expect: { outcome: 'non_blocking_error' },
  },
  {
    name: 'missing plugin script on UserPromptSubmit is a non-blocking error',
    event: 'UserPromptSubmit',
    raw: missingScript,
    fromPlugin: true,
    expect: { outcome: 'non_blocking_error' },
  },
  {
    name: 'missing settings script on UserPromptSubmit blocks',
    event: 'UserPromptSubmit',
    raw: missingScript,
    expect: { outcome: 'blocking', blockedBy: 'exit2' },
  },
  {
    name: 'missing script on PreToolUse blocks',
    event: 'PreToolUse',
    raw: missingScript,
    fromPlugin: true,
    expect: { outcome: 'blocking', blockedBy: 'exit2' },
  },
  {
    name: 'a "missing script" with stdout is a block',
    event: 'Stop',
    raw: { ...missingScript, stdout: 'x' },
    expect: { outcome: 'blocking', blockedBy: 'exit2' },
  },

  // Other exit codes
  {
    name: 'exit 1 is a non-blocking error naming stderr',
    event: 'PreToolUse',
    raw: { exitCode: 1, stderr: 'boom' },
    expect: { outcome: 'non_blocking_error', error: /^Failed with non-blocking status code 1: boom$/ },
  },
  {
    name: 'exit 1 without stderr says so',
    event: 'PostToolUse',
    raw: { exitCode: 1 },
    expect: { outcome: 'non_blocking_error', error: /No stderr output/ },
  },
  {
    name: 'exit 1 with valid JSON: the JSON decides, no error',
    event: 'PreToolUse',
    raw: {
      exitCode: 1,
      stdout: specificOf('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'no' }),
    },
    expect: { outcome: 'blocking', blockedBy: 'json', permission: 'deny', error: undefined },
  },
  {
    name: 'exit 1 with plain stdout is still an error',
    event: 'UserPromptSubmit',
    raw: { exitCode: 1, stdout: 'text' },
    expect: { outcome: 'non_blocking_error', plainText: undefined },
  },

  // Failures and onFailure (§10.4)
  {
    name: 'timeout: cancelled, no decision',
    event: 'PreToolUse',
    raw: { timedOut: true, exitCode: null },
    expect: { outcome: 'cancelled', error: /timed out and was cancelled: hook\.sh/ },
  },
  {
    name: 'timeout + onFailure block: a block',
    event: 'PreToolUse',
    raw: { timedOut: true, exitCode: null },
    handler: blockOnFailure,
    expect: {
      outcome: 'blocking',
      blockedBy: 'onFailure',
      blockingMessage: '[hook.sh]: timed out; blocking because onFailure is "block"',
    },
  },
  {
    name: 'runner error: non-blocking',
    event: 'PreToolUse',
    raw: { exitCode: null, error: 'spawn ENOENT' },
    expect: { outcome: 'non_blocking_error', error: /^spawn ENOENT$/ },
  },
  {
    name: 'runner error + onFailure block: a block naming the error',
    event: 'PermissionRequest',
    raw: { exitCode: null, error: 'spawn ENOENT' },
    handler: blockOnFailure,
    expect: {
      outcome: 'blocking',
      blockedBy: 'onFailure',
      blockingMessage: '[hook.sh]: failed; blocking because onFailure is "block"\nspawn ENOENT',
      error: /spawn ENOENT/,
    },
  },
  {
    name: 'invalid JSON + onFailure block: a block',
    event: 'UserPromptSubmit',
    raw: { stdout: '{bad}' },
    handler: blockOnFailure,
    expect: {
      outcome: 'blocking',
      blockedBy: 'onFailure',
      blockingMessage:
        '[hook.sh]: failed; blocking because onFailure is "block"\nhook output looks like a JSON object but is not valid JSON',
    },
  },
  {
    name: 'exit 1 + onFailure block: a block with the stderr on its own line',
    event: 'PreToolUse',
    raw: { exitCode: 1, stderr: 'policy server unreachable\n' },
    handler: blockOnFailure,
    expect: {
      outcome: 'blocking',
      blockedBy: 'onFailure',
      blockingMessage: '[hook.sh]: failed; blocking because onFailure is "block"\npolicy server unreachable',
    },
  },
  {
    name: "exit 1 without stderr + onFailure block: Claude Code's placeholder",
    event: 'PreToolUse',
    raw: { exitCode: 1 },
    handler: blockOnFailure,
    expect: {
      outcome: 'blocking',
      blockedBy: 'onFailure',
      blockingMessage: '[hook.sh]: failed; blocking because onFailure is "block"\nNo stderr output',
    },
  },
  {
    name: 'an http refusal + onFailure block: the refusal on its own line',
    event: 'PreToolUse',
    raw: { exitCode: null, error: 'HTTP hook blocked: 10.0.0.1 is in a private range' },
    handler: { type: 'http', url: 'http://10.0.0.1/hook', onFailure: 'block' },
    expect: {
      outcome: 'blocking',
      blockedBy: 'onFailure',
      blockingMessage:
        '[hook.sh]: failed; blocking because onFailure is "block"\nHTTP hook blocked: 10.0.0.1 is in a private range',
    },
  },
  {
    name: 'onFailure block is ignored on Stop',
    event: 'Stop',
    raw: { exitCode: 1 },
    handler: blockOnFailure,
    expect: { outcome: 'non_blocking_error' },
  },
  {
    name: 'onFailure block is ignored on SubagentStop',
    event: 'SubagentStop',
    raw: { timedOut: true, exitCode: null },
    handler: blockOnFailure,
    expect: { outcome: 'cancelled' },
  },
  {
    name: 'onFailure block is ignored on TaskCompleted',
    event: 'TaskCompleted',
    raw: { exitCode: 1 },
    handler: blockOnFailure,
    expect: { outcome: 'non_blocking_error' },
  },
  {
    name: 'onFailure block is ignored on TeammateIdle',
    event: 'TeammateIdle',
    raw: { exitCode: 1 },
    handler: blockOnFailure,
    expect: { outcome: 'non_blocking_error' },
  },
  {
    name: 'onFailure block is ignored for async command hooks',
    event: 'PreToolUse',
    raw: { exitCode: 1 },
    handler: asyncBlock,
    expect: { outcome: 'non_blocking_error' },
  },
  {
    name: 'onFailure block on an http hook',
    event: 'PreToolUse',
    raw: { exitCode: null, error: 'HTTP 500 from http://127.0.0.1:1/hook' },
    handler: http,
    expect: { outcome: 'blocking', blockedBy: 'onFailure' },
  },
  {
    name: 'onFailure is not read on prompt hooks',
    event: 'PreToolUse',
    raw: { exitCode: null, error: 'API error' },
    handler: { type: 'prompt', prompt: 'p' },
    expect: { outcome: 'non_blocking_error' },
  },

  // JSON decisions and their precedence (§6.3, §6.4)
  {
    name: 'permissionDecision beats the legacy top-level decision',
    event: 'PreToolUse',
    raw: { stdout: specificOf('PreToolUse', { permissionDecision: 'allow' }, { decision: 'block', reason: 'legacy' }) },
    expect: { outcome: 'success', permission: 'allow', permissionReason: 'legacy' },
  },
  {
    name: 'legacy approve is allow on PreToolUse',
    event: 'PreToolUse',
    raw: { stdout: json({ decision: 'approve', reason: 'fine' }) },
    expect: { outcome: 'success', permission: 'allow', permissionReason: 'fine' },
  },
  {
    name: 'legacy approve means nothing on PreSkillShellCommand',
    event: 'PreSkillShellCommand',
    raw: { stdout: json({ decision: 'approve' }) },
    expect: { outcome: 'success', permission: undefined },
  },
  {
    name: 'legacy block is deny on a permission event, default reason',
    event: 'PreSkillShellCommand',
    raw: { stdout: json({ decision: 'block' }) },
    expect: { outcome: 'blocking', blockedBy: 'json', permission: 'deny', blockingMessage: 'Blocked by hook' },
  },
  {
    name: 'deny without permissionDecisionReason falls back to reason',
    event: 'PreToolUse',
    raw: { stdout: specificOf('PreToolUse', { permissionDecision: 'deny' }, { reason: 'top' }) },
    expect: { outcome: 'blocking', blockingMessage: 'top', permissionReason: 'top' },
  },
  {
    name: 'ask and defer are answers, not blocks',
    event: 'PreToolUse',
    raw: { stdout: specificOf('PreToolUse', { permissionDecision: 'defer' }) },
    expect: { outcome: 'success', permission: 'defer' },
  },
  {
    name: 'PreModelSwitch: ask is an answer',
    event: 'PreModelSwitch',
    raw: { stdout: specificOf('PreModelSwitch', { permissionDecision: 'ask' }) },
    expect: { outcome: 'success', permission: 'ask' },
  },
  {
    name: 'PreModelSwitch: defer fails validation',
    event: 'PreModelSwitch',
    raw: { stdout: specificOf('PreModelSwitch', { permissionDecision: 'defer' }) },
    expect: { outcome: 'non_blocking_error', error: /hookSpecificOutput\.permissionDecision/ },
  },
  {
    name: 'decision block on a decision event, default reason',
    event: 'PostToolUse',
    raw: { stdout: json({ decision: 'block' }) },
    expect: { outcome: 'blocking', blockedBy: 'json', blockingMessage: 'Blocked by hook', permission: undefined },
  },
  {
    name: 'decision block is classified a block on PermissionRequest (reduce ignores it)',
    event: 'PermissionRequest',
    raw: { stdout: json({ decision: 'block', reason: 'r' }) },
    expect: { outcome: 'blocking', blockedBy: 'json' },
  },
  {
    name: 'PermissionRequest: the decision object is kept',
    event: 'PermissionRequest',
    raw: { stdout: specificOf('PermissionRequest', { decision: { behavior: 'deny', message: 'm', interrupt: true } }) },
    expect: { outcome: 'success', specific: { decision: { behavior: 'deny', message: 'm', interrupt: true } } },
  },
  {
    name: 'PermissionRequest: a decision without behavior fails validation',
    event: 'PermissionRequest',
    raw: { stdout: specificOf('PermissionRequest', { decision: { message: 'm' } }) },
    expect: { outcome: 'non_blocking_error' },
  },
  {
    name: 'fields the event does not honour are dropped',
    event: 'PreSkillShellCommand',
    raw: { stdout: specificOf('PreSkillShellCommand', { additionalContext: 'x', permissionDecision: 'allow' }) },
    expect: { outcome: 'success', specific: { permissionDecision: 'allow' } },
  },
  {
    name: 'an event without hookSpecificOutput fields keeps none',
    event: 'SessionEnd',
    raw: { stdout: specificOf('SessionEnd', { additionalContext: 'x' }) },
    expect: { outcome: 'success', specific: {} },
  },
  {
    name: 'a mismatched hookEventName is an error',
    event: 'Stop',
    raw: { stdout: specificOf('PreToolUse', { permissionDecision: 'deny' }) },
    expect: { outcome: 'non_blocking_error', error: /hookEventName is "PreToolUse"/ },
  },
  {
    name: 'a mismatched hookEventName beside decision block: the block stands',
    event: 'UserPromptSubmit',
    raw: { stdout: specificOf('Stop', {}, { decision: 'block', reason: 'r' }) },
    expect: { outcome: 'blocking', blockedBy: 'json', blockingMessage: 'r', specific: undefined },
  },
  {
    name: 'a wrong-typed field fails the whole output',
    event: 'SessionStart',
    raw: { stdout: specificOf('SessionStart', { watchPaths: 'a' }) },
    expect: { outcome: 'non_blocking_error', error: /hookSpecificOutput\.watchPaths/ },
  },
  {
    name: 'schema-invalid top-level JSON is an error',
    event: 'Stop',
    raw: { stdout: json({ systemMessage: 5 }) },
    expect: { outcome: 'non_blocking_error', error: /systemMessage/ },
  },
];

for (const row of classifyRows) {
  test(`classify ${row.event}: ${row.name}`, () => {
    const result = classify(raw(row.raw), {
      event: row.event,
      handler: row.handler ?? command,
      label: 'hook.sh',
      ...(row.fromPlugin ? { fromPlugin: true } : {}),
    });
    const { error, ...fields } = row.expect;
    for (const [key, value] of Object.entries(fields)) assert.deepEqual(result[key as keyof HookResult], value, key);
    if ('error' in row.expect) {
      if (error === undefined) assert.equal(result.error, undefined, 'error');
      else assert.match(result.error ?? '', error);
    }
  });
}

test('the classify table covers every event family and every outcome', () => {
  assert.deepEqual(
    new Set(classifyRows.map((row) => EVENTS[row.event].family)),
    new Set(['permission', 'modelSwitch', 'permissionRequest', 'decision', 'elicitation', 'worktree', 'observe']),
  );
  assert.deepEqual(
    new Set(classifyRows.map((row) => row.expect.outcome)),
    new Set(['success', 'blocking', 'non_blocking_error', 'cancelled']),
  );
});
