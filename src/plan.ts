// Which configured hooks run for one firing, and why the others do not (spec §13 steps 2-4). Pure: no I/O.

import type { HookHandler } from './config/schema.ts';
import { EVENTS, type EventName, type SharedTimeoutBudget } from './events.ts';
import { matcherValue, matchesMatcher } from './match/matcher.ts';
import { matchesIf } from './match/permission-rule.ts';
import type { Diagnostic, LoadedHook } from './types.ts';

/**
 * Every reason a configured hook does not run, once: the plan's, then the run stage's (`background`: it was
 * handed to the background supervisor; `short-circuit`: an earlier hook of its sequential chain blocked).
 * The case-file schema derives its `skipped[].reason` values from this list.
 */
export const SKIP_REASONS = [
  'disabled',
  'matcher',
  'unsupported-type',
  'deduplicated',
  'if',
  'skip-async',
  'only-async',
  'once',
  'untrusted',
  'background',
  'short-circuit',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface PlannedHook {
  hook: LoadedHook;
  timeoutMs: number;
}

export interface SkippedHook {
  hook: LoadedHook;
  reason: SkipReason;
  detail: string;
}

export interface Plan {
  event: EventName;
  /** The value the matchers were tested against (tool name, source, ...). */
  matcherValue?: string;
  /** Hooks to run, in configuration order. */
  run: PlannedHook[];
  /**
   * The hooks to run as chains that run in parallel: a sequential group (or, with `sequential`, the whole
   * firing) is one chain run in order; every other hook is a chain of one.
   */
  chains: PlannedHook[][];
  skipped: SkippedHook[];
  warnings: Diagnostic[];
}

export interface PlanOptions {
  home: string;
  env: Record<string, string | undefined>;
  /** Ids of `once` hooks that already ran successfully in this session (or that another firing runs now). */
  alreadyRanOnce?: ReadonlySet<string>;
  /** Run every hook of the firing in order, as one sequential group (a peri-hooks extension). */
  sequential?: boolean;
  /** Inside Claude Code, async hooks have an entry of their own: `skip` leaves them out, a kind keeps only those. */
  asyncHooks?: AsyncSelection;
}

/** A hook's async kind, as Claude Code runs it: an asyncRewake hook is woken by its exit 2, an async one delivers its JSON (§10.3). */
export type AsyncKind = 'async' | 'asyncRewake';
export type AsyncSelection = 'skip' | AsyncKind;
export const ASYNC_KINDS: readonly AsyncKind[] = ['async', 'asyncRewake'];

/** asyncRewake wins over async, as in Claude Code; hooks of other types are never async. */
export function asyncKind(handler: HookHandler): AsyncKind | undefined {
  if (handler.type !== 'command') return undefined;
  return handler.asyncRewake ? 'asyncRewake' : handler.async ? 'async' : undefined;
}

export function plan(
  event: EventName,
  input: Record<string, unknown>,
  hooks: readonly LoadedHook[],
  options: PlanOptions,
): Plan {
  const def = EVENTS[event];
  const value = matcherValue(event, input);
  const skipped: SkippedHook[] = [];
  const warnings: Diagnostic[] = [];
  const warnedMatchers = new Set<string>();
  const candidates: LoadedHook[] = [];

  for (const hook of hooks) {
    if (hook.event !== event) continue;
    if (hook.disabledReason) {
      skipped.push({ hook, reason: 'disabled', detail: hook.disabledReason });
      continue;
    }
    const check = matchesMatcher(event, hook.matcher, value);
    if (check.invalid && !warnedMatchers.has(hook.matcher!)) {
      warnedMatchers.add(hook.matcher!);
      warnings.push({
        severity: 'warning',
        code: 'invalid-matcher',
        message: check.invalid,
        file: hook.provenance.file,
        pointer: groupPointer(hook),
        fix: 'escape the regex, or list exact names separated by |',
      });
    }
    if (!check.matches) {
      skipped.push({
        hook,
        reason: 'matcher',
        detail: check.invalid ?? `matcher "${hook.matcher}" does not match "${value}"`,
      });
      continue;
    }
    if (!def.hookTypes.includes(hook.handler.type)) {
      skipped.push({
        hook,
        reason: 'unsupported-type',
        detail: `${hook.handler.type} hooks are not supported for ${event} events`,
      });
      continue;
    }
    candidates.push(hook);
  }

  const run: PlannedHook[] = [];
  for (const hook of dedupe(candidates, skipped)) {
    const rule = hook.handler.if;
    if (rule !== undefined && rule !== '') {
      if (!def.ifApplies) {
        skipped.push({
          hook,
          reason: 'if',
          detail: `"if" applies only to tool events; Claude Code never runs this hook on ${event}`,
        });
        continue;
      }
      const check = matchesIf(rule, {
        toolName: String(input.tool_name ?? ''),
        toolInput: (input.tool_input ?? {}) as Record<string, unknown>,
        cwd: String(input.cwd ?? ''),
        home: options.home,
      });
      if (check.malformed) {
        warnings.push({
          severity: 'warning',
          code: 'malformed-if',
          message: `malformed "if" rule "${rule}": ${check.malformed}; Claude Code silently never runs this hook`,
          file: hook.provenance.file,
          pointer: `${hook.provenance.pointer}/if`,
          fix: 'write one rule: Tool or Tool(specifier)',
        });
      }
      if (!check.matches) {
        skipped.push({ hook, reason: 'if', detail: `"if": "${rule}" does not match this call` });
        continue;
      }
    }
    const elsewhere = options.asyncHooks === undefined ? undefined : asyncSkip(hook, options.asyncHooks);
    if (elsewhere) {
      skipped.push(elsewhere);
      continue;
    }
    if (hook.handler.once && options.alreadyRanOnce?.has(hook.id)) {
      skipped.push(onceSkip(hook));
      continue;
    }
    if (hook.untrusted) {
      skipped.push({ hook, reason: 'untrusted', detail: hook.untrusted });
      continue;
    }
    run.push({ hook, timeoutMs: timeoutMs(event, hook.handler, hooks, options.env) });
  }
  const chains = schedule(run, options.sequential === true);
  return { event, ...(value === undefined ? {} : { matcherValue: value }), run, chains, skipped, warnings };
}

/** The plan without the once hooks another firing claimed first (`lost`, by id): they are skipped as `once`. */
export function skipLostOnce(thePlan: Plan, lost: ReadonlySet<string>): Plan {
  if (lost.size === 0) return thePlan;
  const keep = (planned: PlannedHook) => !lost.has(planned.hook.id);
  return {
    ...thePlan,
    run: thePlan.run.filter(keep),
    chains: thePlan.chains.map((chain) => chain.filter(keep)).filter((chain) => chain.length > 0),
    skipped: [...thePlan.skipped, ...thePlan.run.filter((planned) => !keep(planned)).map(({ hook }) => onceSkip(hook))],
  };
}

/** Where another of Claude Code's entries for peri-hooks runs the hook: the one for its async kind, or the synchronous one. */
function asyncSkip(hook: LoadedHook, selection: AsyncSelection): SkippedHook | undefined {
  const kind = asyncKind(hook.handler);
  if (selection === 'skip')
    return kind
      ? {
          hook,
          reason: 'skip-async',
          detail: `--skip-async: an ${kind} hook, run by peri-hooks' entry for ${kind} hooks (--only-async)`,
        }
      : undefined;
  if (kind === selection) return undefined;
  return {
    hook,
    reason: 'only-async',
    detail: `--only-async ${selection}: ${kind ? `an ${kind} hook, run by the entry for its kind` : 'not an async hook, run by the synchronous entry'}`,
  };
}

function onceSkip(hook: LoadedHook): SkippedHook {
  return { hook, reason: 'once', detail: 'once: already ran successfully in this session' };
}

function schedule(run: readonly PlannedHook[], allSequential: boolean): PlannedHook[][] {
  if (allSequential) return run.length > 0 ? [[...run]] : [];
  const chains = new Map<string, PlannedHook[]>();
  for (const planned of run) {
    const { hook } = planned;
    const key = hook.sequential ? `${hook.provenance.file}\u0000${hook.groupIndex}` : hook.id;
    const chain = chains.get(key);
    if (chain) chain.push(planned);
    else chains.set(key, [planned]);
  }
  return [...chains.values()];
}

/**
 * Identical handlers run once (§9.2). Like Claude Code's map, the survivor keeps the place of the first copy
 * and the fields of the last; plugin copies stay apart from settings copies.
 */
function dedupe(hooks: readonly LoadedHook[], skipped: SkippedHook[]): LoadedHook[] {
  const byKey = new Map<string, LoadedHook>();
  for (const hook of hooks) {
    const key = identity(hook);
    const earlier = byKey.get(key);
    // An unapproved copy never displaces an approved one: the handler still runs once.
    if (earlier && hook.untrusted && !earlier.untrusted) {
      skipped.push({ hook, reason: 'deduplicated', detail: `same handler as ${earlier.id}, which runs instead` });
      continue;
    }
    if (earlier)
      skipped.push({ hook: earlier, reason: 'deduplicated', detail: `same handler as ${hook.id}, which runs instead` });
    byKey.set(key, hook);
  }
  return [...byKey.values()];
}

export function identity(hook: LoadedHook): string {
  const scope = hook.provenance.pluginRoot ?? 'settings';
  const handler = hook.handler;
  const condition = handler.if ?? '';
  switch (handler.type) {
    case 'command':
      return JSON.stringify([
        scope,
        'command',
        handler.shell ?? 'bash',
        handler.command,
        handler.args ?? null,
        condition,
      ]);
    case 'http':
      return JSON.stringify([scope, 'http', handler.url, condition]);
    case 'mcp_tool':
      return JSON.stringify([scope, 'mcp_tool', handler.server, handler.tool, handler.input ?? null, condition]);
    case 'prompt':
    case 'agent':
      return JSON.stringify([scope, handler.type, handler.prompt, condition]);
  }
}

const PROMPT_DEFAULT_S = 30;
/** Background limit of `async` command hooks without `timeout`, whatever the event (§10.1). */
const ASYNC_DEFAULT_S = 600;
const AGENT_DEFAULT_S = 60;

/** Per-hook time limit in milliseconds (§10.1). */
export function timeoutMs(
  event: EventName,
  handler: HookHandler,
  all: readonly LoadedHook[],
  env: Record<string, string | undefined>,
): number {
  const eventDefault = EVENTS[event].timeoutS;
  if (handler.type === 'prompt' || handler.type === 'agent') {
    const typeDefault = handler.type === 'prompt' ? PROMPT_DEFAULT_S : AGENT_DEFAULT_S;
    return (handler.timeout !== undefined ? Math.max(handler.timeout, 1) : Math.min(typeDefault, eventDefault)) * 1000;
  }
  if (handler.type === 'command' && (handler.async || handler.asyncRewake))
    return (handler.timeout ?? ASYNC_DEFAULT_S) * 1000;
  const shared = EVENTS[event].sharedTimeoutBudget;
  if (shared) {
    // The shared budget bounds the whole batch; a hook's own `timeout` is still its own limit (§5.1).
    const budget = sharedBudgetMs(event, shared, all, env);
    return handler.timeout === undefined ? budget : Math.min(handler.timeout * 1000, budget);
  }
  return (handler.timeout ?? eventDefault) * 1000;
}

/**
 * The budget that an event's hooks share (SessionEnd): max(min, min(largest settings-file timeout, max)). Hooks
 * turned off by a kill switch are not in Claude Code's settings snapshot, and plugin hooks do not count.
 */
function sharedBudgetMs(
  event: EventName,
  budget: SharedTimeoutBudget,
  all: readonly LoadedHook[],
  env: Record<string, string | undefined>,
): number {
  const override = Number(env[budget.overrideVariable]);
  if (Number.isFinite(override) && override > 0) return override;
  const largest = Math.max(
    0,
    ...all
      .filter((hook) => hook.event === event && hook.provenance.layer !== 'plugin' && hook.disabledReason === undefined)
      .map((hook) => hook.handler.timeout ?? 0),
  );
  return Math.max(budget.minS, Math.min(largest, budget.maxS)) * 1000;
}

function groupPointer(hook: LoadedHook): string {
  return hook.provenance.pointer.replace(/\/hooks\/\d+$/, '/matcher');
}
