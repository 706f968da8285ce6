// Table tests of the reduction of several hook results into one decision (spec §7, §12, §14).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classify } from '../src/outcome.ts';
import { reduce, type ReduceItem } from '../src/reduce.ts';
import type { EventName } from '../src/events.ts';
import type { Layer, RawOutcome } from '../src/types.ts';

interface Spec { exitCode?: number | null; stdout?: unknown; stderr?: string; timedOut?: boolean; layer?: Layer; onFailure?: 'block' }

function items(event: EventName, specs: Spec[]): ReduceItem[] {
  return specs.map((spec, index) => {
    const raw: RawOutcome = {
      exitCode: spec.exitCode === undefined ? 0 : spec.exitCode,
      stdout: typeof spec.stdout === 'string' ? spec.stdout : spec.stdout === undefined ? '' : JSON.stringify(spec.stdout),
      stderr: spec.stderr ?? '', timedOut: spec.timedOut ?? false, durationMs: 1,
    };
    const label = `hook${index}`;
    const handler = { type: 'command' as const, command: label, ...(spec.onFailure ? { onFailure: spec.onFailure } : {}) };
    return { result: classify(raw, { event, handler, label, fromPlugin: spec.layer === 'plugin' }), label, layer: spec.layer ?? 'project', exitCode: raw.exitCode, stdout: raw.stdout };
  });
}

const pre = (specific: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific }, ...extra });
const input = { tool_name: 'Bash' };

test('PreToolUse: deny beats allow, whatever the order', () => {
  for (const specs of [[{ stdout: pre({ permissionDecision: 'allow' }) }, { stdout: pre({ permissionDecision: 'deny', permissionDecisionReason: 'no' }) }],
    [{ stdout: pre({ permissionDecision: 'deny', permissionDecisionReason: 'no' }) }, { stdout: pre({ permissionDecision: 'allow' }) }]]) {
    const reduced = reduce('PreToolUse', items('PreToolUse', specs), { input });
    assert.equal(reduced.blocked, true);
    assert.deepEqual(reduced.output, { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' } });
  }
});

test('PreToolUse: ask beats allow, defer beats ask, exit 2 counts as deny', () => {
  const ask = reduce('PreToolUse', items('PreToolUse', [{ stdout: pre({ permissionDecision: 'allow' }) }, { stdout: pre({ permissionDecision: 'ask', permissionDecisionReason: 'check' }) }]), { input });
  assert.equal((ask.output?.hookSpecificOutput as Record<string, unknown>).permissionDecision, 'ask');
  assert.equal(ask.blocked, false);
  const defer = reduce('PreToolUse', items('PreToolUse', [{ stdout: pre({ permissionDecision: 'ask' }) }, { stdout: pre({ permissionDecision: 'defer' }) }]), { input });
  assert.equal((defer.output?.hookSpecificOutput as Record<string, unknown>).permissionDecision, 'defer');
  const exit2 = reduce('PreToolUse', items('PreToolUse', [{ stdout: pre({ permissionDecision: 'allow' }) }, { exitCode: 2, stderr: 'stop' }]), { input });
  assert.equal(exit2.blocked, true);
  assert.equal(exit2.reason, 'stop');
  assert.deepEqual(exit2.deciders, [1]);
});

test('PreToolUse: updatedInput from the last allow/ask/no-decision hook in configuration order, dropped with deny', () => {
  const rewrite = (command: string, decision?: string) => ({ stdout: pre({ updatedInput: { command }, ...(decision ? { permissionDecision: decision } : {}) }) });
  const reduced = reduce('PreToolUse', items('PreToolUse', [rewrite('first', 'allow'), rewrite('second')]), { input });
  assert.deepEqual((reduced.output?.hookSpecificOutput as Record<string, unknown>).updatedInput, { command: 'second' });
  const denied = reduce('PreToolUse', items('PreToolUse', [rewrite('first', 'allow'), { exitCode: 2, stderr: 'no' }]), { input });
  assert.equal((denied.output?.hookSpecificOutput as Record<string, unknown>).updatedInput, undefined);
});

test('every additionalContext and systemMessage is kept; any continue:false wins', () => {
  const reduced = reduce('PostToolUse', items('PostToolUse', [
    { stdout: { systemMessage: 'one', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'a' } } },
    { stdout: { systemMessage: 'two', continue: false, stopReason: 'done', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'b' } } },
  ]), { input });
  assert.deepEqual(reduced.output, { continue: false, stopReason: 'done', systemMessage: 'one\ntwo', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'a\n\nb' } });
  assert.equal(reduced.blocked, false);
});

test('Stop: all block reasons are fed back', () => {
  const reduced = reduce('Stop', items('Stop', [{ stdout: { decision: 'block', reason: 'tests fail' } }, { exitCode: 2, stderr: 'lint fails' }, {}]), { input: {} });
  assert.equal(reduced.blocked, true);
  assert.equal(reduced.reason, 'tests fail\nlint fails');
  assert.deepEqual(reduced.output, { decision: 'block', reason: 'tests fail\nlint fails' });
});

test('PermissionRequest: exit 2 is ignored, an allow from a sibling still wins; deny beats allow', () => {
  const decision = (behavior: string, extra: Record<string, unknown> = {}) => ({ stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior, ...extra } } } });
  const allowed = reduce('PermissionRequest', items('PermissionRequest', [{ exitCode: 2, stderr: 'no' }, decision('allow')]), { input });
  assert.equal(allowed.blocked, false);
  assert.deepEqual(allowed.output, { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
  const denied = reduce('PermissionRequest', items('PermissionRequest', [decision('allow'), decision('deny', { message: 'nope' })]), { input });
  assert.equal(denied.blocked, true);
  assert.equal(denied.reason, 'nope');
  const nothing = reduce('PermissionRequest', items('PermissionRequest', [{ exitCode: 2, stderr: 'no' }]), { input });
  assert.equal(nothing.blocked, false);
  assert.equal(nothing.output, undefined);
});

test('observational events never block; exit 2 stderr becomes a hook error', () => {
  const reduced = reduce('SessionStart', items('SessionStart', [{ exitCode: 2, stderr: 'warn' }, { stdout: 'context text' }]), { input: {} });
  assert.equal(reduced.blocked, false);
  assert.deepEqual(reduced.output, { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'context text' } });
  assert.deepEqual(reduced.errors, ['SessionStart hook error: [hook0]: warn']);
});

test('UserPromptSubmit plain stdout is context; exit 2 blocks', () => {
  const context = reduce('UserPromptSubmit', items('UserPromptSubmit', [{ stdout: 'remember X' }]), { input: {} });
  assert.deepEqual(context.output, { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'remember X' } });
  const blocked = reduce('UserPromptSubmit', items('UserPromptSubmit', [{ exitCode: 2, stderr: 'secret in prompt' }]), { input: {} });
  assert.equal(blocked.blocked, true);
});

test('PreModelSwitch: a timeout blocks', () => {
  const reduced = reduce('PreModelSwitch', items('PreModelSwitch', [{ timedOut: true, exitCode: null }]), { input: {} });
  assert.equal(reduced.blocked, true);
});

test('ConfigChange from policy_settings cannot be blocked', () => {
  const reduced = reduce('ConfigChange', items('ConfigChange', [{ exitCode: 2, stderr: 'no' }]), { input: { source: 'policy_settings' } });
  assert.equal(reduced.blocked, false);
  assert.equal(reduce('ConfigChange', items('ConfigChange', [{ exitCode: 2, stderr: 'no' }]), { input: { source: 'user_settings' } }).blocked, true);
});

test('WorktreeCreate: the first hook with a path wins; none fails the creation', () => {
  const created = reduce('WorktreeCreate', items('WorktreeCreate', [{ exitCode: 1, stdout: '/bad' }, { stdout: 'log line\n\u001b[32m/tmp/wt\u001b[0m\n' }]), { input: {} });
  assert.equal(created.plainText, '/tmp/wt');
  assert.equal(created.blocked, false);
  const failed = reduce('WorktreeCreate', items('WorktreeCreate', [{ exitCode: 1, stderr: 'git failed' }]), { input: {} });
  assert.equal(failed.blocked, true);
});

test('Elicitation: managed answers first, any cancel cancels', () => {
  const answer = (action: string, layer: Layer, content?: Record<string, unknown>) => ({ layer, stdout: { hookSpecificOutput: { hookEventName: 'Elicitation', action, ...(content ? { content } : {}) } } });
  const managed = reduce('Elicitation', items('Elicitation', [answer('cancel', 'user'), answer('accept', 'managed', { a: 1 })]), { input: {} });
  assert.deepEqual(managed.output, { hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { a: 1 } } });
  const cancelled = reduce('Elicitation', items('Elicitation', [answer('accept', 'user', { a: 1 }), answer('cancel', 'user')]), { input: {} });
  assert.equal((cancelled.output?.hookSpecificOutput as Record<string, unknown>).action, 'cancel');
});

test('--fail-closed turns failures into blocks where the event can block', () => {
  const reduced = reduce('PreToolUse', items('PreToolUse', [{ exitCode: 1, stderr: 'crash' }]), { input, failClosed: true });
  assert.equal(reduced.blocked, true);
  assert.equal(reduced.failClosed, true);
  assert.match(reduced.reason ?? '', /--fail-closed/);
  assert.equal(reduce('SessionStart', items('SessionStart', [{ exitCode: 1 }]), { input: {}, failClosed: true }).blocked, false);
});

test('PreSkillShellCommand: ask, defer or any updatedInput keeps the command from running; allow adds nothing (§6.4, §7)', () => {
  const skill = (specific: Record<string, unknown>) => ({ stdout: { hookSpecificOutput: { hookEventName: 'PreSkillShellCommand', ...specific } } });
  const shell = (specs: Spec[]) => reduce('PreSkillShellCommand', items('PreSkillShellCommand', specs), { input });
  assert.equal(shell([skill({ permissionDecision: 'allow' })]).blocked, false);
  for (const specific of [{ permissionDecision: 'ask' }, { permissionDecision: 'defer' }, { updatedInput: { command: 'ls' } }, { permissionDecision: 'allow', updatedInput: { command: 'ls' } }]) {
    const reduced = shell([skill({ permissionDecision: 'allow' }), skill(specific)]);
    assert.equal(reduced.blocked, true, JSON.stringify(specific));
    assert.deepEqual(reduced.deciders, [1]);
    assert.ok(reduced.reason);
  }
  // PreSkillShellCommand has no additionalContext (§6.4).
  assert.equal(shell([skill({ additionalContext: 'note' })]).output, undefined);
});

test('PermissionRequest: a deny with interrupt wins over a plain deny (§7, §12)', () => {
  const decide = (decision: Record<string, unknown>) => ({ stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } } });
  const reduced = reduce('PermissionRequest', items('PermissionRequest', [decide({ behavior: 'deny', message: 'no' }), decide({ behavior: 'deny', message: 'stop all', interrupt: true })]), { input });
  assert.equal(reduced.blocked, true);
  assert.deepEqual(reduced.deciders, [1]);
  assert.deepEqual((reduced.output?.hookSpecificOutput as Record<string, unknown>).decision, { behavior: 'deny', message: 'stop all', interrupt: true });
});

test('PreCompact: each hook\'s plain stdout is cut at 10,000 characters (§6.2)', () => {
  const reduced = reduce('PreCompact', items('PreCompact', [{ stdout: 'a'.repeat(12_000) }, { stdout: 'keep tests' }]), { input: {} });
  assert.equal(reduced.plainText, `${'a'.repeat(10_000)}\nkeep tests`);
});

test('UserPromptSubmit: exit 2 from a plugin hook whose script is missing is a non-blocking error (§6.1)', () => {
  const missing = { exitCode: 2, stderr: '/bin/sh: 1: /plugins/x/hook.sh: No such file or directory' };
  const plugin = reduce('UserPromptSubmit', items('UserPromptSubmit', [{ ...missing, layer: 'plugin' }]), { input: {} });
  assert.equal(plugin.blocked, false);
  assert.match(plugin.errors.join('\n'), /No such file/);
  assert.equal(reduce('UserPromptSubmit', items('UserPromptSubmit', [missing]), { input: {} }).blocked, true);
  assert.equal(reduce('UserPromptSubmit', items('UserPromptSubmit', [{ ...missing, layer: 'plugin', stdout: 'x' }]), { input: {} }).blocked, true);
});

test('onFailure: block on an event that cannot block still reports the failure', () => {
  const reduced = reduce('PostCompact', items('PostCompact', [{ exitCode: 1, stderr: 'boom', onFailure: 'block' }]), { input: {} });
  assert.equal(reduced.blocked, false);
  assert.match(reduced.errors.join('\n'), /boom/);
});
