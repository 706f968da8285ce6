// `POST /hooks/<Event>`: the reduced firing as the answer of one Claude Code http hook (spec §20.5). Claude
// Code reads a 2xx JSON body exactly as a command hook's stdout JSON, and an http hook has no exit-2 channel,
// so the command form (report/claude.ts) is translated: an exit-code block becomes the JSON block whose
// reason carries Claude Code's own "[<command>]: <stderr>" label, which renders the same as the exit code on
// PreToolUse and UserPromptSubmit. Where no http answer can match the command form, the nearest one is given
// (docs/agents/serve.md, "The http-hook answer"): a Stop or PostToolUse exit-2 block gains Claude Code's "blocking error from command:
// <url>" system message; plain-stdout context becomes additionalContext; stderr shown only to the user on a
// non-blocking exit 2 becomes a systemMessage; a runner error (exit 1) is an HTTP 500, a non-blocking error.
import { answersWithPermission, EVENTS, type EventName } from '../events.ts';
import { decidingHook, renderClaude } from '../report/claude.ts';
import type { FireReport } from '../report/types.ts';

export interface HttpAnswer {
  status: 200 | 500;
  /** Undefined: an empty body, which Claude Code reads as a success with no output. */
  body?: Record<string, unknown>;
}

export function httpAnswer(report: FireReport): HttpAnswer {
  const rendered = renderClaude(report);
  const stdoutJson = rendered.stdout.startsWith('{')
    ? (JSON.parse(rendered.stdout) as Record<string, unknown>)
    : undefined;
  const event = report.event;
  if (rendered.exitCode === 1) return { status: 500, body: { error: rendered.stderr } };
  if (rendered.exitCode === 0) {
    if (stdoutJson || rendered.stdout === '') return { status: 200, ...(stdoutJson ? { body: stdoutJson } : {}) };
    return { status: 200, body: plainAnswer(report, rendered.stdout.replace(/\n$/, '')) };
  }
  // Exit 2. A block that Claude Code would read from the exit code, as the JSON block that renders the same.
  if (report.blocked && answersWithPermission(event)) {
    const specific = stdoutJson?.hookSpecificOutput as Record<string, unknown> | undefined;
    return {
      status: 200,
      body: {
        ...stdoutJson,
        hookSpecificOutput: {
          hookEventName: event,
          ...specific,
          permissionDecision: 'deny',
          permissionDecisionReason: labelledReason(report, rendered.stderr),
        },
      },
    };
  }
  if (report.blocked)
    return { status: 200, body: { ...stdoutJson, decision: 'block', reason: labelledReason(report, rendered.stderr) } };
  // An event that cannot block shows exit-2 stderr to the user: an http hook's way to the user is systemMessage.
  return { status: 200, body: { ...stdoutJson, systemMessage: rendered.stderr.replace(/\n$/, '') } };
}

/** Plain text stdout, which an http hook cannot send: the JSON field that carries the same text. */
function plainAnswer(report: FireReport, text: string): Record<string, unknown> {
  const event = report.event;
  switch (EVENTS[event].plainStdout) {
    case 'worktreePath':
      return { hookSpecificOutput: { hookEventName: event, worktreePath: text } };
    case 'context':
    case 'modelContext':
      return { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
    default:
      return { systemMessage: text };
  }
}

/**
 * The block reason as the model would see it had the deciding hook been registered directly: Claude Code
 * shows an exit-code block as "[<command>]: <stderr>", stderr untouched. Several deciders, or a JSON reason,
 * leave the text as it is.
 */
function labelledReason(report: FireReport, stderr: string): string {
  const decided = decidingHook(report);
  const decider = decided?.alone ? decided.hook : undefined;
  if (decider?.blockedBy === 'onFailure' && decider.blockingMessage?.startsWith(`[${decider.label}]: `))
    return decider.blockingMessage;
  if (decider?.blockedBy === 'exit2' && decider.stderr === stderr) return `[${decider.label}]: ${stderr}`;
  return stderr;
}

/** A failure under --fail-closed, as the block Claude Code reads from an http or mcp_tool hook of `event`. */
export function failClosedBlock(event: EventName, message: string): Record<string, unknown> {
  const reason = `peri-hooks: ${message}\nperi-hooks: blocking because of --fail-closed`;
  return answersWithPermission(event)
    ? { hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reason } }
    : { decision: 'block', reason };
}
