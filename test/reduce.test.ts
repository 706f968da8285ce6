// Table tests of the reduction of several hook results into one decision (spec §7, §12, §14).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENTS, type EventName } from '../src/events.ts';
import { classify, loadOutputSchemas } from '../src/outcome.ts';
import { type Reduced, type ReduceItem, reduce } from '../src/reduce.ts';
import type { Layer, RawOutcome } from '../src/types.ts';

// classify words a bad hook output with zod's schemas, which a caller loads first (the fire path on demand).
await loadOutputSchemas();

interface Spec {
  exitCode?: number | null;
  stdout?: unknown;
  stderr?: string;
  timedOut?: boolean;
  layer?: Layer;
  onFailure?: 'block';
}

function items(event: EventName, specs: Spec[]): ReduceItem[] {
  return specs.map((spec, index) => {
    const raw: RawOutcome = {
      exitCode: spec.exitCode === undefined ? 0 : spec.exitCode,
      stdout:
        typeof spec.stdout === 'string' ? spec.stdout : spec.stdout === undefined ? '' : JSON.stringify(spec.stdout),
      stderr: spec.stderr ?? '',
      timedOut: spec.timedOut ?? false,
      durationMs: 1,
    };
    const label = `hook${index}`;
    const handler = {
      type: 'command' as const,
      command: label,
      ...(spec.onFailure ? { onFailure: spec.onFailure } : {}),
    };
    return {
      result: classify(raw, { event, handler, label, fromPlugin: spec.layer === 'plugin' }),
      label,
      layer: spec.layer ?? 'project',
      exitCode: raw.exitCode,
      stdout: raw.stdout,
    };
  });
}

const pre = (specific: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific },
  ...extra,
});
const input = { tool_name: 'Bash' };

test('PreToolUse: deny beats allow, whatever the order', () => {
  for (const specs of [
    [
      { stdout: pre({ permissionDecision: 'allow' }) },
      { stdout: pre({ permissionDecision: 'deny', permissionDecisionReason: 'no' }) },
    ],
    [
      { stdout: pre({ permissionDecision: 'deny', permissionDecisionReason: 'no' }) },
      { stdout: pre({ permissionDecision: 'allow' }) },
    ],
  ]) {
    const reduced = reduce('PreToolUse', items('PreToolUse', specs), { input });
    assert.equal(reduced.blocked, true);
    assert.deepEqual(reduced.output, {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
    });
  }
});

test('PreToolUse: ask beats allow, defer beats ask, exit 2 counts as deny', () => {
  const ask = reduce(
    'PreToolUse',
    items('PreToolUse', [
      { stdout: pre({ permissionDecision: 'allow' }) },
      { stdout: pre({ permissionDecision: 'ask', permissionDecisionReason: 'check' }) },
    ]),
    { input },
  );
  assert.equal((ask.output!.hookSpecificOutput as Record<string, unknown>).permissionDecision, 'ask');
  assert.equal(ask.blocked, false);
  const defer = reduce(
    'PreToolUse',
    items('PreToolUse', [
      { stdout: pre({ permissionDecision: 'ask' }) },
      { stdout: pre({ permissionDecision: 'defer' }) },
    ]),
    { input },
  );
  assert.equal((defer.output!.hookSpecificOutput as Record<string, unknown>).permissionDecision, 'defer');
  const exit2 = reduce(
    'PreToolUse',
    items('PreToolUse', [{ stdout: pre({ permissionDecision: 'allow' }) }, { exitCode: 2, stderr: 'stop' }]),
    { input },
  );
  assert.equal(exit2.blocked, true);
  assert.equal(exit2.reason, 'stop');
  assert.deepEqual(exit2.deciders, [1]);
});

test('PreToolUse: updatedInput from the last allow/ask/no-decision hook in configuration order, dropped with deny', () => {
  const rewrite = (command: string, decision?: string) => ({
    stdout: pre({ updatedInput: { command }, ...(decision ? { permissionDecision: decision } : {}) }),
  });
  const reduced = reduce('PreToolUse', items('PreToolUse', [rewrite('first', 'allow'), rewrite('second')]), { input });
  assert.deepEqual((reduced.output!.hookSpecificOutput as Record<string, unknown>).updatedInput, { command: 'second' });
  const denied = reduce('PreToolUse', items('PreToolUse', [rewrite('first', 'allow'), { exitCode: 2, stderr: 'no' }]), {
    input,
  });
  assert.equal((denied.output!.hookSpecificOutput as Record<string, unknown>).updatedInput, undefined);
});

test('every additionalContext and systemMessage is kept; any continue:false wins', () => {
  const reduced = reduce(
    'PostToolUse',
    items('PostToolUse', [
      {
        stdout: { systemMessage: 'one', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'a' } },
      },
      {
        stdout: {
          systemMessage: 'two',
          continue: false,
          stopReason: 'done',
          hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'b' },
        },
      },
    ]),
    { input },
  );
  assert.deepEqual(reduced.output, {
    continue: false,
    stopReason: 'done',
    systemMessage: 'one\ntwo',
    hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'a\n\nb' },
  });
  assert.equal(reduced.blocked, false);
});

test('Stop: all block reasons are fed back', () => {
  const reduced = reduce(
    'Stop',
    items('Stop', [{ stdout: { decision: 'block', reason: 'tests fail' } }, { exitCode: 2, stderr: 'lint fails' }, {}]),
    { input: {} },
  );
  assert.equal(reduced.blocked, true);
  assert.equal(reduced.reason, 'tests fail\nlint fails');
  assert.deepEqual(reduced.output, { decision: 'block', reason: 'tests fail\nlint fails' });
});

test('PermissionRequest: exit 2 is ignored, an allow from a sibling still wins; deny beats allow', () => {
  const decision = (behavior: string, extra: Record<string, unknown> = {}) => ({
    stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior, ...extra } } },
  });
  const allowed = reduce(
    'PermissionRequest',
    items('PermissionRequest', [{ exitCode: 2, stderr: 'no' }, decision('allow')]),
    { input },
  );
  assert.equal(allowed.blocked, false);
  assert.deepEqual(allowed.output, {
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
  });
  const denied = reduce(
    'PermissionRequest',
    items('PermissionRequest', [decision('allow'), decision('deny', { message: 'nope' })]),
    { input },
  );
  assert.equal(denied.blocked, true);
  assert.equal(denied.reason, 'nope');
  const nothing = reduce('PermissionRequest', items('PermissionRequest', [{ exitCode: 2, stderr: 'no' }]), { input });
  assert.equal(nothing.blocked, false);
  assert.equal(nothing.output, undefined);
});

test('observational events never block; exit 2 stderr becomes a hook error', () => {
  const reduced = reduce(
    'SessionStart',
    items('SessionStart', [{ exitCode: 2, stderr: 'warn' }, { stdout: 'context text' }]),
    { input: {} },
  );
  assert.equal(reduced.blocked, false);
  assert.deepEqual(reduced.output, {
    hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'context text' },
  });
  assert.deepEqual(reduced.errors, ['SessionStart hook error: [hook0]: warn']);
});

test('UserPromptSubmit plain stdout is context; exit 2 blocks', () => {
  const context = reduce('UserPromptSubmit', items('UserPromptSubmit', [{ stdout: 'remember X' }]), { input: {} });
  assert.deepEqual(context.output, {
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'remember X' },
  });
  const blocked = reduce('UserPromptSubmit', items('UserPromptSubmit', [{ exitCode: 2, stderr: 'secret in prompt' }]), {
    input: {},
  });
  assert.equal(blocked.blocked, true);
});

test('PreModelSwitch: a timeout blocks', () => {
  const reduced = reduce('PreModelSwitch', items('PreModelSwitch', [{ timedOut: true, exitCode: null }]), {
    input: {},
  });
  assert.equal(reduced.blocked, true);
});

test('ConfigChange from policy_settings cannot be blocked', () => {
  const reduced = reduce('ConfigChange', items('ConfigChange', [{ exitCode: 2, stderr: 'no' }]), {
    input: { source: 'policy_settings' },
  });
  assert.equal(reduced.blocked, false);
  assert.equal(
    reduce('ConfigChange', items('ConfigChange', [{ exitCode: 2, stderr: 'no' }]), {
      input: { source: 'user_settings' },
    }).blocked,
    true,
  );
});

test('WorktreeCreate: the first hook with a path wins; none fails the creation', () => {
  const created = reduce(
    'WorktreeCreate',
    items('WorktreeCreate', [{ exitCode: 1, stdout: '/bad' }, { stdout: 'log line\n\u001b[32m/tmp/wt\u001b[0m\n' }]),
    { input: {} },
  );
  assert.equal(created.plainText, '/tmp/wt');
  assert.equal(created.blocked, false);
  const failed = reduce('WorktreeCreate', items('WorktreeCreate', [{ exitCode: 1, stderr: 'git failed' }]), {
    input: {},
  });
  assert.equal(failed.blocked, true);
});

test('Elicitation: managed answers first, any cancel cancels', () => {
  const answer = (action: string, layer: Layer, content?: Record<string, unknown>) => ({
    layer,
    stdout: { hookSpecificOutput: { hookEventName: 'Elicitation', action, ...(content ? { content } : {}) } },
  });
  const managed = reduce(
    'Elicitation',
    items('Elicitation', [answer('cancel', 'user'), answer('accept', 'managed', { a: 1 })]),
    { input: {} },
  );
  assert.deepEqual(managed.output, {
    hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { a: 1 } },
  });
  const cancelled = reduce(
    'Elicitation',
    items('Elicitation', [answer('accept', 'user', { a: 1 }), answer('cancel', 'user')]),
    { input: {} },
  );
  assert.equal((cancelled.output!.hookSpecificOutput as Record<string, unknown>).action, 'cancel');
});

test('--fail-closed turns failures into blocks where the event can block', () => {
  const reduced = reduce('PreToolUse', items('PreToolUse', [{ exitCode: 1, stderr: 'crash' }]), {
    input,
    failClosed: true,
  });
  assert.equal(reduced.blocked, true);
  assert.equal(reduced.failClosed, true);
  assert.match(reduced.reason ?? '', /--fail-closed/);
  assert.equal(
    reduce('SessionStart', items('SessionStart', [{ exitCode: 1 }]), { input: {}, failClosed: true }).blocked,
    false,
  );
});

test('PreSkillShellCommand: ask, defer or any updatedInput keeps the command from running; allow adds nothing (§6.4, §7)', () => {
  const skill = (specific: Record<string, unknown>) => ({
    stdout: { hookSpecificOutput: { hookEventName: 'PreSkillShellCommand', ...specific } },
  });
  const shell = (specs: Spec[]) => reduce('PreSkillShellCommand', items('PreSkillShellCommand', specs), { input });
  assert.equal(shell([skill({ permissionDecision: 'allow' })]).blocked, false);
  for (const specific of [
    { permissionDecision: 'ask' },
    { permissionDecision: 'defer' },
    { updatedInput: { command: 'ls' } },
    { permissionDecision: 'allow', updatedInput: { command: 'ls' } },
  ]) {
    const reduced = shell([skill({ permissionDecision: 'allow' }), skill(specific)]);
    assert.equal(reduced.blocked, true, JSON.stringify(specific));
    assert.deepEqual(reduced.deciders, [1]);
    assert.ok(reduced.reason);
  }
  // PreSkillShellCommand has no additionalContext (§6.4).
  assert.equal(shell([skill({ additionalContext: 'note' })]).output, undefined);
});

test('PermissionRequest: a deny with interrupt wins over a plain deny (§7, §12)', () => {
  const decide = (decision: Record<string, unknown>) => ({
    stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } },
  });
  const reduced = reduce(
    'PermissionRequest',
    items('PermissionRequest', [
      decide({ behavior: 'deny', message: 'no' }),
      decide({ behavior: 'deny', message: 'stop all', interrupt: true }),
    ]),
    { input },
  );
  assert.equal(reduced.blocked, true);
  assert.deepEqual(reduced.deciders, [1]);
  assert.deepEqual((reduced.output!.hookSpecificOutput as Record<string, unknown>).decision, {
    behavior: 'deny',
    message: 'stop all',
    interrupt: true,
  });
});

test("PreCompact: each hook's plain stdout is cut at 10,000 characters (§6.2)", () => {
  const reduced = reduce(
    'PreCompact',
    items('PreCompact', [{ stdout: 'a'.repeat(12_000) }, { stdout: 'keep tests' }]),
    { input: {} },
  );
  assert.equal(reduced.plainText, `${'a'.repeat(10_000)}\nkeep tests`);
});

test('UserPromptSubmit: exit 2 from a plugin hook whose script is missing is a non-blocking error (§6.1)', () => {
  const missing = { exitCode: 2, stderr: '/bin/sh: 1: /plugins/x/hook.sh: No such file or directory' };
  const plugin = reduce('UserPromptSubmit', items('UserPromptSubmit', [{ ...missing, layer: 'plugin' }]), {
    input: {},
  });
  assert.equal(plugin.blocked, false);
  assert.match(plugin.errors.join('\n'), /No such file/);
  assert.equal(reduce('UserPromptSubmit', items('UserPromptSubmit', [missing]), { input: {} }).blocked, true);
  assert.equal(
    reduce('UserPromptSubmit', items('UserPromptSubmit', [{ ...missing, layer: 'plugin', stdout: 'x' }]), { input: {} })
      .blocked,
    true,
  );
});

test('onFailure: block on an event that cannot block still reports the failure', () => {
  const reduced = reduce('PostCompact', items('PostCompact', [{ exitCode: 1, stderr: 'boom', onFailure: 'block' }]), {
    input: {},
  });
  assert.equal(reduced.blocked, false);
  assert.match(reduced.errors.join('\n'), /boom/);
});

// The reduce table: one row per (event family, hook results) case -> the reduced decision. Hooks are given as raw
// outcomes and classified first, as in a firing. Only the keys of `expect` are checked; undefined asserts absence.
interface ReduceRow {
  name: string;
  event: EventName;
  hooks: Spec[];
  input?: Record<string, unknown>;
  failClosed?: boolean;
  expect: Partial<Reduced>;
}

const specific = (event: EventName, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  stdout: { hookSpecificOutput: { hookEventName: event, ...fields }, ...extra },
});
const decide = (
  event: EventName,
  permissionDecision: string,
  permissionDecisionReason?: string,
  extra: Record<string, unknown> = {},
) =>
  specific(event, {
    permissionDecision,
    ...(permissionDecisionReason !== undefined ? { permissionDecisionReason } : {}),
    ...extra,
  });
const out = (event: EventName, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...extra,
  hookSpecificOutput: { hookEventName: event, ...fields },
});
const behaviour = (decision: Record<string, unknown>) => specific('PermissionRequest', { decision });
const exit2 = (stderr: string): Spec => ({ exitCode: 2, stderr });
const crash: Spec = { exitCode: 1, stderr: 'boom' };
const timeout: Spec = { timedOut: true, exitCode: null };
const crashError = (event: EventName, index = 0) =>
  `${event} hook error: [hook${index}]: Failed with non-blocking status code 1: boom`;

const reduceRows: ReduceRow[] = [
  // permission: PreToolUse
  {
    name: 'no hooks: nothing to say',
    event: 'PreToolUse',
    hooks: [],
    expect: { blocked: false, output: undefined, deciders: [], errors: [] },
  },
  {
    name: 'a lone allow',
    event: 'PreToolUse',
    hooks: [decide('PreToolUse', 'allow', 'ok')],
    expect: {
      blocked: false,
      deciders: [0],
      output: out('PreToolUse', { permissionDecision: 'allow', permissionDecisionReason: 'ok' }),
    },
  },
  {
    name: 'deny beats allow; every deny reason is joined',
    event: 'PreToolUse',
    hooks: [decide('PreToolUse', 'deny', 'a'), decide('PreToolUse', 'allow'), decide('PreToolUse', 'deny', 'b')],
    expect: {
      blocked: true,
      reason: 'a\nb',
      deciders: [0, 2],
      output: out('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'a\nb' }),
    },
  },
  {
    name: 'exit 2 is a deny with its stderr',
    event: 'PreToolUse',
    hooks: [decide('PreToolUse', 'allow'), exit2('stop')],
    expect: { blocked: true, reason: 'stop', deciders: [1], errors: [] },
  },
  {
    name: 'ask beats allow; the first ask reason',
    event: 'PreToolUse',
    hooks: [
      decide('PreToolUse', 'allow', 'fine'),
      decide('PreToolUse', 'ask', 'check'),
      decide('PreToolUse', 'ask', 'later'),
    ],
    expect: {
      blocked: false,
      deciders: [1, 2],
      output: out('PreToolUse', { permissionDecision: 'ask', permissionDecisionReason: 'check' }),
    },
  },
  {
    name: 'defer beats ask, without reason or context',
    event: 'PreToolUse',
    hooks: [decide('PreToolUse', 'ask', 'a', { additionalContext: 'c' }), decide('PreToolUse', 'defer', 'd')],
    expect: { blocked: false, output: out('PreToolUse', { permissionDecision: 'defer' }) },
  },
  {
    name: 'updatedInput alone, with no decision',
    event: 'PreToolUse',
    hooks: [specific('PreToolUse', { updatedInput: { command: 'ls -a' } })],
    expect: { blocked: false, deciders: [], output: out('PreToolUse', { updatedInput: { command: 'ls -a' } }) },
  },
  {
    name: 'updatedInput from an ask hook rides with the ask',
    event: 'PreToolUse',
    hooks: [decide('PreToolUse', 'ask', 'why', { updatedInput: { command: 'x' } })],
    expect: {
      output: out('PreToolUse', {
        permissionDecision: 'ask',
        permissionDecisionReason: 'why',
        updatedInput: { command: 'x' },
      }),
    },
  },
  {
    name: 'a deny drops every updatedInput',
    event: 'PreToolUse',
    hooks: [
      decide('PreToolUse', 'allow', undefined, { updatedInput: { command: 'x' } }),
      decide('PreToolUse', 'deny', 'no'),
    ],
    expect: { output: out('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: 'no' }) },
  },
  {
    name: 'context from every hook is joined',
    event: 'PreToolUse',
    hooks: [
      decide('PreToolUse', 'allow', undefined, { additionalContext: 'a' }),
      specific('PreToolUse', { additionalContext: 'b' }),
    ],
    expect: { output: out('PreToolUse', { permissionDecision: 'allow', additionalContext: 'a\n\nb' }) },
  },
  {
    name: 'plain stdout is not context on PreToolUse',
    event: 'PreToolUse',
    hooks: [{ stdout: 'note' }],
    expect: { output: undefined },
  },
  {
    name: 'continue:false rides with an allow and does not block',
    event: 'PreToolUse',
    hooks: [decide('PreToolUse', 'allow', undefined, {}), { stdout: { continue: false, stopReason: 'enough' } }],
    expect: {
      blocked: false,
      output: {
        continue: false,
        stopReason: 'enough',
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' },
      },
    },
  },
  {
    name: 'every systemMessage is shown',
    event: 'PreToolUse',
    hooks: [{ stdout: { systemMessage: 'one' } }, { stdout: { systemMessage: 'two' } }],
    expect: { output: { systemMessage: 'one\ntwo' } },
  },
  {
    name: 'a crash is a hook error, not a decision',
    event: 'PreToolUse',
    hooks: [crash],
    expect: { blocked: false, output: undefined, errors: [crashError('PreToolUse')] },
  },
  {
    name: 'a timeout is a hook error, not a decision',
    event: 'PreToolUse',
    hooks: [timeout],
    expect: { blocked: false, errors: ['PreToolUse hook error: [hook0]: hook timed out and was cancelled: hook0'] },
  },
  {
    name: 'onFailure block turns a crash into a deny (no separate error)',
    event: 'PreToolUse',
    hooks: [{ ...crash, onFailure: 'block' }],
    expect: { blocked: true, reason: '[hook0]: failed; blocking because onFailure is "block"\nboom', errors: [] },
  },
  {
    name: '--fail-closed turns a timeout into a deny',
    event: 'PreToolUse',
    hooks: [decide('PreToolUse', 'allow'), timeout],
    failClosed: true,
    expect: {
      blocked: true,
      failClosed: true,
      deciders: [1],
      reason: 'a policy hook timed out (blocking because of --fail-closed)',
      errors: ['PreToolUse hook error: [hook1]: hook timed out and was cancelled: hook1'],
    },
  },
  {
    name: '--fail-closed with nothing failing changes nothing',
    event: 'PreToolUse',
    hooks: [decide('PreToolUse', 'allow')],
    failClosed: true,
    expect: { blocked: false, failClosed: undefined },
  },

  // permission: PreSkillShellCommand
  {
    name: 'allow runs the command',
    event: 'PreSkillShellCommand',
    hooks: [decide('PreSkillShellCommand', 'allow')],
    expect: { blocked: false, output: out('PreSkillShellCommand', { permissionDecision: 'allow' }) },
  },
  {
    name: "ask keeps the command from running, with the hook's reason",
    event: 'PreSkillShellCommand',
    hooks: [decide('PreSkillShellCommand', 'ask', 'confirm')],
    expect: { blocked: true, reason: 'confirm', deciders: [0] },
  },
  {
    name: 'defer keeps the command from running, naming the hook',
    event: 'PreSkillShellCommand',
    hooks: [decide('PreSkillShellCommand', 'defer')],
    expect: { blocked: true, reason: '[hook0]: answered "defer"; Claude Code does not run the command' },
  },
  {
    name: 'exit 2 denies',
    event: 'PreSkillShellCommand',
    hooks: [exit2('no')],
    expect: {
      blocked: true,
      reason: 'no',
      output: out('PreSkillShellCommand', { permissionDecision: 'deny', permissionDecisionReason: 'no' }),
    },
  },

  // modelSwitch
  {
    name: 'no hooks: the switch goes ahead',
    event: 'PreModelSwitch',
    hooks: [],
    expect: { blocked: false, output: undefined },
  },
  {
    name: 'allow skips the confirmation',
    event: 'PreModelSwitch',
    hooks: [decide('PreModelSwitch', 'allow')],
    expect: { blocked: false, deciders: [0], output: out('PreModelSwitch', { permissionDecision: 'allow' }) },
  },
  {
    name: 'ask beats allow',
    event: 'PreModelSwitch',
    hooks: [decide('PreModelSwitch', 'allow'), decide('PreModelSwitch', 'ask', 'sure?')],
    expect: {
      blocked: false,
      deciders: [1],
      output: out('PreModelSwitch', { permissionDecision: 'ask', permissionDecisionReason: 'sure?' }),
    },
  },
  {
    name: 'deny blocks',
    event: 'PreModelSwitch',
    hooks: [decide('PreModelSwitch', 'deny', 'too dear')],
    expect: {
      blocked: true,
      reason: 'too dear',
      output: out('PreModelSwitch', { permissionDecision: 'deny', permissionDecisionReason: 'too dear' }),
    },
  },
  {
    name: 'exit 2 blocks with stderr',
    event: 'PreModelSwitch',
    hooks: [decide('PreModelSwitch', 'allow'), exit2('no')],
    expect: { blocked: true, reason: 'no', deciders: [1] },
  },
  {
    name: 'a crash blocks (§10.5), and is reported',
    event: 'PreModelSwitch',
    hooks: [crash],
    expect: {
      blocked: true,
      reason: '[hook0]: Failed with non-blocking status code 1: boom; a failing PreModelSwitch hook blocks the switch',
      errors: [crashError('PreModelSwitch')],
    },
  },
  {
    name: 'PostModelSwitch: plain stdout reaches the model as context',
    event: 'PostModelSwitch',
    hooks: [{ stdout: 'switched' }],
    expect: { blocked: false, output: out('PostModelSwitch', { additionalContext: 'switched' }) },
  },

  // permissionRequest
  {
    name: 'exit 2 is ignored, its stderr discarded',
    event: 'PermissionRequest',
    hooks: [exit2('no')],
    expect: { blocked: false, output: undefined, errors: [] },
  },
  {
    name: 'a top-level decision block is ignored',
    event: 'PermissionRequest',
    hooks: [{ stdout: { decision: 'block', reason: 'r' } }],
    expect: { blocked: false, output: undefined },
  },
  {
    name: 'the first allow wins',
    event: 'PermissionRequest',
    hooks: [behaviour({ behavior: 'allow', updatedInput: { a: 1 } }), behaviour({ behavior: 'allow' })],
    expect: {
      blocked: false,
      deciders: [0],
      output: out('PermissionRequest', { decision: { behavior: 'allow', updatedInput: { a: 1 } } }),
    },
  },
  {
    name: 'any deny beats allow; the default message',
    event: 'PermissionRequest',
    hooks: [behaviour({ behavior: 'allow' }), behaviour({ behavior: 'deny' })],
    expect: { blocked: true, deciders: [1], reason: 'Denied by hook' },
  },
  {
    name: 'onFailure block denies',
    event: 'PermissionRequest',
    hooks: [{ ...crash, onFailure: 'block' }],
    expect: {
      blocked: true,
      reason: '[hook0]: failed; blocking because onFailure is "block"\nboom',
      output: out('PermissionRequest', {
        decision: { behavior: 'deny', message: '[hook0]: failed; blocking because onFailure is "block"\nboom' },
      }),
    },
  },
  {
    name: '--fail-closed turns a crash into a deny',
    event: 'PermissionRequest',
    hooks: [crash],
    failClosed: true,
    expect: { blocked: true, failClosed: true },
  },

  // decision
  {
    name: 'UserPromptSubmit: exit 2 rejects the prompt',
    event: 'UserPromptSubmit',
    hooks: [exit2('secret')],
    expect: { blocked: true, reason: 'secret', output: { decision: 'block', reason: 'secret' } },
  },
  {
    name: 'UserPromptSubmit: plain stdout and context are joined',
    event: 'UserPromptSubmit',
    hooks: [{ stdout: 'plain' }, specific('UserPromptSubmit', { additionalContext: 'json' })],
    expect: { blocked: false, output: out('UserPromptSubmit', { additionalContext: 'plain\n\njson' }) },
  },
  {
    name: 'UserPromptSubmit: the last sessionTitle, any suppressOriginalPrompt',
    event: 'UserPromptSubmit',
    hooks: [
      specific('UserPromptSubmit', { sessionTitle: 'a', suppressOriginalPrompt: true }),
      specific('UserPromptSubmit', { sessionTitle: 'b', suppressOriginalPrompt: false }),
    ],
    expect: { output: out('UserPromptSubmit', { sessionTitle: 'b', suppressOriginalPrompt: true }) },
  },
  {
    name: 'UserPromptExpansion: decision block blocks',
    event: 'UserPromptExpansion',
    hooks: [{ stdout: { decision: 'block', reason: 'no' } }],
    expect: { blocked: true, reason: 'no' },
  },
  {
    name: 'PostToolUse: the block keeps the context beside it',
    event: 'PostToolUse',
    hooks: [specific('PostToolUse', { additionalContext: 'c' }, { decision: 'block', reason: 'r' })],
    expect: {
      blocked: true,
      output: {
        decision: 'block',
        reason: 'r',
        hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'c' },
      },
    },
  },
  {
    name: 'PostToolUse: the last updatedToolOutput wins',
    event: 'PostToolUse',
    hooks: [specific('PostToolUse', { updatedToolOutput: 'a' }), specific('PostToolUse', { updatedToolOutput: 'b' })],
    expect: { output: out('PostToolUse', { updatedToolOutput: 'b' }) },
  },
  {
    name: 'PostToolUse: classifierContext is joined and cut at 2000',
    event: 'PostToolUse',
    hooks: [
      specific('PostToolUse', { classifierContext: 'x'.repeat(1500) }),
      specific('PostToolUse', { classifierContext: 'y'.repeat(1500) }),
    ],
    expect: { output: out('PostToolUse', { classifierContext: `${'x'.repeat(1500)}\n${'y'.repeat(499)}` }) },
  },
  {
    name: 'PostToolUseFailure: exit 2 blocks',
    event: 'PostToolUseFailure',
    hooks: [exit2('see')],
    expect: { blocked: true, reason: 'see' },
  },
  {
    name: 'PostToolBatch: exit 2 blocks',
    event: 'PostToolBatch',
    hooks: [exit2('halt')],
    expect: { blocked: true, reason: 'halt' },
  },
  {
    name: 'Stop: additionalContext alone is not a block',
    event: 'Stop',
    hooks: [specific('Stop', { additionalContext: 'also' })],
    expect: { blocked: false, output: out('Stop', { additionalContext: 'also' }) },
  },
  {
    name: 'Stop: continue:false is kept beside a block',
    event: 'Stop',
    hooks: [exit2('go on'), { stdout: { continue: false } }],
    expect: { blocked: true, output: { continue: false, decision: 'block', reason: 'go on' } },
  },
  {
    name: 'SubagentStop: exit 2 keeps the subagent running',
    event: 'SubagentStop',
    hooks: [exit2('more')],
    expect: { blocked: true, reason: 'more' },
  },
  {
    name: 'TeammateIdle: exit 2 keeps the teammate working',
    event: 'TeammateIdle',
    hooks: [exit2('work')],
    expect: { blocked: true },
  },
  {
    name: 'TaskCreated: continue:false is ignored',
    event: 'TaskCreated',
    hooks: [{ stdout: { continue: false, stopReason: 's' } }],
    expect: { blocked: false, output: undefined },
  },
  {
    name: 'TaskCompleted: exit 2 blocks',
    event: 'TaskCompleted',
    hooks: [exit2('unfinished')],
    expect: { blocked: true },
  },
  {
    name: 'ConfigChange: exit 2 blocks a user change',
    event: 'ConfigChange',
    hooks: [exit2('no')],
    input: { source: 'user_settings' },
    expect: { blocked: true, reason: 'no' },
  },
  {
    name: 'ConfigChange: nothing blocks a policy_settings change',
    event: 'ConfigChange',
    hooks: [exit2('no'), { stdout: { decision: 'block', reason: 'r' } }],
    input: { source: 'policy_settings' },
    expect: { blocked: false, deciders: [], errors: [] },
  },
  {
    name: 'ConfigChange: --fail-closed does not block a policy_settings change',
    event: 'ConfigChange',
    hooks: [crash],
    input: { source: 'policy_settings' },
    failClosed: true,
    expect: { blocked: false, failClosed: undefined, errors: [crashError('ConfigChange')] },
  },
  {
    name: 'ConfigChange: continue:false is discarded',
    event: 'ConfigChange',
    hooks: [{ stdout: { continue: false } }],
    input: { source: 'user_settings' },
    expect: { output: undefined },
  },
  {
    name: 'PreCompact: plain stdout becomes the compaction instructions',
    event: 'PreCompact',
    hooks: [{ stdout: 'keep A' }, { stdout: 'keep B' }],
    expect: { blocked: false, plainText: 'keep A\nkeep B', output: undefined },
  },
  {
    name: 'PreCompact: exit 2 blocks compaction',
    event: 'PreCompact',
    hooks: [exit2('not now')],
    expect: { blocked: true, reason: 'not now' },
  },
  {
    name: '--fail-closed blocks a decision event',
    event: 'Stop',
    hooks: [crash],
    failClosed: true,
    expect: {
      blocked: true,
      failClosed: true,
      reason: 'a policy hook failed (blocking because of --fail-closed)',
      errors: ['Stop hook error: [hook0]: Failed with non-blocking status code 1: boom'],
    },
  },

  // elicitation
  {
    name: 'Elicitation: exit 2 declines',
    event: 'Elicitation',
    hooks: [exit2('no')],
    expect: { blocked: true, reason: 'no', output: out('Elicitation', { action: 'decline' }) },
  },
  {
    name: 'ElicitationResult: the last blocking reason',
    event: 'ElicitationResult',
    hooks: [exit2('a'), exit2('b')],
    expect: { blocked: true, reason: 'b', deciders: [0, 1], output: out('ElicitationResult', { action: 'decline' }) },
  },
  {
    name: 'the last answer with content, over a later one without',
    event: 'Elicitation',
    hooks: [
      specific('Elicitation', { action: 'accept', content: { a: 1 } }),
      specific('Elicitation', { action: 'accept' }),
    ],
    expect: { blocked: false, deciders: [0], output: out('Elicitation', { action: 'accept', content: { a: 1 } }) },
  },
  {
    name: 'no answer: nothing to say',
    event: 'Elicitation',
    hooks: [{ stdout: 'text' }],
    expect: { blocked: false, output: undefined },
  },
  {
    name: 'continue:false is discarded',
    event: 'ElicitationResult',
    hooks: [{ stdout: { continue: false } }],
    expect: { output: undefined },
  },

  // worktree
  {
    name: 'no hooks: the creation fails',
    event: 'WorktreeCreate',
    hooks: [],
    expect: { blocked: true, reason: 'no WorktreeCreate hook gave a worktree path' },
  },
  {
    name: 'a JSON worktreePath wins even with exit 1',
    event: 'WorktreeCreate',
    hooks: [{ exitCode: 1, stdout: specific('WorktreeCreate', { worktreePath: '/w' }).stdout }],
    expect: { blocked: false, plainText: '/w', deciders: [0] },
  },
  {
    name: 'every failure is named when none gives a path',
    event: 'WorktreeCreate',
    hooks: [exit2('git failed'), { stdout: '' }],
    expect: { blocked: true, deciders: [0, 1], reason: '[hook0]: git failed\n[hook1]: printed no worktree path' },
  },

  // observe
  {
    name: 'SessionStart: exit 2 is a hook error, never a block',
    event: 'SessionStart',
    hooks: [exit2('warn')],
    expect: { blocked: false, errors: ['SessionStart hook error: [hook0]: warn'] },
  },
  {
    name: 'SessionStart: context, the last initialUserMessage, every watchPath, reloadSkills',
    event: 'SessionStart',
    hooks: [
      specific('SessionStart', { initialUserMessage: 'a', watchPaths: ['/x'] }),
      { stdout: 'ctx' },
      specific('SessionStart', { initialUserMessage: 'b', watchPaths: ['/y'], reloadSkills: true }),
    ],
    expect: {
      output: out('SessionStart', {
        additionalContext: 'ctx',
        initialUserMessage: 'b',
        watchPaths: ['/x', '/y'],
        reloadSkills: true,
      }),
    },
  },
  {
    name: 'SessionStart: a JSON decision block is ignored',
    event: 'SessionStart',
    hooks: [{ stdout: { decision: 'block', reason: 'r' } }],
    expect: { blocked: false, errors: [] },
  },
  {
    name: 'SessionStart: onFailure block is only the failure it was',
    event: 'SessionStart',
    hooks: [{ ...crash, onFailure: 'block' }],
    expect: { blocked: false, errors: [crashError('SessionStart')] },
  },
  {
    name: 'SessionEnd: plain stdout means nothing',
    event: 'SessionEnd',
    hooks: [{ stdout: 'bye' }],
    input: { reason: 'other' },
    expect: { blocked: false, output: undefined, plainText: undefined },
  },
  {
    name: 'PostCompact: plain stdout is shown to the user',
    event: 'PostCompact',
    hooks: [{ stdout: 'a' }, { stdout: 'b' }],
    expect: { plainText: 'a\nb' },
  },
  {
    name: 'Notification: continue:false is discarded, systemMessage kept',
    event: 'Notification',
    hooks: [{ stdout: { continue: false, systemMessage: 'm' } }],
    expect: { output: { systemMessage: 'm' } },
  },
  {
    name: 'FileChanged: continue:false is kept',
    event: 'FileChanged',
    hooks: [{ stdout: { continue: false } }],
    expect: { output: { continue: false } },
  },
  {
    name: 'PermissionDenied: any retry',
    event: 'PermissionDenied',
    hooks: [specific('PermissionDenied', { retry: false }), specific('PermissionDenied', { retry: true })],
    expect: { output: out('PermissionDenied', { retry: true }) },
  },
  {
    name: 'MessageDisplay: the last displayContent',
    event: 'MessageDisplay',
    hooks: [specific('MessageDisplay', { displayContent: 'a' }), specific('MessageDisplay', { displayContent: 'b' })],
    expect: { output: out('MessageDisplay', { displayContent: 'b' }) },
  },
  {
    name: '--fail-closed never blocks an observational event',
    event: 'CwdChanged',
    hooks: [timeout],
    failClosed: true,
    expect: { blocked: false, failClosed: undefined },
  },
];

for (const row of reduceRows) {
  test(`reduce ${row.event}: ${row.name}`, () => {
    const reduced = reduce(row.event, items(row.event, row.hooks), {
      input: row.input ?? input,
      ...(row.failClosed ? { failClosed: true } : {}),
    });
    for (const [key, value] of Object.entries(row.expect)) assert.deepEqual(reduced[key as keyof Reduced], value, key);
  });
}

test('the reduce table covers every event family, and exit 2 on each', () => {
  const families = (rows: ReduceRow[]) => new Set(rows.map((row) => EVENTS[row.event].family));
  const all = families(reduceRows);
  assert.equal(all.size, 7);
  assert.deepEqual(families(reduceRows.filter((row) => row.hooks.some((hook) => hook.exitCode === 2))), all);
});
