// `explain`: the plan of one firing without running anything. The same loader and the same plan() as fire,
// reported in the same per-hook shape as `fire --output json`, so the two can never disagree.
import { loadSettings } from './config/index.ts';
import type { ServerOrigin } from './config/mcp/origins.ts';
import { type ProjectDirFrom, type SourceOptions, sourcesToLoad } from './config/sources.ts';
import { PeriHooksError } from './errors.ts';
import { type EventName, isToolEvent } from './events.ts';
import { buildInput } from './input/build.ts';
import { plan } from './plan.ts';
import { describeHook, stateDiagnostic } from './report/build.ts';
import type { HookReport } from './report/types.ts';
import { onceAlreadyRan } from './session/once.ts';
import { openFiringSession } from './session/store.ts';
import { needsTrust, trustView } from './trust/check.ts';
import { trustRequired } from './trust/required.ts';
import type { Diagnostic } from './types.ts';

export interface ExplainOptions extends SourceOptions {
  /** Session state folder, read (never written) to show `once` hooks that already ran. */
  stateDir?: string;
  noState?: boolean;
  /** A Redis session store (`--state redis://…`), read instead of the folder. */
  stateUrl?: string;
  /** `--mcp-config` values, as fire takes them: where the servers of mcp_tool hooks are looked up. */
  mcpConfigs?: string[];
  /** As fire's: unapproved project and local hooks are planned out. */
  requireTrust?: boolean;
}

/** A hook as `fire --output json` reports it, before it runs. */
export interface ExplainedHook extends Omit<HookReport, 'status'> {
  status: 'would-run' | 'skipped';
  /** The time limit the hook would get. */
  timeoutMs?: number;
  /** Project and local hooks: their content against the approvals (`peri-hooks trust`). */
  trust?: ReturnType<typeof trustView>;
}

/** Why the trust state matters to this project: trust is required, or the project has approvals; else undefined. */
export type TrustInUse = 'required' | 'approvals' | undefined;

export interface ExplainReport {
  event: EventName;
  /** The value the matchers are tested against; absent when the event has no matcher or the input lacks it. */
  matcherValue?: string;
  projectDir: string;
  /** Which rule chose projectDir (see PROJECT_DIR_RULES). */
  projectDirFrom: ProjectDirFrom;
  /** Set when no source has any hook for the event: the places searched. */
  noHooksFound?: { searched: string[] };
  /** Every configured hook of the event, in configuration order. */
  hooks: ExplainedHook[];
  /** Ids of the hooks that would run, as chains: chains run in parallel, the hooks of one chain in order. */
  chains: string[][];
  /** The MCP servers the event's mcp_tool hooks name: where each is defined, or why it is not found. */
  mcpServers?: ServerOrigin[];
  warnings: Diagnostic[];
  /** Not in the JSON document: whether the human table shows trust states. */
  trustInUse?: TrustInUse;
}

export async function explain(
  event: EventName,
  input: Record<string, unknown>,
  options: ExplainOptions = {},
): Promise<ExplainReport> {
  const load = sourcesToLoad(options, String(input.cwd ?? process.cwd()));
  const loaded = await loadSettings({ ...load, ...(options.mcpConfigs ? { mcpConfigs: options.mcpConfigs } : {}) });
  // Explain only reads the session: it never waits for the lock.
  const opened = await openFiringSession(String(input.session_id ?? ''), {
    env: load.env,
    home: load.home,
    deadline: Date.now(),
    ...(options.noState ? { noState: true } : {}),
    ...(options.stateDir ? { stateDir: options.stateDir } : {}),
    ...(options.stateUrl ? { stateUrl: options.stateUrl } : {}),
  });
  const alreadyRanOnce = onceAlreadyRan(
    opened.session,
    loaded.hooks.filter((hook) => hook.event === event),
  );
  const own = loaded.hooks.filter((hook) => hook.event === event);
  const place = { env: load.env, home: load.home, ...(options.stateDir ? { stateDir: options.stateDir } : {}) };
  const trust = own.some((hook) => needsTrust(hook, load.projectDir)) ? await import('./trust/enforce.ts') : undefined;
  const trustWhy = trustRequired(options.requireTrust, load.env, loaded.settings);
  const guarded =
    trust && trustWhy ? await trust.guardHooks(loaded.hooks, event, load.projectDir, place, trustWhy) : undefined;
  const known = guarded ? undefined : await trust?.trustStates(own, load.projectDir, place);
  const states = guarded?.trust ?? known?.states ?? new Map();
  const thePlan = plan(event, input, guarded?.hooks ?? loaded.hooks, {
    home: load.home,
    env: load.env,
    alreadyRanOnce,
  });
  const run = new Map(thePlan.run.map((entry) => [entry.hook.id, entry]));
  const skipped = new Map(thePlan.skipped.map((entry) => [entry.hook.id, entry]));
  const hooks = loaded.hooks
    .filter((hook) => hook.event === event)
    .map((hook): ExplainedHook => {
      const planned = run.get(hook.id);
      const state = states.get(hook.id);
      const described = { ...describeHook(hook), ...(state ? { trust: trustView(state) } : {}) };
      if (planned) return { ...described, status: 'would-run', timeoutMs: planned.timeoutMs };
      const skip = skipped.get(hook.id)!;
      return { ...described, status: 'skipped', skipReason: skip.reason, skipDetail: skip.detail };
    });
  const servers = loaded.hooks.flatMap((hook) =>
    hook.event === event && hook.handler.type === 'mcp_tool' ? [hook.handler.server] : [],
  );
  // The MCP configuration is read only when the event has mcp_tool hooks.
  const mcpServers =
    servers.length > 0
      ? (await import('./config/mcp/origins.ts')).serverOrigins(servers, await loaded.mcpServers())
      : undefined;
  return {
    event,
    ...(thePlan.matcherValue !== undefined ? { matcherValue: thePlan.matcherValue } : {}),
    projectDir: load.projectDir,
    projectDirFrom: load.projectDirFrom,
    ...(hooks.length === 0 ? { noHooksFound: { searched: loaded.sources.map((source) => source.file) } } : {}),
    hooks,
    chains: thePlan.chains.map((chain) => chain.map(({ hook }) => hook.id)),
    ...(mcpServers ? { mcpServers } : {}),
    ...(trustWhy ? { trustInUse: 'required' as const } : known?.approvals ? { trustInUse: 'approvals' as const } : {}),
    warnings: [...loaded.diagnostics, ...opened.warnings.map(stateDiagnostic), ...thePlan.warnings],
  };
}

/**
 * A hook input built from a tool name and its input, with common fields that are plausible but plainly
 * synthetic: enough to plan a firing (plan reads only the matcher field, the tool call and cwd).
 */
export function syntheticInput(
  event: EventName,
  cwd: string,
  tool?: { name: string; input: Record<string, unknown> },
): Record<string, unknown> {
  if (tool && !isToolEvent(event)) {
    throw new PeriHooksError(
      'usage',
      `--tool applies to tool events only, not ${event}`,
      `pipe a ${event} input on stdin instead`,
    );
  }
  if (!tool && isToolEvent(event)) {
    throw new PeriHooksError(
      'usage',
      `${event} needs a tool call to explain`,
      `give --tool <name> [--tool-input '{...}'], or pipe a ${event} input on stdin`,
    );
  }
  return buildInput({
    event,
    sessionId: 'peri-hooks-explain',
    transcriptPath: '',
    cwd,
    permissionMode: 'default',
    ...(tool ? { tool: { ...tool, useId: 'toolu_peri_hooks_explain' } } : {}),
  });
}
