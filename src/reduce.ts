// Hook results -> one decision per event family (spec §7, §12, §14). Pure. Results arrive in configuration
// order, so wherever Claude Code lets the last hook to finish win, the last in configuration order wins here.
import { EVENTS, type EventName, type PermissionDecision } from './events.ts';
import type { HookResult } from './outcome.ts';
import type { Layer } from './types.ts';

export interface ReduceItem {
  result: HookResult;
  /** Short name of the hook for messages (command, URL or prompt). */
  label: string;
  layer: Layer;
  exitCode: number | null;
  stdout: string;
}

export interface Reduced {
  /** The action is blocked: exit 2. */
  blocked: boolean;
  /** Claude Code hook output for the event, or undefined when there is nothing to say. */
  output?: Record<string, unknown>;
  /** Plain text where the event reads plain text and no JSON is needed (context, worktree path, ...). */
  plainText?: string;
  /** The block message (stderr). */
  reason?: string;
  /** Indexes of the items that decided the block, in configuration order. */
  deciders: number[];
  /** Non-blocking errors, as Claude Code reports them: "<Event> hook error: ...". */
  errors: string[];
  /** Set when --fail-closed turned a failure into the block. */
  failClosed?: boolean;
}

export interface ReduceOptions {
  failClosed?: boolean;
  /** Why failures block, in the block message (default `--fail-closed`). */
  failClosedCause?: string;
  /** Policy that did not load (a file, a source, a hook entry): under failClosed each blocks like a failed hook. */
  unenforced?: readonly string[];
  input: Record<string, unknown>;
}

const PRECEDENCE: readonly PermissionDecision[] = ['deny', 'defer', 'ask', 'allow'];
const CLASSIFIER_CONTEXT_LIMIT = 2000;
/** PreCompact keeps at most this much of each hook's stdout (§6.2). */
const COMPACT_INSTRUCTIONS_LIMIT = 10_000;

export function reduce(event: EventName, items: readonly ReduceItem[], options: ReduceOptions): Reduced {
  const def = EVENTS[event];
  const canBlock = def.family !== 'observe' && !def.unblockableSources?.includes(String(options.input.source));
  let failClosed = false;
  const closedItems = new Set<ReduceItem>();
  const cause = options.failClosedCause ?? '--fail-closed';
  const effective = items.map((item) => {
    const { result } = item;
    if (options.failClosed && canBlock && (result.outcome === 'non_blocking_error' || result.outcome === 'cancelled')) {
      failClosed = true;
      // The block reason reaches the model: it names no command line and carries no hook output; the
      // failure itself stays among the errors, for the user.
      const closed = {
        ...item,
        result: {
          ...result,
          outcome: 'blocking',
          blockedBy: 'onFailure',
          blockingMessage: `a policy hook ${result.outcome === 'cancelled' ? 'timed out' : 'failed'} (blocking because of ${cause})`,
        } satisfies HookResult,
      };
      closedItems.add(closed);
      return closed;
    }
    return item;
  });
  if (options.failClosed && canBlock) {
    for (const message of options.unenforced ?? []) {
      failClosed = true;
      effective.push({
        label: 'peri-hooks',
        layer: 'managed',
        exitCode: 2,
        stdout: '',
        result: {
          outcome: 'blocking',
          blockedBy: 'onFailure',
          blockingMessage: `peri-hooks: ${message} (blocking because of ${cause})`,
          answeredInJson: false,
        },
      });
    }
  }
  // Where the event cannot block, an onFailure "block" is just the failure it was.
  const errors = effective
    .filter(
      (item) =>
        closedItems.has(item) ||
        item.result.outcome === 'non_blocking_error' ||
        (item.result.outcome === 'blocking' &&
          item.result.error !== undefined &&
          (item.result.blockedBy !== 'onFailure' || !canBlock)) ||
        item.result.outcome === 'cancelled',
    )
    .map(({ result, label }) => `${event} hook error: [${label}]: ${result.error ?? 'cancelled'}`);

  const reduced = FAMILY_REDUCERS[def.family](event, effective, options);
  if (!canBlock && reduced.blocked) Object.assign(reduced, { blocked: false, deciders: [] });
  const common = commonFields(event, effective);
  const output = { ...common, ...reduced.output };
  const hasOutput = Object.keys(output).length > 0;
  return {
    ...reduced,
    // Policy that did not load decides too, but it is not a hook: deciders name hooks only.
    deciders: reduced.deciders.filter((index) => index < items.length),
    ...(hasOutput ? { output } : { output: undefined }),
    errors: [...errors, ...nonBlockingExit2(event, effective)],
    ...(failClosed && reduced.blocked ? { failClosed: true } : {}),
  };
}

type FamilyReducer = (
  event: EventName,
  items: readonly ReduceItem[],
  options: ReduceOptions,
) => Omit<Reduced, 'errors'>;

const FAMILY_REDUCERS: Record<(typeof EVENTS)[EventName]['family'], FamilyReducer> = {
  permission: reducePermission,
  modelSwitch: reduceModelSwitch,
  permissionRequest: reducePermissionRequest,
  decision: reduceDecision,
  elicitation: reduceElicitation,
  worktree: reduceWorktree,
  observe: reduceObserve,
};

function permissionOf(result: HookResult): PermissionDecision | undefined {
  return result.outcome === 'blocking' ? 'deny' : result.permission;
}

function reasonOf(result: HookResult): string | undefined {
  return result.outcome === 'blocking' ? result.blockingMessage : result.permissionReason;
}

/** PreToolUse, PreSkillShellCommand: deny > defer > ask > allow; a blocking error counts as deny. */
function reducePermission(event: EventName, items: readonly ReduceItem[]): Omit<Reduced, 'errors'> {
  const decisions = items.map(({ result }) => permissionOf(result));
  const decision = PRECEDENCE.find((candidate) => decisions.includes(candidate));
  const deciders = decisions.flatMap((candidate, index) => (decision && candidate === decision ? [index] : []));
  const reasons = deciders
    .map((index) => reasonOf(items[index]!.result))
    .filter((reason): reason is string => reason !== undefined);
  const reason = decision === 'deny' ? reasons.join('\n') : reasons[0];
  const specific: Record<string, unknown> = {};
  if (decision) specific.permissionDecision = decision;
  if (reason !== undefined && decision !== 'defer') specific.permissionDecisionReason = reason;
  if (decision !== 'deny' && decision !== 'defer') {
    const rewriter = items.findLast(
      ({ result }) =>
        result.specific?.updatedInput !== undefined &&
        (permissionOf(result) === undefined || permissionOf(result) === 'allow' || permissionOf(result) === 'ask'),
    );
    if (rewriter) specific.updatedInput = rewriter.result.specific!.updatedInput;
  }
  if (decision !== 'defer') Object.assign(specific, joinedContext(event, items));
  const output = Object.keys(specific).length > 0 ? { hookSpecificOutput: { hookEventName: event, ...specific } } : {};
  if (EVENTS[event].askDeferOrRewriteBlocks && decision !== 'deny') {
    const stoppers = skillShellStoppers(items);
    if (stoppers.length > 0)
      return {
        blocked: true,
        output,
        reason: stoppers.map(({ message }) => message).join('\n'),
        deciders: stoppers.map(({ index }) => index),
      };
  }
  return {
    blocked: decision === 'deny',
    output,
    ...(decision === 'deny' ? { reason } : {}),
    deciders: decision ? deciders : [],
  };
}

/** PreSkillShellCommand never applies updatedInput: ask, defer or any updatedInput keeps the command from running (§6.4, §7). */
function skillShellStoppers(items: readonly ReduceItem[]): { index: number; message: string }[] {
  return items.flatMap(({ result, label }, index) => {
    const answer =
      result.permission === 'ask' || result.permission === 'defer'
        ? `answered "${result.permission}"`
        : result.specific?.updatedInput !== undefined
          ? 'returned updatedInput'
          : undefined;
    return answer
      ? [{ index, message: result.permissionReason ?? `[${label}]: ${answer}; Claude Code does not run the command` }]
      : [];
  });
}

/** PreModelSwitch: any block, deny, timeout or crash blocks; else ask; else allow (§10.5, §12). */
function reduceModelSwitch(event: EventName, items: readonly ReduceItem[]): Omit<Reduced, 'errors'> {
  const failing = items.flatMap(({ result }, index) =>
    result.outcome !== 'success' || result.permission === 'deny' ? [index] : [],
  );
  if (failing.length > 0) {
    const reason = failing
      .map((index) => {
        const { result, label } = items[index]!;
        return (
          reasonOf(result) ?? `[${label}]: ${result.error ?? 'failed'}; a failing PreModelSwitch hook blocks the switch`
        );
      })
      .join('\n');
    return {
      blocked: true,
      reason,
      deciders: failing,
      output: {
        hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reason },
      },
    };
  }
  const decision = (['ask', 'allow'] as const).find((candidate) =>
    items.some(({ result }) => result.permission === candidate),
  );
  if (!decision) return { blocked: false, deciders: [], output: {} };
  const deciders = items.flatMap(({ result }, index) => (result.permission === decision ? [index] : []));
  const reason = items[deciders[0]!]!.result.permissionReason;
  return {
    blocked: false,
    deciders,
    output: {
      hookSpecificOutput: {
        hookEventName: event,
        permissionDecision: decision,
        ...(reason !== undefined ? { permissionDecisionReason: reason } : {}),
      },
    },
  };
}

/** PermissionRequest: exit 2 is ignored; any deny wins (one with interrupt first), else the first allow (§12). onFailure "block" denies. */
function reducePermissionRequest(event: EventName, items: readonly ReduceItem[]): Omit<Reduced, 'errors'> {
  const decisionOf = ({ result }: ReduceItem): Record<string, unknown> | undefined => {
    if (result.outcome === 'blocking' && result.blockedBy === 'onFailure')
      return { behavior: 'deny', message: result.blockingMessage };
    return result.specific?.decision as Record<string, unknown> | undefined;
  };
  const interrupter = items.findIndex(
    (item) => decisionOf(item)?.behavior === 'deny' && decisionOf(item)?.interrupt === true,
  );
  const denier = interrupter >= 0 ? interrupter : items.findIndex((item) => decisionOf(item)?.behavior === 'deny');
  const chosen = denier >= 0 ? denier : items.findIndex((item) => decisionOf(item)?.behavior === 'allow');
  if (chosen < 0) return { blocked: false, deciders: [], output: {} };
  const decision = decisionOf(items[chosen]!)!;
  const blocked = decision.behavior === 'deny';
  return {
    blocked,
    deciders: [chosen],
    output: { hookSpecificOutput: { hookEventName: event, decision } },
    ...(blocked ? { reason: typeof decision.message === 'string' ? decision.message : 'Denied by hook' } : {}),
  };
}

/** Events with a top-level `decision: "block"`: any block wins, every reason is kept. */
function reduceDecision(event: EventName, items: readonly ReduceItem[]): Omit<Reduced, 'errors'> {
  const deciders = items.flatMap(({ result }, index) => (result.outcome === 'blocking' ? [index] : []));
  const specific: Record<string, unknown> = {
    ...joinedContext(event, items),
    ...lastSpecific(items, ['updatedToolOutput', 'updatedMCPToolOutput', 'sessionTitle']),
  };
  if (items.some(({ result }) => result.specific?.suppressOriginalPrompt === true))
    specific.suppressOriginalPrompt = true;
  const classifier = items
    .map(({ result }) => result.specific?.classifierContext)
    .filter((text): text is string => typeof text === 'string');
  if (classifier.length > 0) specific.classifierContext = classifier.join('\n').slice(0, CLASSIFIER_CONTEXT_LIMIT);
  const output: Record<string, unknown> =
    Object.keys(specific).length > 0 ? { hookSpecificOutput: { hookEventName: event, ...specific } } : {};
  const plain =
    EVENTS[event].plainStdout === 'compactInstructions'
      ? plainTexts(items)
          .map((text) => text.slice(0, COMPACT_INSTRUCTIONS_LIMIT))
          .join('\n')
      : undefined;
  if (deciders.length === 0) return { blocked: false, deciders, output, ...(plain ? { plainText: plain } : {}) };
  const reason = deciders.map((index) => items[index]!.result.blockingMessage ?? 'Blocked by hook').join('\n');
  return { blocked: true, deciders, reason, output: { decision: 'block', reason, ...output } };
}

/** Elicitation(Result): managed answers first; any cancel cancels; else the last answer with content (§12). */
function reduceElicitation(event: EventName, items: readonly ReduceItem[]): Omit<Reduced, 'errors'> {
  const blockers = items.flatMap(({ result }, index) => (result.outcome === 'blocking' ? [index] : []));
  if (blockers.length > 0) {
    const reason = items[blockers.at(-1)!]!.result.blockingMessage;
    return {
      blocked: true,
      deciders: blockers,
      reason,
      output: { hookSpecificOutput: { hookEventName: event, action: 'decline' } },
    };
  }
  const answers = items.flatMap((item, index) => (item.result.specific?.action !== undefined ? [{ item, index }] : []));
  const managed = answers.filter(({ item }) => item.layer === 'managed');
  const considered = managed.length > 0 ? managed : answers;
  if (considered.length === 0) return { blocked: false, deciders: [], output: {} };
  const chosen =
    considered.find(({ item }) => item.result.specific!.action === 'cancel') ??
    considered.findLast(({ item }) => item.result.specific!.content !== undefined) ??
    considered.at(-1)!;
  const { action, content } = chosen.item.result.specific!;
  return {
    blocked: false,
    deciders: [chosen.index],
    output: { hookSpecificOutput: { hookEventName: event, action, ...(content !== undefined ? { content } : {}) } },
  };
}

const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]/g;

/** WorktreeCreate: the first hook that succeeds with a path wins; none = the creation fails (§7, §12). */
function reduceWorktree(event: EventName, items: readonly ReduceItem[]): Omit<Reduced, 'errors'> {
  for (const [index, { result, exitCode, stdout }] of items.entries()) {
    if (result.outcome !== 'success' || (exitCode !== 0 && !result.answeredInJson)) continue;
    const fromJson = result.specific?.worktreePath as string | undefined;
    const fromText = result.answeredInJson
      ? undefined
      : stdout
          .replace(ANSI, '')
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
          .at(-1);
    const path = fromJson ?? fromText;
    if (path)
      return {
        blocked: false,
        deciders: [index],
        plainText: path,
        output: { hookSpecificOutput: { hookEventName: event, worktreePath: path } },
      };
  }
  const reason =
    items.length === 0
      ? 'no WorktreeCreate hook gave a worktree path'
      : items
          .map(
            ({ result, label }) =>
              `[${label}]: ${result.blockingMessage ?? result.error ?? 'printed no worktree path'}`,
          )
          .join('\n');
  return { blocked: true, deciders: items.map((_, index) => index), reason, output: {} };
}

/** Observational events: context and messages only. */
function reduceObserve(event: EventName, items: readonly ReduceItem[]): Omit<Reduced, 'errors'> {
  const specific: Record<string, unknown> = {
    ...joinedContext(event, items),
    ...lastSpecific(items, ['sessionTitle', 'initialUserMessage', 'displayContent']),
  };
  const watchPaths = items.flatMap(({ result }) => (result.specific?.watchPaths as string[] | undefined) ?? []);
  if (watchPaths.length > 0) specific.watchPaths = watchPaths;
  for (const flag of ['reloadSkills', 'retry']) {
    if (items.some(({ result }) => result.specific?.[flag] === true)) specific[flag] = true;
  }
  const plainKind = EVENTS[event].plainStdout;
  const plain = plainKind === 'userDisplay' ? plainTexts(items).join('\n') : undefined;
  return {
    blocked: false,
    deciders: [],
    output: Object.keys(specific).length > 0 ? { hookSpecificOutput: { hookEventName: event, ...specific } } : {},
    ...(plain ? { plainText: plain } : {}),
  };
}

/** Every additionalContext, in order; plain stdout joins them on events that read it as context. */
function joinedContext(event: EventName, items: readonly ReduceItem[]): { additionalContext?: string } {
  const plainIsContext = EVENTS[event].plainStdout === 'context' || EVENTS[event].plainStdout === 'modelContext';
  const parts = items.flatMap(({ result }) => [
    ...(typeof result.specific?.additionalContext === 'string' ? [result.specific.additionalContext] : []),
    ...(plainIsContext && result.plainText ? [result.plainText] : []),
  ]);
  return parts.length > 0 ? { additionalContext: parts.join('\n\n') } : {};
}

function lastSpecific(items: readonly ReduceItem[], fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    const last = items.findLast(({ result }) => result.specific?.[field] !== undefined);
    if (last) picked[field] = last.result.specific![field];
  }
  return picked;
}

function plainTexts(items: readonly ReduceItem[]): string[] {
  return items.flatMap(({ result }) => (result.plainText ? [result.plainText] : []));
}

/** Universal fields (§6.3): every systemMessage, any `continue: false` (where the event honours it). */
function commonFields(event: EventName, items: readonly ReduceItem[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const stopper = EVENTS[event].honoursContinue
    ? items.find(({ result }) => result.json?.continue === false)
    : undefined;
  if (stopper) {
    fields.continue = false;
    if (stopper.result.json!.stopReason !== undefined) fields.stopReason = stopper.result.json!.stopReason;
  }
  const messages = items
    .map(({ result }) => result.json?.systemMessage)
    .filter((message): message is string => typeof message === 'string');
  if (messages.length > 0) fields.systemMessage = messages.join('\n');
  return fields;
}

/** Exit 2 on an event that cannot block still shows its stderr to the user as a hook error (PermissionRequest discards it). */
function nonBlockingExit2(event: EventName, items: readonly ReduceItem[]): string[] {
  if (EVENTS[event].family !== 'observe') return [];
  return items
    .filter(({ result }) => result.outcome === 'blocking' && result.blockedBy === 'exit2')
    .map(({ result, label }) => `${event} hook error: [${label}]: ${result.blockingMessage}`);
}
