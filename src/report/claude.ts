// `--output claude`: peri-hooks registered as Claude Code's one hook must act exactly as the hooks it ran
// would have acted if registered directly. Claude Code renders a JSON answer and an exit-code answer
// differently, so the form follows the hook that decided: JSON and exit 0 when it answered in JSON, exit 2
// and stderr when it blocked by exit code, plain text where the event reads plain text. Claude Code frames
// each hook's text apart; peri-hooks is one hook, so it writes that framing into its one answer.
import { unenforcedLines } from '../config/codes.ts';
import { answersWithPermission, type ContextParagraphKind, EVENTS, type EventName } from '../events.ts';
import { line, type Rendered } from './rendered.ts';
import type { FireReport, HookReport } from './types.ts';

const BLOCK_FIELDS = ['decision', 'reason'];
const SPECIFIC_BLOCK_FIELDS = ['permissionDecision', 'permissionDecisionReason', 'action', 'content'];

export interface ClaudeRenderOptions {
  /** The firing ran the policy's `async` hooks for Claude Code's async entry (`--only-async`): answer as one async hook. */
  asyncAnswer?: boolean;
}

export function renderClaude(report: FireReport, options: ClaudeRenderOptions = {}): Rendered {
  const family = EVENTS[report.event].family;
  const json = (output: Record<string, unknown> | undefined) => (output ? line(JSON.stringify(output)) : '');
  if (options.asyncAnswer) return { stdout: json(asyncAnswer(report)), stderr: '', exitCode: 0 };

  if (family === 'worktree') {
    // Command hooks answer WorktreeCreate with the path as plain text; any non-zero exit fails the creation.
    return report.blocked
      ? { stdout: '', stderr: line(report.reason), exitCode: 1 }
      : { stdout: line(report.plainText), stderr: '', exitCode: 0 };
  }

  const context = modelContext(report);
  // Policy that did not load is said in every answer that does not already block on it: a systemMessage is what
  // Claude Code shows the user whatever the exit code, where a hook error shows only its first line.
  const notice = report.failClosed ? undefined : unenforcedNotice(report);
  const output = withNotice(withContext(report.event, report.output, context?.text), notice, report.errors);
  if (report.blocked && family !== 'permissionRequest') {
    const decided = decidingHook(report);
    // A JSON answer stops the action without a block of its own too (a PreSkillShellCommand ask).
    if (decided?.hook.answeredInJson) {
      const answer = answersWithPermission(report.event) ? withReason(output, decided.hook) : output;
      return { stdout: json(answer), stderr: '', exitCode: 0 };
    }
    // Exit 2: Claude Code still applies the JSON on stdout, so everything but the block itself rides along.
    const stderr = (decided?.alone ? exitCodeMessage(decided.hook) : undefined) ?? line(report.reason);
    return { stdout: json(withoutBlock(output)), stderr, exitCode: 2 };
  }

  const exit2Stderr =
    family === 'observe'
      ? report.hooks
          .filter((hook) => hook.blockedBy === 'exit2')
          .map((hook) => hook.stderr?.trim() || 'No stderr output')
      : [];
  if (exit2Stderr.length > 0) return { stdout: json(output), stderr: exit2Stderr.map(line).join(''), exitCode: 2 };
  if (context?.plain && onlyContext(output)) return { stdout: line(context.text), stderr: '', exitCode: 0 };
  if (output) return { stdout: json(output), stderr: '', exitCode: 0 };
  if (report.plainText) return { stdout: line(report.plainText), stderr: '', exitCode: 0 };
  // Nothing to say but errors: a non-blocking exit code makes Claude Code show them as a hook error notice.
  if (report.errors.length > 0) return { stdout: '', stderr: report.errors.map(line).join(''), exitCode: 1 };
  return { stdout: '', stderr: '', exitCode: 0 };
}

/**
 * The text the model would get from the hooks' context, and whether it can go as plain stdout. Where the
 * event's paragraphs are known, peri-hooks' one answer carries every hook's paragraph as Claude Code frames
 * it, except the first one's frame, which Claude Code adds to the answer itself: plain stdout gets the "hook
 * success" frame, a JSON additionalContext the "hook additional context" one.
 */
function modelContext(report: FireReport): { text: string; plain: boolean } | undefined {
  const layout = EVENTS[report.event].contextParagraphs;
  // Results of earlier async hooks are peri-hooks' own delivery: no hook of this firing framed them.
  if (!layout || report.delivered) return plainOnlyContext(report);
  const paragraphs = contextParagraphs(report);
  if (paragraphs.length === 0) return undefined;
  const label = (kind: ContextParagraphKind) =>
    layout.labelsWithMatcher?.includes(kind) && report.matcherValue !== undefined
      ? `${report.event}:${report.matcherValue}`
      : report.event;
  const framed = paragraphs.map(({ kind, text }, index) =>
    index === 0 ? text : `${label(kind)} hook ${kind === 'success' ? 'success' : 'additional context'}: ${text}`,
  );
  return { text: framed.join('\n\n'), plain: paragraphs[0]!.kind === 'success' };
}

/** The paragraphs of the hooks that ran, in configuration order (Claude Code's is the order they finished). */
function contextParagraphs(report: FireReport): { kind: ContextParagraphKind; text: string }[] {
  const layout = EVENTS[report.event].contextParagraphs!;
  const plainIsContext = EVENTS[report.event].plainStdout === 'context';
  const ran = report.hooks.filter((hook) => hook.status === 'ran');
  const success = (hook: HookReport) =>
    plainIsContext && hook.plainText ? [{ kind: 'success' as const, text: hook.plainText }] : [];
  const context = (hook: HookReport) =>
    hook.additionalContext ? [{ kind: 'context' as const, text: hook.additionalContext }] : [];
  if (layout.layout === 'perHook') return ran.flatMap((hook) => [...success(hook), ...context(hook)]);
  const contexts = ran.flatMap(context).map(({ text }) => text);
  return [
    ...ran.flatMap(success),
    ...(contexts.length > 0 ? [{ kind: 'context' as const, text: contexts.join('\n') }] : []),
  ];
}

/** Where every contributing hook printed plain text as context, and the event's paragraphs are not known: the joined text. */
function plainOnlyContext(report: FireReport): { text: string; plain: boolean } | undefined {
  const plainKind = EVENTS[report.event].plainStdout;
  if ((plainKind !== 'context' && plainKind !== 'modelContext') || report.hooks.some((hook) => hook.answeredInJson))
    return undefined;
  const specific = report.output?.hookSpecificOutput as Record<string, unknown> | undefined;
  return typeof specific?.additionalContext === 'string'
    ? { text: specific.additionalContext, plain: true }
    : undefined;
}

/** What the user must hear when policy of the event did not load (or its session store is down) and the firing goes on without it. */
function unenforcedNotice(report: FireReport): string | undefined {
  const lines = [
    ...unenforcedLines(report.event, report.warnings),
    ...report.warnings.filter(({ code }) => code === 'state-unreachable').map(({ message }) => message),
  ];
  if (lines.length === 0) return undefined;
  return `peri-hooks: policy not enforced, it did not load:\n${lines.map((text) => `- ${text}`).join('\n')}`;
}

/**
 * The notice joins any systemMessage of the hooks. With a JSON answer Claude Code does not show a non-zero exit's
 * errors, so those join it too.
 */
function withNotice(
  output: Record<string, unknown> | undefined,
  notice: string | undefined,
  errors: readonly string[],
): Record<string, unknown> | undefined {
  if (notice === undefined) return output;
  const messages = [
    typeof output?.systemMessage === 'string' ? output.systemMessage : undefined,
    notice,
    ...errors,
  ].filter((text) => text !== undefined);
  return { ...output, systemMessage: messages.join('\n') };
}

function withContext(
  event: EventName,
  output: Record<string, unknown> | undefined,
  text: string | undefined,
): Record<string, unknown> | undefined {
  if (text === undefined) return output;
  return {
    ...output,
    hookSpecificOutput: {
      hookEventName: event,
      ...(output?.hookSpecificOutput as Record<string, unknown> | undefined),
      additionalContext: text,
    },
  };
}

/** The output holds nothing but the context (so it can go as plain stdout). */
function onlyContext(output: Record<string, unknown> | undefined): boolean {
  const specific = output?.hookSpecificOutput as Record<string, unknown> | undefined;
  return (
    output !== undefined &&
    Object.keys(output).length === 1 &&
    specific !== undefined &&
    Object.keys(specific).length === 2
  );
}

/**
 * The hook whose answer is the firing's block, one rule for every answer form. A permission question shows one
 * deny (Claude Code's, the last to finish): the last decider in configuration order, alone. Elsewhere the first,
 * `alone` only when no other hook blocked too (several reasons are shown joined).
 */
export function decidingHook(report: FireReport): { hook: HookReport; alone: boolean } | undefined {
  const deciders = report.deciders.flatMap((id) => report.hooks.filter((hook) => hook.id === id).slice(0, 1));
  if (answersWithPermission(report.event)) {
    const last = deciders.at(-1);
    return last && { hook: last, alone: true };
  }
  const first = deciders[0];
  return first && { hook: first, alone: deciders.length === 1 };
}

/** The deny with the reason of the one deciding hook. */
function withReason(
  output: Record<string, unknown> | undefined,
  decider: HookReport,
): Record<string, unknown> | undefined {
  const specific = output?.hookSpecificOutput as Record<string, unknown> | undefined;
  if (!specific || decider.blockingMessage === undefined) return output;
  return { ...output, hookSpecificOutput: { ...specific, permissionDecisionReason: decider.blockingMessage } };
}

/**
 * The stderr of an exit-code block, as Claude Code shows it after the hook's label "[<hook>]: ", where it
 * names peri-hooks instead: the hook's own stderr, untouched, or for `onFailure` the message without the
 * label peri-hooks gives it for its other output forms. Undefined where the reason is not the hook's stderr.
 */
function exitCodeMessage(decider: HookReport): string | undefined {
  if (decider.blockedBy === 'exit2') {
    // Unless a JSON block on its stdout gave the reason instead.
    const stderr = decider.stderr ?? '';
    return decider.blockingMessage === (stderr.trim() || 'No stderr output') ? stderr : undefined;
  }
  const label = `[${decider.label}]: `;
  const message = decider.blockingMessage;
  return decider.blockedBy === 'onFailure' && message?.startsWith(label) ? message.slice(label.length) : undefined;
}

function withoutBlock(output: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!output) return undefined;
  const rest = Object.fromEntries(Object.entries(output).filter(([key]) => !BLOCK_FIELDS.includes(key)));
  const specific = rest.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific) {
    const kept = Object.fromEntries(Object.entries(specific).filter(([key]) => !SPECIFIC_BLOCK_FIELDS.includes(key)));
    if (Object.keys(kept).length > 1) rest.hookSpecificOutput = kept;
    else delete rest.hookSpecificOutput;
  }
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** Claude Code reads an async hook's systemMessage and JSON additionalContext, nothing else (§10.3). */
function asyncAnswer(report: FireReport): Record<string, unknown> | undefined {
  const systemMessage = report.output?.systemMessage;
  const contexts = report.hooks.flatMap((hook) => (hook.additionalContext ? [hook.additionalContext] : []));
  const answer = {
    ...(typeof systemMessage === 'string' ? { systemMessage } : {}),
    ...(contexts.length > 0
      ? { hookSpecificOutput: { hookEventName: report.event, additionalContext: contexts.join('\n\n') } }
      : {}),
  };
  return Object.keys(answer).length > 0 ? answer : undefined;
}
