// One firing, end to end, as a line of stages that each return a value:
// parse input -> load -> open session -> plan -> execute -> reduce -> settle -> build report.

import type { AuditedFiring } from './audit/firing.ts';
import type { AuditTarget } from './audit/log.ts';
import { otelConfigured } from './audit/otel-config.ts';
import { namedSourceMissing, unenforcedLines } from './config/codes.ts';
import { ALL_SOURCES } from './config/discover.ts';
import { type LoadedSettings, loadSettings } from './config/index.ts';
import { PROJECT_DIR_RULES, type SourceOptions, type SourcesToLoad, sourcesToLoad } from './config/sources.ts';
import { PeriHooksError } from './errors.ts';
import { checkEvent, EVENTS, type EventName } from './events.ts';
import { labelOf } from './hook-label.ts';
import { checkInput } from './input/text.ts';
import type { ConnectionPool } from './mcp/pool.ts';
import { type AsyncSelection, plan, skipLostOnce } from './plan.ts';
import { isoTime, nowMs } from './platform/clock.ts';
import { reduce } from './reduce.ts';
import { buildReport } from './report/build.ts';
import type { FireReport } from './report/types.ts';
import { execute, reduceItems } from './run/execute.ts';
import { claimOnce, onceAlreadyRan } from './session/once.ts';
import { settle } from './session/settle.ts';
import { openFiringSession } from './session/store.ts';
import { counted } from './text.ts';
import { trustRequired } from './trust/required.ts';
import type { Diagnostic, LoadedHook, RawOutcome } from './types.ts';

export interface FireOptions extends SourceOptions {
  /** Where the input text came from, for messages about it (default "stdin"). */
  inputSource?: string;
  /** Hook failures and runner errors block where the event can block. */
  failClosed?: boolean;
  /** Why failures block, for the block message; default `--fail-closed` (a host that denies on a failing hook names itself). */
  failClosedCause?: string;
  signal?: AbortSignal;
  /** Called as each hook starts, with its statusMessage (or its command, URL or prompt). */
  onHookStart?: (hook: LoadedHook, status: string) => void;
  /** Remember nothing: no session state is read or written. */
  noState?: boolean;
  /** The session state folder; default PERI_HOOKS_STATE_DIR, else $XDG_STATE_HOME/peri-hooks or ~/.local/state/peri-hooks. */
  stateDir?: string;
  /** A `redis://` URL: sessions live in Redis, shared by replicas (the folder keeps the async jobs' files). */
  stateUrl?: string;
  /** Run every hook of the firing in order, as one sequential group (a peri-hooks extension). */
  sequential?: boolean;
  /** false: leave the Stop loop to the host, which caps it itself (Claude Code); no count, no override. Default true. */
  stopGuard?: boolean;
  /**
   * Inside Claude Code, async hooks run through an entry of their own, so that Claude Code's async mechanism
   * delivers them: `skip` leaves them out; a kind runs only the hooks of that kind, here, waiting for them.
   */
  asyncHooks?: AsyncSelection;
  /**
   * How to start peri-hooks itself (argv), for the supervisor of async hooks. The CLI sets it; embedders
   * that configure async hooks pass it, else those hooks fail with a message saying so.
   */
  selfCommand?: readonly string[];
  /** Loads the settings of the firing's sources; a resident server passes its cache. Default loadSettings. */
  load?: (sources: SourcesToLoad) => Promise<LoadedSettings>;
  /** `--mcp-config` values (a file or inline JSON): MCP servers for mcp_tool hooks, after the configured ones. */
  mcpConfigs?: string[];
  /** MCP connections that outlive the firing (serve); without it each firing connects and closes. */
  mcpPool?: ConnectionPool;
  /**
   * Whether the project's own files (its settings, local settings, .mcp.json) may load: serve asks, since a client
   * names the project. Default yes. Without them the firing runs the other sources' hooks in that folder.
   */
  projectFiles?: (projectDir: string) => boolean;
  /** Called at each stage with what it did (`--verbose`): the tool, the call and the reason redacted, never settings values or env. */
  trace?: Trace;
  /** Append the firing to this hash-chained audit log (src/audit/); under failClosed, a log that cannot be written blocks. */
  audit?: AuditTarget;
  /**
   * The process ends after this firing (the CLI): OpenTelemetry requests are bounded by the flush deadline, which
   * the caller waits for after writing the decision (flushTelemetry in src/audit/otel.ts).
   */
  oneShot?: boolean;
  /**
   * Project and local hooks run only with content approved by `peri-hooks trust` (src/trust/); also required by
   * `peri_hooks_require_trust: true` in managed, user or --settings files.
   */
  requireTrust?: boolean;
}

/** One line of the trace: the stage, and what it did. */
export type Trace = (
  stage: 'input' | 'sources' | 'plan' | 'hook' | 'reduce' | 'settle' | 'host',
  message: string,
) => void;

/** The warning of a firing whose session store could not be reached although its hooks keep state: every answer says it. */
export const STATE_UNREACHABLE = 'state-unreachable';

/** Nesting depth of peri-hooks processes, so that a hook that starts peri-hooks again cannot loop forever. */
export const DEPTH_VARIABLE = 'PERI_HOOKS_DEPTH';
export const MAX_DEPTH = 3;

/** Fire one event. `input` is the hook input as JSON text or as an object. Throws PeriHooksError for bad usage or input. */
export async function fire(
  eventName: string,
  input: string | Record<string, unknown>,
  options: FireOptions = {},
): Promise<FireReport> {
  const event = checkEvent(eventName);
  const started = nowMs();
  const startedAt = Date.now();
  const env = options.env ?? process.env;
  // OpenTelemetry is configured by the process environment, as every OpenTelemetry SDK is (src/audit/otel-config.ts).
  const hookStarts = otelConfigured(process.env) ? new Map<string, number>() : undefined;
  const depth = nestingDepth(env);
  const trace = options.trace;
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  const hookInput = await checkInput(event, text, options.inputSource);
  // The trace names the call and the reason, redacted as the audit log is (src/redact.ts): never a secret.
  const shown = trace ? (await import('./audit/entry.ts')).traced(env) : undefined;
  if (trace) {
    const call = shown!.call(hookInput);
    trace(
      'input',
      `${event}, ${Buffer.byteLength(text)} bytes from ${options.inputSource ?? 'stdin'}, session ${hookInput.session_id}, cwd ${hookInput.cwd}${call === '' ? '' : `, ${call}`}`,
    );
  }
  const resolved = sourcesToLoad(options, hookInput.cwd);
  const projectFiles = options.projectFiles?.(resolved.projectDir) ?? true;
  const sources = projectFiles ? resolved : withoutProjectFiles(resolved);
  const { home, projectDir } = sources;
  const loaded = await (options.load ?? loadSettings)({
    ...sources,
    ...(projectFiles ? {} : { projectFiles: false }),
    ...(options.mcpConfigs ? { mcpConfigs: options.mcpConfigs } : {}),
  });
  if (trace) {
    trace('sources', `project ${projectDir} (${PROJECT_DIR_RULES[sources.projectDirFrom]})`);
    for (const source of loaded.sources)
      trace(
        'sources',
        `${source.layer} ${source.file}: ${source.status}${source.status === 'loaded' ? `, ${counted(source.hooks, 'hook')}` : ''}`,
      );
  }
  const missing = namedSourceMissing(loaded.diagnostics);
  if (missing) throw new PeriHooksError('usage', missing.message, missing.fix);
  // The firing's time budget: what Claude Code gives a hook of this event by default. State updates wait for the lock until its end.
  const deadline = Date.now() + EVENTS[event].timeoutS * 1000;
  const eventHooks = loaded.hooks.filter((hook) => hook.event === event);
  let opened: Awaited<ReturnType<typeof openFiringSession>>;
  // A store that cannot be reached costs only the hooks that keep state: they run without it, the other hooks
  // still decide, and what is lost is said (and blocks under --fail-closed) as policy that did not load.
  let stateLost: string | undefined;
  try {
    opened = await openFiringSession(hookInput.session_id, {
      env,
      home,
      deadline,
      needed: needsSession(event, eventHooks, options.stopGuard ?? true),
      ...(options.noState ? { noState: true } : {}),
      ...(options.stateDir ? { stateDir: options.stateDir } : {}),
      ...(options.stateUrl ? { stateUrl: options.stateUrl } : {}),
    });
  } catch (error) {
    if (!(error instanceof PeriHooksError) || error.code !== 'state-unreachable') throw error;
    stateLost = `${error.message}; the hooks that keep session state run without it (once hooks are not remembered, async results are lost, Stop blocks are not counted)`;
    opened = { warnings: [] };
  }
  const alreadyRanOnce = onceAlreadyRan(opened.session, eventHooks);
  const trustWhy = trustRequired(options.requireTrust, env, loaded.settings);
  const trust =
    trustWhy &&
    eventHooks.some(
      (hook) =>
        hook.provenance.layer === 'project' || hook.provenance.layer === 'local' || hook.provenance.layer === 'flag',
    )
      ? await import('./trust/enforce.ts')
      : undefined;
  const guarded = await trust?.guardHooks(
    loaded.hooks,
    event,
    projectDir,
    { env, home, ...(options.stateDir ? { stateDir: options.stateDir } : {}) },
    trustWhy!,
  );
  const firstPlan = plan(event, hookInput, guarded?.hooks ?? loaded.hooks, {
    home,
    env,
    alreadyRanOnce,
    ...(options.sequential ? { sequential: true } : {}),
    ...(options.asyncHooks ? { asyncHooks: options.asyncHooks } : {}),
  });
  // Once hooks are claimed under the session lock; those another firing claimed first are planned out.
  const claims = await claimOnce(
    opened.session,
    firstPlan.run.map(({ hook }) => hook).filter((hook) => hook.handler.once),
    labelOf,
  );
  const unpinned = skipLostOnce(firstPlan, claims.lost);
  const untrusted = trust?.untrustedFindings(unpinned) ?? [];
  const pinning = guarded ? trust!.pinPlan(unpinned, guarded.trust) : undefined;
  const planned = pinning?.plan ?? unpinned;
  trace?.(
    'plan',
    `${planned.run.length} to run${planned.run.map(({ hook }) => `; ${quoted(hook)}`).join('')}${planned.skipped.length > 0 ? `; skipped: ${planned.skipped.map(({ hook, reason }) => `${quoted(hook)} (${reason})`).join(', ')}` : ''}`,
  );
  let executed: Awaited<ReturnType<typeof execute>>;
  try {
    executed = await execute(planned, {
      input: hookInput,
      projectDir,
      settings: loaded.settings,
      env: { ...env, [DEPTH_VARIABLE]: String(depth + 1) },
      claimedOnce: claims.claimed,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onHookStart || trace || hookStarts
        ? {
            onHookStart: (hook: LoadedHook, status: string) => {
              hookStarts?.set(`${hook.provenance.file}#${hook.provenance.pointer}`, Date.now());
              trace?.('hook', `start ${quoted(hook)}`);
              options.onHookStart?.(hook, status);
            },
          }
        : {}),
      ...(trace
        ? {
            onHookEnd: (hook: LoadedHook, raw: RawOutcome) =>
              trace('hook', `end ${quoted(hook)}: ${outcomeText(raw)} in ${Math.round(raw.durationMs)} ms`),
          }
        : {}),
      ...(opened.session ? { session: opened.session.ref } : {}),
      ...(options.selfCommand ? { selfCommand: options.selfCommand } : {}),
      ...(options.asyncHooks !== undefined && options.asyncHooks !== 'skip' ? { asyncHere: true } : {}),
      mcp: { servers: loaded.mcpServers, ...(options.mcpPool ? { pool: options.mcpPool } : {}) },
    });
  } finally {
    pinning?.cleanup();
  }
  const trustFindings = [
    ...untrusted,
    ...(guarded?.problem ? [{ severity: 'warning' as const, code: 'trust-unreadable', message: guarded.problem }] : []),
  ];
  const unenforced = [
    ...unenforcedLines(event, [...loaded.diagnostics, ...untrusted]),
    ...(stateLost ? [stateLost] : []),
  ];
  // Checked before the decision, so that under --fail-closed a required audit that cannot be written blocks.
  const audit = options.audit ? await import('./audit/firing.ts') : undefined;
  const auditProblem = options.audit ? audit!.unwritableAudit(options.audit) : undefined;
  if (auditProblem) unenforced.push(auditProblem);
  const reduced = reduce(event, reduceItems(executed.ran), {
    input: hookInput,
    unenforced,
    ...(options.failClosed ? { failClosed: true } : {}),
    ...(options.failClosedCause ? { failClosedCause: options.failClosedCause } : {}),
  });
  trace?.(
    'reduce',
    `${reduced.blocked ? 'blocks' : 'does not block'}${reduced.failClosed ? ' (fail-closed)' : ''}, decision ${shown!.decision(reduced)}${reduced.reason === undefined ? '' : `, reason ${shown!.text(reduced.reason)}`}; ${counted(reduced.errors.length, 'non-blocking error')}`,
  );
  const settled = await settle(
    opened.session,
    event,
    hookInput,
    reduced,
    executed.once,
    env,
    options.stopGuard ?? true,
  );
  trace?.('settle', opened.session ? `session state in ${opened.session.ref.dir}` : 'no session state');
  const report = buildReport({
    event,
    projectDir,
    projectDirFrom: sources.projectDirFrom,
    hooks: loaded.hooks,
    sources: loaded.sources,
    plan: planned,
    executed,
    settled,
    loadDiagnostics: [
      ...loaded.diagnostics,
      ...trustFindings,
      ...(stateLost ? [{ severity: 'warning' as const, code: STATE_UNREACHABLE, message: stateLost }] : []),
    ],
    sessionWarnings: [...opened.warnings, ...claims.warnings],
  });
  const firing = { report, input: hookInput, hooks: loaded.hooks, env, durationMs: nowMs() - started, time: isoTime() };
  if (options.audit) report.warnings.push(...(await audit!.auditFiring(options.audit, auditProblem, firing)));
  if (hookStarts) report.warnings.push(...(await exportSpans(firing, startedAt, hookStarts, options.oneShot === true)));
  return report;
}

const quoted = (hook: LoadedHook) => JSON.stringify(labelOf(hook));

/** The firing as OpenTelemetry spans: whatever goes wrong there is a warning, never a change of the decision. */
async function exportSpans(
  firing: AuditedFiring,
  start: number,
  hookStarts: ReadonlyMap<string, number>,
  oneShot: boolean,
): Promise<Diagnostic[]> {
  let problem: string | undefined;
  try {
    const [{ auditEntry }, { recordFiring }] = await Promise.all([
      import('./audit/entry.ts'),
      import('./audit/otel.ts'),
    ]);
    const entry = auditEntry(firing.report, firing.input, firing.hooks, firing.env, firing.durationMs, firing.time);
    problem = await recordFiring(entry, { start, end: Date.now(), hookStarts }, { env: process.env, oneShot });
  } catch (error) {
    problem = `the firing's OpenTelemetry spans were not recorded (${(error as Error).message})`;
  }
  return problem === undefined ? [] : [{ severity: 'warning', code: 'otel-export', message: problem }];
}

function outcomeText(raw: RawOutcome): string {
  if (raw.timedOut) return 'timed out';
  if (raw.error !== undefined) return `error: ${raw.error}`;
  return `exit ${raw.exitCode}`;
}

function withoutProjectFiles(sources: SourcesToLoad): SourcesToLoad {
  return {
    ...sources,
    settingSources: (sources.settingSources ?? ALL_SOURCES).filter(
      (source) => source !== 'project' && source !== 'local',
    ),
  };
}

/** The hooks need the session: once hooks, async ones, the Stop loop guard. Results of earlier async hooks can wait. */
function needsSession(event: EventName, hooks: readonly LoadedHook[], stopGuard: boolean): boolean {
  return (
    (stopGuard && EVENTS[event].stopLike !== undefined) ||
    hooks.some(
      ({ handler }) =>
        handler.once === true ||
        ('async' in handler && handler.async === true) ||
        ('asyncRewake' in handler && handler.asyncRewake === true),
    )
  );
}

function nestingDepth(env: Record<string, string | undefined>): number {
  const depth = Number(env[DEPTH_VARIABLE] ?? 0) || 0;
  if (depth >= MAX_DEPTH) {
    throw new PeriHooksError(
      'recursion',
      `peri-hooks is nested ${depth} levels deep (${DEPTH_VARIABLE}=${depth}): a hook starts peri-hooks, which starts the hook again`,
      'make sure the settings that peri-hooks runs do not register peri-hooks itself',
    );
  }
  return depth;
}
