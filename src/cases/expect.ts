// What a firing decided, in the terms of the case format, and how it compares with a case's expectations.
import { isDeepStrictEqual } from 'node:util';
import { escapeSegment } from '../config/locate.ts';
import type { FireReport, HookReport } from '../report/types.ts';
import type { Decision, Expectation } from './schema.ts';

type HookExpectation = NonNullable<Expectation['hooks']>[string];

export interface Actual {
  decision: Decision;
  exitCode: 0 | 2;
  reason?: string;
  updatedInput?: Record<string, unknown>;
  context?: string;
  systemMessage?: string;
  /** The stdout and stderr of every hook that ran, joined in configuration order. */
  stdout: string;
  stderr: string;
  ran: string[];
  skipped: Array<{ hook: string; reason: string }>;
  timedOut: string[];
}

export interface Failure {
  /** The expectation that failed, e.g. `decision`. */
  key: string;
  message: string;
  expected: unknown;
  actual: unknown;
}

export function actualOf(report: FireReport): Actual {
  const specific = report.output?.hookSpecificOutput as Record<string, unknown> | undefined;
  const updatedInput = specific?.updatedInput as Record<string, unknown> | undefined;
  const context = typeof specific?.additionalContext === 'string' ? specific.additionalContext : undefined;
  const reason =
    report.reason ??
    (typeof specific?.permissionDecisionReason === 'string' ? specific.permissionDecisionReason : undefined);
  const systemMessage = typeof report.output?.systemMessage === 'string' ? report.output.systemMessage : undefined;
  const ran = report.hooks.filter((hook) => hook.status === 'ran');
  return {
    decision: decisionOf(report, specific),
    exitCode: report.exitCode,
    ...(reason !== undefined ? { reason } : {}),
    ...(updatedInput !== undefined ? { updatedInput } : {}),
    ...(context !== undefined ? { context } : {}),
    ...(systemMessage !== undefined ? { systemMessage } : {}),
    stdout: ran.map((hook) => hook.stdout ?? '').join(''),
    stderr: ran.map((hook) => hook.stderr ?? '').join(''),
    ran: ran.map((hook) => hook.label),
    skipped: report.hooks
      .filter((hook) => hook.status === 'skipped')
      .map((hook) => ({ hook: hook.label, reason: hook.skipReason ?? 'unknown' })),
    timedOut: report.hooks.filter((hook) => hook.timedOut).map((hook) => hook.label),
  };
}

/** allow/deny/ask/defer where the event answers with a permission decision, else block or none. */
function decisionOf(report: FireReport, specific: Record<string, unknown> | undefined): Decision {
  const permission = specific?.permissionDecision;
  if (permission === 'allow' || permission === 'deny' || permission === 'ask' || permission === 'defer')
    return permission;
  const behavior = (specific?.decision as { behavior?: unknown } | undefined)?.behavior;
  if (behavior === 'allow' || behavior === 'deny') return behavior;
  return report.blocked ? 'block' : 'none';
}

/** A hook is named by a part of its command, URL or prompt, or by its full id. */
function matches(hook: HookReport, selector: string): boolean {
  return hook.id === selector || hook.label.includes(selector);
}

export function hasExpectations(expect: Expectation | undefined): boolean {
  return expect !== undefined && Object.values(expect).some((value) => value !== undefined);
}

export function check(expect: Expectation, report: FireReport, actual: Actual): Failure[] {
  const failures: Failure[] = [];
  const fail: Fail = (key, message, expected, got) => failures.push({ key, message, expected, actual: got });

  // "block" is any blocked action, so it also holds for a PreToolUse deny.
  if (
    expect.decision !== undefined &&
    expect.decision !== actual.decision &&
    !(expect.decision === 'block' && report.blocked)
  ) {
    fail('decision', `decision: expected ${expect.decision}, got ${actual.decision}`, expect.decision, actual.decision);
  }
  if (expect.exitCode !== undefined && expect.exitCode !== actual.exitCode) {
    fail(
      'exitCode',
      `exit code: expected ${expect.exitCode}, got ${actual.exitCode}`,
      expect.exitCode,
      actual.exitCode,
    );
  }
  checkText('reason', actual.reason, expect.reasonContains, expect.reasonMatches, fail);
  checkText('context', actual.context, expect.contextContains, expect.contextMatches, fail);
  checkText('systemMessage', actual.systemMessage, expect.systemMessageContains, undefined, fail);
  checkText('stdout', actual.stdout, expect.stdoutContains, undefined, fail);
  checkText('stderr', actual.stderr, expect.stderrContains, undefined, fail);
  if (expect.updatedInput !== undefined) {
    const expected = expect.updatedInput ?? undefined;
    if (!isDeepStrictEqual(expected, actual.updatedInput)) {
      fail(
        'updatedInput',
        `updatedInput: expected ${show(expected)}, got ${show(actual.updatedInput)}`,
        expect.updatedInput,
        actual.updatedInput ?? null,
      );
    }
  }
  if (expect.updatedInputIncludes !== undefined && !includes(actual.updatedInput, expect.updatedInputIncludes)) {
    fail(
      'updatedInputIncludes',
      `updatedInput: expected to include ${show(expect.updatedInputIncludes)}, got ${show(actual.updatedInput)}`,
      expect.updatedInputIncludes,
      actual.updatedInput ?? null,
    );
  }
  for (const [selector, expected] of Object.entries(expect.hooks ?? {})) checkHook(selector, expected, report, fail);
  for (const selector of expect.ran ?? []) {
    const found = report.hooks.filter((hook) => matches(hook, selector));
    if (found.length === 0)
      fail(
        'ran',
        `ran: no configured ${report.event} hook matches "${selector}"`,
        selector,
        report.hooks.map((hook) => hook.label),
      );
    else if (!found.some((hook) => hook.status === 'ran')) {
      fail(
        'ran',
        `ran: expected "${selector}" to run; it was skipped (${found.map((hook) => `${hook.skipReason}: ${hook.skipDetail}`).join('; ')})`,
        selector,
        actual.ran,
      );
    }
  }
  for (const entry of expect.skipped ?? []) {
    const { hook: selector, reason } = typeof entry === 'string' ? { hook: entry, reason: undefined } : entry;
    const found = report.hooks.filter((hook) => matches(hook, selector));
    if (found.length === 0)
      fail(
        'skipped',
        `skipped: no configured ${report.event} hook matches "${selector}"`,
        entry,
        report.hooks.map((hook) => hook.label),
      );
    else if (!found.some((hook) => hook.status === 'skipped' && (reason === undefined || hook.skipReason === reason))) {
      const what = found
        .map((hook) => (hook.status === 'ran' ? 'it ran' : `it was skipped by ${hook.skipReason}`))
        .join('; ');
      fail(
        'skipped',
        `skipped: expected "${selector}" to be skipped${reason ? ` by ${reason}` : ''}; ${what}`,
        entry,
        actual.skipped,
      );
    }
  }
  if (expect.timedOut === true && actual.timedOut.length === 0)
    fail('timedOut', 'timed out: expected a hook to time out; none did', true, actual.timedOut);
  if (expect.timedOut === false && actual.timedOut.length > 0)
    fail(
      'timedOut',
      `timed out: expected no time-out; ${actual.timedOut.map((label) => `"${label}"`).join(', ')} timed out`,
      false,
      actual.timedOut,
    );
  if (Array.isArray(expect.timedOut)) {
    for (const selector of expect.timedOut) {
      if (!report.hooks.some((hook) => hook.timedOut && matches(hook, selector)))
        fail('timedOut', `timed out: expected "${selector}" to time out; it did not`, selector, actual.timedOut);
    }
  }
  return failures;
}

/** `expect.hooks`: what each named hook did, the first one that ran of those it names. */
function checkHook(selector: string, expected: HookExpectation, report: FireReport, fail: Fail): void {
  const found = report.hooks.filter((hook) => matches(hook, selector));
  const key = `hooks/${escapeSegment(selector)}`;
  const hook = found.find((each) => each.status === 'ran');
  if (!hook) {
    const why =
      found.length === 0
        ? `no configured ${report.event} hook matches it`
        : `it did not run (${found.map((each) => `${each.skipReason}: ${each.skipDetail}`).join('; ')})`;
    fail(
      key,
      `hook "${selector}": ${why}`,
      expected,
      found.map((each) => each.label),
    );
    return;
  }
  if (expected.outcome !== undefined && expected.outcome !== hook.outcome) {
    fail(
      key,
      `hook "${selector}": expected outcome ${expected.outcome}, got ${hook.outcome}${hook.error ? ` (${hook.error})` : ''}`,
      expected.outcome,
      hook.outcome ?? null,
    );
  }
  if (expected.exitCode !== undefined && expected.exitCode !== (hook.exitCode ?? null)) {
    fail(
      key,
      `hook "${selector}": expected exit code ${expected.exitCode}, got ${hook.timedOut ? 'a time-out' : (hook.exitCode ?? 'none')}`,
      expected.exitCode,
      hook.exitCode ?? null,
    );
  }
  checkText(
    `hook "${selector}" stdout`,
    hook.stdout ?? '',
    expected.stdoutContains,
    undefined,
    (_, message, want, got) => fail(key, message, want, got),
  );
  checkText(
    `hook "${selector}" stderr`,
    hook.stderr ?? '',
    expected.stderrContains,
    undefined,
    (_, message, want, got) => fail(key, message, want, got),
  );
}

/** Partial match: every field given is there with an equal value; objects are compared the same way, field by field. */
function includes(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected))
    return isDeepStrictEqual(actual, expected);
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
  return Object.entries(expected).every(([key, value]) => includes((actual as Record<string, unknown>)[key], value));
}

type Fail = (key: string, message: string, expected: unknown, got: unknown) => void;

function checkText(
  name: string,
  actual: string | undefined,
  contains: string | string[] | undefined,
  pattern: string | undefined,
  fail: Fail,
): void {
  for (const part of contains === undefined ? [] : Array.isArray(contains) ? contains : [contains]) {
    if (actual === undefined || !actual.includes(part))
      fail(
        `${name}Contains`,
        `${name}: expected to contain ${JSON.stringify(part)}, got ${show(actual)}`,
        part,
        actual ?? null,
      );
  }
  if (pattern !== undefined && (actual === undefined || !new RegExp(pattern).test(actual))) {
    fail(`${name}Matches`, `${name}: expected to match /${pattern}/, got ${show(actual)}`, pattern, actual ?? null);
  }
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}
