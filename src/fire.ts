// One firing, end to end: input -> settings -> plan -> run -> classify -> reduce -> report.
import { homedir } from 'node:os';
import { isEventName, suggestEvent, type EventName } from './events.ts';
import { PeriHooksError } from './errors.ts';
import { parseInput, type HookInput } from './input.ts';
import { loadSettings, type LoadOptions } from './config/index.ts';
import { plan as makePlan, type PlanOptions } from './plan.ts';
import { classify, type HookResult } from './outcome.ts';
import { reduce } from './reduce.ts';
import { runHook } from './runners/index.ts';
import type { Diagnostic, LoadedHook, RawOutcome } from './types.ts';

export interface FireOptions {
  /** Project root; default CLAUDE_PROJECT_DIR, else the input's cwd. */
  projectDir?: string;
  settings?: string[];
  pluginDirs?: string[];
  settingSources?: LoadOptions['settingSources'];
  managedDir?: string;
  /** Environment the hooks inherit and settings discovery reads; default process.env. */
  env?: Record<string, string | undefined>;
  home?: string;
  /** Hook failures and runner errors block where the event can block. */
  failClosed?: boolean;
  signal?: AbortSignal;
  /** Called as each hook starts, with its statusMessage (or its command, URL or prompt). */
  onHookStart?: (hook: LoadedHook, status: string) => void;
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
}

/** Nesting depth of peri-hooks processes, so that a hook that starts peri-hooks again cannot loop forever. */
export const DEPTH_VARIABLE = 'PERI_HOOKS_DEPTH';
export const MAX_DEPTH = 3;

export function checkEvent(name: string): EventName {
  if (isEventName(name)) return name;
  const suggestion = suggestEvent(name);
  throw new PeriHooksError('unknown-event', `unknown hook event "${name}"${suggestion ? `; did you mean ${suggestion}?` : ''}`, 'event names are case-sensitive; `peri-hooks fire --help` lists all 34');
}

/** Fire one event. `input` is the hook input as JSON text or as an object. Throws PeriHooksError for bad usage or input. */
export async function fire(eventName: string, input: string | Record<string, unknown>, options: FireOptions = {}): Promise<FireReport> {
  const event = checkEvent(eventName);
  const env = options.env ?? process.env;
  const depth = Number(env[DEPTH_VARIABLE] ?? 0) || 0;
  if (depth >= MAX_DEPTH) {
    throw new PeriHooksError('recursion', `peri-hooks is nested ${depth} levels deep (${DEPTH_VARIABLE}=${depth}): a hook starts peri-hooks, which starts the hook again`, 'make sure the settings that peri-hooks runs do not register peri-hooks itself');
  }
  const hookInput: HookInput = parseInput(event, typeof input === 'string' ? input : JSON.stringify(input));
  const home = options.home ?? env.HOME ?? homedir();
  const projectDir = options.projectDir ?? env.CLAUDE_PROJECT_DIR ?? hookInput.cwd;

  const loaded = await loadSettings({
    projectDir, home, env,
    ...(options.managedDir ? { managedDir: options.managedDir } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
    ...(options.settingSources ? { settingSources: options.settingSources } : {}),
  });
  const planOptions: PlanOptions = { home, env };
  const thePlan = makePlan(event, hookInput, loaded.hooks, planOptions);
  const warnings: Diagnostic[] = [...loaded.diagnostics, ...thePlan.warnings];

  const signal = options.signal ?? new AbortController().signal;
  const inputJson = JSON.stringify(hookInput);
  const hookEnv = { ...env, [DEPTH_VARIABLE]: String(depth + 1) };
  const results = await Promise.all(thePlan.run.map(async ({ hook, timeoutMs }) => {
    options.onHookStart?.(hook, hook.handler.statusMessage ?? labelOf(hook));
    const raw = await runHook(hook, {
      event, input: hookInput, inputJson, projectDir, cwd: hookInput.cwd, env: hookEnv, timeoutMs,
      settings: loaded.settings, signal,
      warn: (message) => warnings.push({ severity: 'warning', code: 'hook-runtime', message: `[${labelOf(hook)}]: ${message}`, file: hook.provenance.file, pointer: hook.provenance.pointer }),
    });
    return { hook, raw, result: classify(raw, { event, handler: hook.handler, label: labelOf(hook) }) };
  }));

  const reduced = reduce(event, results.map(({ hook, raw, result }) => ({
    result, label: labelOf(hook), layer: hook.provenance.layer, exitCode: raw.exitCode, stdout: raw.stdout,
  })), { input: hookInput, ...(options.failClosed ? { failClosed: true } : {}) });

  const ran = new Map(results.map((entry) => [entry.hook.id, entry]));
  const skipped = new Map(thePlan.skipped.map((entry) => [entry.hook.id, entry]));
  const hooks = loaded.hooks.filter((hook) => hook.event === event).map((hook): HookReport => {
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
  };
}

export function labelOf(hook: LoadedHook): string {
  const handler = hook.handler;
  switch (handler.type) {
    case 'command': return handler.args ? [handler.command, ...handler.args].join(' ') : handler.command;
    case 'http': return handler.url;
    case 'mcp_tool': return `${handler.server}/${handler.tool}`;
    case 'prompt':
    case 'agent': return handler.prompt;
  }
}

function describeHook(hook: LoadedHook): Omit<HookReport, 'status'> {
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
