// The reports of one host firing (one per Claude Code call it became) as one verdict for the host's renderer.
import type { FireReport } from '../report/types.ts';
import type { Verdict } from './types.ts';

const PRECEDENCE = ['deny', 'defer', 'ask', 'allow'] as const;

export function verdictOf(reports: readonly FireReport[]): Verdict {
  const parts = reports.map(partOf);
  const permission = PRECEDENCE.find((candidate) => parts.some((part) => part.permission === candidate));
  const blocked = parts.filter((part) => part.blocked);
  const reasons = (blocked.length > 0 ? blocked : parts.filter((part) => part.permission === permission))
    .map((part) => part.reason)
    .filter((reason): reason is string => reason !== undefined);
  const contexts = parts.map((part) => part.context).filter((text): text is string => text !== undefined);
  const messages = parts.map((part) => part.systemMessage).filter((text): text is string => text !== undefined);
  const rewrite = parts.findLast((part) => part.updatedInput !== undefined);
  const stop = parts.find((part) => part.stop);
  const request =
    parts.find((part) => part.permissionRequest?.behavior === 'deny') ?? parts.find((part) => part.permissionRequest);
  return {
    event: reports[0]!.event,
    ...(permission ? { permission } : {}),
    blocked: blocked.length > 0,
    ...(reasons.length > 0 ? { reason: [...new Set(reasons)].join('\n') } : {}),
    ...(rewrite ? { updatedInput: rewrite.updatedInput! } : {}),
    ...(contexts.length > 0 ? { context: contexts.join('\n\n') } : {}),
    ...(stop ? { stop: stop.stop! } : {}),
    ...(messages.length > 0 ? { systemMessage: messages.join('\n') } : {}),
    ...(request ? { permissionRequest: request.permissionRequest! } : {}),
    errors: parts.flatMap((part) => part.errors),
    failClosed: parts.some((part) => part.failClosed),
  };
}

function partOf(report: FireReport): Verdict {
  const output = report.output ?? {};
  const specific = (output.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const permission = specific.permissionDecision as Verdict['permission'];
  const decision = specific.decision as Record<string, unknown> | undefined;
  const reason =
    report.reason ??
    (typeof specific.permissionDecisionReason === 'string' ? specific.permissionDecisionReason : undefined);
  return {
    event: report.event,
    ...(permission ? { permission } : report.blocked && report.event === 'PreToolUse' ? { permission: 'deny' } : {}),
    blocked: report.blocked,
    ...(reason !== undefined ? { reason } : {}),
    ...(isObject(specific.updatedInput) ? { updatedInput: specific.updatedInput } : {}),
    ...(typeof specific.additionalContext === 'string' ? { context: specific.additionalContext } : {}),
    ...(output.continue === false
      ? { stop: typeof output.stopReason === 'string' ? { reason: output.stopReason } : {} }
      : {}),
    ...(typeof output.systemMessage === 'string' ? { systemMessage: output.systemMessage } : {}),
    ...(decision && (decision.behavior === 'allow' || decision.behavior === 'deny')
      ? { permissionRequest: decision as NonNullable<Verdict['permissionRequest']> }
      : {}),
    errors: report.errors,
    failClosed: report.failClosed === true,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
