// One firing, end to end: input -> settings -> plan -> run -> classify -> reduce -> report.
import { homedir } from 'node:os';
import type { Readable } from 'node:stream';
import { EVENTS, isEventName, suggestEvent, type EventName } from './events.ts';
import { PeriHooksError, deniedPermissionFlag, permissionError } from './errors.ts';
import { parseInput, type HookInput } from './input.ts';
import { loadSettings, type LoadOptions } from './config/index.ts';
import { plan as makePlan, type PlanOptions, type PlannedHook } from './plan.ts';
import { classify, type HookResult } from './outcome.ts';
import { reduce } from './reduce.ts';
import { runHook } from './runners/index.ts';
import type { StopGuard } from './session/stop-guard.ts';
import type { AsyncJob } from './run/background.ts';
import { claimOnce, onceAlreadyRan, onceKey, ranSuccessfully, type OnceSettlement } from './session/once.ts';
import type { AsyncResult } from './session/schema.ts';
import { settle } from './session/settle.ts';
import { openSession } from './session/store.ts';
import type { Diagnostic, LoadedHook, RawOutcome } from './types.ts';
import { labelOf } from './hook-label.ts';

export { labelOf };

/** Which settings sources to read: fire, validate, explain and list take the same options. */
export interface SourceOptions {
  /** Project root; default CLAUDE_PROJECT_DIR, else the input's cwd. */
  projectDir?: string;
  settings?: string[];
  pluginDirs?: string[];
  settingSources?: LoadOptions['settingSources'];
  managedDir?: string;
  /** Environment the hooks inherit and settings discovery reads; default process.env. */
  env?: Record<string, string | undefined>;
  home?: string;
}

export interface FireOptions extends SourceOptions {
  /** Where the input text came from, for messages about it (default "stdin"). */
  inputSource?: string;
  /** Hook failures and runner errors block where the event can block. */
  failClosed?: boolean;
  signal?: AbortSignal;
  /** Called as each hook starts, with its statusMessage (or its command, URL or prompt). */
  onHookStart?: (hook: LoadedHook, status: string) => void;
  /** Remember nothing: no session state is read or written. */
  noState?: boolean;
  /** The session state folder; default PERI_HOOKS_STATE_DIR, else $XDG_STATE_HOME/peri-hooks or ~/.local/state/peri-hooks. */
  stateDir?: string;
  /** Run every hook of the firing in order, as one sequential group (a peri-hooks extension). */
  sequential?: boolean;
  /**
   * How to start peri-hooks itself (argv), for the supervisor of async hooks. The CLI sets it; embedders
   * that configure async hooks pass it, else those hooks fail with a message saying so.
   */
  selfCommand?: readonly string[];
}

export interface HookReport {
  id: string;
  type: string;
  matcher?: string;
  layer: string;
  file: string;
  pointer: string;
  plugin?: string;
  /** The command, URL or prompt, for people. */
  label: string;
  status: 'ran' | 'skipped';
  /** Also `short-circuit` (a sequential group stopped) and `background` (an async hook handed to a supervisor). */
  skipReason?: string;
  skipDetail?: string;
  outcome?: HookResult['outcome'];
  blockedBy?: HookResult['blockedBy'];
  exitCode?: number | null;
  timedOut?: boolean;
  durationMs?: number;
  stdout?: string;
  stderr?: string;
  error?: string;
  truncated?: RawOutcome['truncated'];
  /** For `--output claude`: whether this hook answered in JSON. */
  answeredInJson?: boolean;
  /** Background hooks: the job whose result a later firing of the session delivers. */
  asyncJob?: string;
}

export interface FireReport {
  event: EventName;
  matcherValue?: string;
  projectDir: string;
  /** The reduced decision as one Claude Code hook output object; absent when there is nothing to say. */
  output?: Record<string, unknown>;
  /** Plain text the event reads (worktree path, compaction instructions), when there is no JSON to say. */
  plainText?: string;
  blocked: boolean;
  /** The block message. */
  reason?: string;
  exitCode: 0 | 2;
  /** Set when --fail-closed turned a failure into the block. */
  failClosed?: boolean;
  /** Configured hooks of this event, in configuration order, ran or skipped. */
  hooks: HookReport[];
  /** Ids of the hooks whose answers decided the block or the decision. */
  deciders: string[];
  /** Non-blocking hook errors, as Claude Code reports them. */
  errors: string[];
  warnings: Diagnostic[];
  /** Stop and SubagentStop: the consecutive-block count and whether the cap overrode this block. */
  stopGuard?: StopGuard;
  /** Results of earlier async hooks of the session that this firing delivered in its output. */
  delivered?: AsyncResult[];
}

/** Nesting depth of peri-hooks processes, so that a hook that starts peri-hooks again cannot loop forever. */
export const DEPTH_VARIABLE = 'PERI_HOOKS_DEPTH';
export const MAX_DEPTH = 3;

export function checkEvent(name: string): EventName {
  if (isEventName(name)) return name;
  const suggestion = suggestEvent(name);
  throw new PeriHooksError('unknown-event', `unknown hook event "${name}"${suggestion ? `; did you mean ${suggestion}?` : ''}`, 'event names are case-sensitive; `peri-hooks fire --help` lists all 34');
}

/** The loader's options for these sources; `cwd` is the project root when neither the option nor CLAUDE_PROJECT_DIR names one. */
export function sourcesToLoad(options: SourceOptions, cwd: string): LoadOptions {
  const env = options.env ?? process.env;
  return {
    projectDir: options.projectDir ?? env.CLAUDE_PROJECT_DIR ?? cwd,
    home: options.home ?? env.HOME ?? homedir(),
    env,
    ...(options.managedDir ? { managedDir: options.managedDir } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
    ...(options.settingSources ? { settingSources: options.settingSources } : {}),
  };
}

/** Fire one event. `input` is the hook input as JSON text or as an object. Throws PeriHooksError for bad usage or input. */
export async function fire(eventName: string, input: string | Record<string, unknown>, options: FireOptions = {}): Promise<FireReport> {
  const event = checkEvent(eventName);
  const env = options.env ?? process.env;
  const depth = Number(env[DEPTH_VARIABLE] ?? 0) || 0;
  if (depth >= MAX_DEPTH) {
    throw new PeriHooksError('recursion', `peri-hooks is nested ${depth} levels deep (${DEPTH_VARIABLE}=${depth}): a hook starts peri-hooks, which starts the hook again`, 'make sure the settings that peri-hooks runs do not register peri-hooks itself');
  }
  const hookInput: HookInput = parseInput(event, typeof input === 'string' ? input : JSON.stringify(input), options.inputSource);
  const loadOptions = sourcesToLoad(options, hookInput.cwd);
  const { home, projectDir } = loadOptions;

  const loaded = await loadSettings(loadOptions);
  const stateOptions = { env, home, ...(options.noState ? { noState: true } : {}), ...(options.stateDir ? { stateDir: options.stateDir } : {}) };
  const opened = openSession(hookInput.session_id, stateOptions);
  const { session } = opened;
  const warnings: Diagnostic[] = [...loaded.diagnostics];
  const stateWarning = (message: string) => warnings.push({ severity: 'warning', code: 'session-state', message });
  opened.warnings.forEach(stateWarning);
  const eventHooks = loaded.hooks.filter((hook) => hook.event === event);
  const planOptions: PlanOptions = { home, env, alreadyRanOnce: onceAlreadyRan(session, eventHooks) };
  let thePlan = makePlan(event, hookInput, loaded.hooks, planOptions);
  // Once hooks are claimed under the session lock; those another firing claimed first are planned out.
  const claims = await claimOnce(session, thePlan.run.map(({ hook }) => hook).filter((hook) => hook.handler.once), labelOf);
  claims.warnings.forEach(stateWarning);
  if (claims.lost.size > 0) thePlan = makePlan(event, hookInput, loaded.hooks, { ...planOptions, alreadyRanOnce: new Set([...planOptions.alreadyRanOnce!, ...claims.lost]) });
  warnings.push(...thePlan.warnings);

  const signal = options.signal ?? new AbortController().signal;
  const hookEnv = { ...env, [DEPTH_VARIABLE]: String(depth + 1) };
  const once: OnceSettlement[] = [];
  const background = new Map<string, { jobId: string }>();
  const startErrors = new Map<string, string>();
  const shortCircuited = new Map<string, string>();
  const hookWarn = (hook: LoadedHook) => (message: string) => warnings.push({ severity: 'warning', code: 'hook-runtime', message: `[${labelOf(hook)}]: ${message}`, file: hook.provenance.file, pointer: hook.provenance.pointer });

  /** Hands a hook to a detached supervisor; the pipes of a hook that printed `{"async": true}` go with it. */
  // Loaded with the first command hook (which loads child_process anyway): the hand-off must be synchronous.
  let supervisor: typeof import('./run/background.ts') | undefined;
  const toSupervisor = (job: DistributiveOmit<AsyncJob, 'jobId' | 'session' | 'onceKey'>, pipes?: [Readable, Readable]): boolean => {
    const { hook } = job;
    const { newJobId, startSupervisor } = supervisor!;
    const claimed = claims.claimed.has(hook.id);
    if (!options.selfCommand) {
      startErrors.set(hook.id, 'async hooks need FireOptions.selfCommand (how to start peri-hooks) when peri-hooks is embedded');
      return false;
    }
    const jobId = newJobId();
    const started = startSupervisor({ ...job, jobId, ...(session ? { session: session.ref } : {}), ...(claimed ? { onceKey: onceKey(hook) } : {}) } as AsyncJob, options.selfCommand, hookEnv, pipes);
    if ('error' in started) {
      startErrors.set(hook.id, started.error);
      return false;
    }
    background.set(hook.id, { jobId });
    if (claimed) once.push({ hook, supervisorPid: started.pid });
    return true;
  };

  type Ran = { hook: LoadedHook; raw: RawOutcome; result: HookResult };
  const runOne = async ({ hook, timeoutMs }: PlannedHook, current: HookInput): Promise<Ran | undefined> => {
    options.onHookStart?.(hook, hook.handler.statusMessage ?? labelOf(hook));
    const inputJson = JSON.stringify(current);
    const label = labelOf(hook);
    const handler = hook.handler;
    if (handler.type === 'command') supervisor ??= await import('./run/background.ts');
    if (handler.type === 'command' && (handler.async || handler.asyncRewake)) {
      if (toSupervisor({ kind: 'run', hook, event, label, timeoutMs, input: current, inputJson, projectDir, cwd: current.cwd, settings: loaded.settings })) return undefined;
      const error = startErrors.get(hook.id)!;
      const raw: RawOutcome = { exitCode: null, stdout: '', stderr: '', timedOut: false, error, durationMs: 0 };
      return { hook, raw, result: classify(raw, { event, handler, label, fromPlugin: hook.provenance.layer === 'plugin' }) };
    }
    const raw = await runHook(hook, {
      event, input: current, inputJson, projectDir, cwd: current.cwd, env: hookEnv, timeoutMs,
      settings: loaded.settings, signal, warn: hookWarn(hook),
      moveToBackground: (handoff) => toSupervisor({ kind: 'adopt', hook, event, label, timeoutMs: handoff.asyncTimeoutMs, pid: handoff.pid, stdoutSoFar: handoff.stdoutSoFar, stderrSoFar: handoff.stderrSoFar }, [handoff.stdout, handoff.stderr]),
    });
    if (raw.background) return undefined;
    const result = classify(raw, { event, handler, label, fromPlugin: hook.provenance.layer === 'plugin' });
    if (claims.claimed.has(hook.id)) once.push({ hook, success: ranSuccessfully(result) });
    return { hook, raw, result };
  };

  /** A sequential group: in order, each hook sees the input as the ones before rewrote it; a block ends it. */
  const runChain = async (chain: readonly PlannedHook[]): Promise<Ran[]> => {
    const ran: Ran[] = [];
    let current = hookInput;
    for (const [index, planned] of chain.entries()) {
      const entry = await runOne(planned, current);
      if (!entry) continue;
      ran.push(entry);
      if (blocksAlone(event, entry, current)) {
        for (const rest of chain.slice(index + 1)) {
          shortCircuited.set(rest.hook.id, `short-circuit: ${labelOf(planned.hook)} blocked earlier in the sequential group`);
          if (claims.claimed.has(rest.hook.id)) once.push({ hook: rest.hook, success: false });
        }
        break;
      }
      const updated = rewrittenInput(entry.result);
      if (updated) current = { ...current, tool_input: updated };
    }
    return ran;
  };

  const chains = schedule(thePlan.run, options.sequential === true);
  const byId = new Map((await Promise.all(chains.map(runChain))).flat().map((entry) => [entry.hook.id, entry]));
  // Configuration order for the reducer, whatever order the hooks finished in.
  const results = thePlan.run.flatMap(({ hook }) => byId.get(hook.id) ?? []);
  // A runtime that refused to run a hook (Deno without --allow-run) is a runner error, never a silent allow.
  for (const { hook, raw } of results) {
    const flag = deniedPermissionFlag(raw.error);
    if (flag) throw permissionError(`to run the hook ${labelOf(hook)} (${raw.error})`, flag);
  }

  const firstReduced = reduce(event, results.map(({ hook, raw, result }) => ({
    result, label: labelOf(hook), layer: hook.provenance.layer, exitCode: raw.exitCode, stdout: raw.stdout,
  })), { input: hookInput, ...(options.failClosed ? { failClosed: true } : {}) });
  const settled = await settle(session, event, hookInput, firstReduced, once, env);
  settled.warnings.forEach(stateWarning);
  const { guard, delivered, reduced } = settled;
  if (guard?.overridden) warnings.push({ severity: 'warning', code: 'stop-hook-block-cap', message: guard.message! });

  const ran = new Map(results.map((entry) => [entry.hook.id, entry]));
  const skipped = new Map(thePlan.skipped.map((entry) => [entry.hook.id, entry]));
  const hooks = eventHooks.map((hook): HookReport => {
    const base = describeHook(hook);
    const run = ran.get(hook.id);
    if (run) {
      const { raw, result } = run;
      return {
        ...base, status: 'ran', outcome: result.outcome,
        ...(result.blockedBy ? { blockedBy: result.blockedBy } : {}),
        exitCode: raw.exitCode, timedOut: raw.timedOut, durationMs: Math.round(raw.durationMs),
        stdout: raw.stdout, stderr: raw.stderr,
        ...(result.error !== undefined ? { error: result.error } : {}),
        ...(raw.truncated ? { truncated: raw.truncated } : {}),
        answeredInJson: result.answeredInJson,
      };
    }
    const job = background.get(hook.id);
    if (job) return { ...base, status: 'skipped', skipReason: 'background', skipDetail: `runs in the background as job ${job.jobId}; a later firing of the session delivers its messages`, asyncJob: job.jobId };
    const cut = shortCircuited.get(hook.id);
    if (cut) return { ...base, status: 'skipped', skipReason: 'short-circuit', skipDetail: cut };
    const skip = skipped.get(hook.id);
    return { ...base, status: 'skipped', skipReason: skip?.reason ?? 'unknown', skipDetail: skip?.detail ?? '' };
  });
  for (const result of results) {
    if (result.raw.truncated) warnings.push({ severity: 'warning', code: 'output-truncated', message: `[${labelOf(result.hook)}]: output beyond 10 MiB was dropped`, file: result.hook.provenance.file, pointer: result.hook.provenance.pointer });
  }

  return {
    event,
    ...(thePlan.matcherValue !== undefined ? { matcherValue: thePlan.matcherValue } : {}),
    projectDir,
    ...(reduced.output ? { output: reduced.output } : {}),
    ...(reduced.plainText !== undefined ? { plainText: reduced.plainText } : {}),
    blocked: reduced.blocked,
    ...(reduced.reason !== undefined ? { reason: reduced.reason } : {}),
    exitCode: reduced.blocked ? 2 : 0,
    ...(reduced.failClosed ? { failClosed: true } : {}),
    hooks,
    deciders: reduced.deciders.map((index) => results[index]!.hook.id),
    errors: reduced.errors,
    warnings,
    ...(guard ? { stopGuard: guard } : {}),
    ...(delivered.length > 0 ? { delivered } : {}),
  };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The hooks to run as chains: a sequential group (or, with --sequential, the whole firing) is one chain
 * run in order; every other hook is a chain of one. Chains run in parallel.
 */
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

/** Whether one result, alone, blocks the event: what stops a sequential group. WorktreeCreate takes the first success. */
function blocksAlone(event: EventName, { hook, raw, result }: { hook: LoadedHook; raw: RawOutcome; result: HookResult }, input: HookInput): boolean {
  if (EVENTS[event].family === 'worktree') return false;
  return reduce(event, [{ result, label: labelOf(hook), layer: hook.provenance.layer, exitCode: raw.exitCode, stdout: raw.stdout }], { input }).blocked;
}

/** The tool input a hook rewrote, where the rewrite is honoured (with allow, ask or no decision, §12). */
function rewrittenInput(result: HookResult): Record<string, unknown> | undefined {
  const updated = result.specific?.updatedInput as Record<string, unknown> | undefined;
  if (!updated || result.outcome === 'blocking' || result.permission === 'deny' || result.permission === 'defer') return undefined;
  return updated;
}

export function describeHook(hook: LoadedHook): Omit<HookReport, 'status'> {
  return {
    id: hook.id,
    type: hook.handler.type,
    ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
    layer: hook.provenance.layer,
    file: hook.provenance.file,
    pointer: hook.provenance.pointer,
    ...(hook.provenance.pluginName ? { plugin: hook.provenance.pluginName } : {}),
    label: labelOf(hook),
  };
}
