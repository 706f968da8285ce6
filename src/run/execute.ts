// The run stage: a plan -> what ran, as data. The plan's chains run in parallel, each chain in order (in a
// sequential group each hook sees the input as the ones before rewrote it, and a block ends the group);
// async hooks go to a detached supervisor. Results come back in configuration order, whatever order the
// hooks finished in.
import { homedir } from 'node:os';
import type { Readable } from 'node:stream';
import { mcpServersOf } from '../config/index.ts';
import { deniedPermissionFlag, permissionError } from '../errors.ts';
import { EVENTS, type EventName } from '../events.ts';
import { labelOf } from '../hook-label.ts';
import type { HookInput } from '../input/parse.ts';
import type { McpSetup } from '../mcp/firing.ts';
import type { HookResult } from '../outcome.ts';
import { asyncKind, type Plan, type PlannedHook } from '../plan.ts';
import { type ReduceItem, reduce } from '../reduce.ts';
import { runHook } from '../runners/index.ts';
import { type OnceSettlement, onceKey, ranSuccessfully } from '../session/once.ts';
import type { SessionRef } from '../session/store.ts';
import type { Diagnostic, EffectiveSettings, LoadedHook, McpContext, RawOutcome, Runner } from '../types.ts';
import type { AsyncJob } from './background.ts';

export interface ExecuteOptions {
  input: HookInput;
  projectDir: string;
  settings: EffectiveSettings;
  /** The environment the hooks get. */
  env: Record<string, string | undefined>;
  /** Aborted when peri-hooks itself is interrupted. */
  signal?: AbortSignal;
  /** Called as each hook starts, with its statusMessage (or its command, URL or prompt). */
  onHookStart?: (hook: LoadedHook, status: string) => void;
  /** Called as each hook that ran here ends, with what it did. */
  onHookEnd?: (hook: LoadedHook, raw: RawOutcome) => void;
  /** Ids of the once hooks this firing claimed: how each ends comes back as a settlement. */
  claimedOnce?: ReadonlySet<string>;
  /** Where async hooks store their results; absent with --no-state. */
  session?: SessionRef;
  /** How to start peri-hooks itself (argv), for the supervisor of async hooks. */
  selfCommand?: readonly string[];
  /** Run async hooks here and wait for them (`--only-async`): Claude Code runs this whole firing in the background. */
  asyncHere?: boolean;
  /**
   * The load's MCP servers for mcp_tool hooks (and, under serve, a pool that outlives the firing); without it
   * (an embedder's call) they are looked up for projectDir as Claude Code would find them.
   */
  mcp?: McpSetup;
  /** Runs one hook; default the runner of its type. The stage's tests pass a scripted one. */
  runner?: Runner;
}

export interface RanHook {
  hook: LoadedHook;
  raw: RawOutcome;
  result: HookResult;
}

export interface Executed {
  /** The hooks that ran in this firing, in configuration order. */
  ran: RanHook[];
  /** The hooks handed to a supervisor, with the job whose result a later firing delivers. */
  background: Array<{ hook: LoadedHook; jobId: string }>;
  /** The hooks a block earlier in their sequential group stopped, with why. */
  shortCircuited: Array<{ hook: LoadedHook; detail: string }>;
  /** How each claimed once hook ended. */
  once: OnceSettlement[];
  /** What the runners had to say about the hooks (a missing cwd, ...), in configuration order. */
  warnings: Diagnostic[];
}

/** One hook's run: it ran here, or a supervisor runs it now. */
type HookRun = (
  | ({ kind: 'ran' } & RanHook)
  | { kind: 'background'; hook: LoadedHook; jobId: string; supervisorPid: number }
) & { warnings: string[] };

interface ChainRun {
  runs: HookRun[];
  shortCircuited: Executed['shortCircuited'];
}

export async function execute(plan: Plan, options: ExecuteOptions): Promise<Executed> {
  // The MCP client is loaded only when an mcp_tool hook is about to run (start-up budget).
  const mcp =
    plan.run.some(({ hook }) => hook.handler.type === 'mcp_tool') && !EVENTS[plan.event].noMcpClient
      ? (await import('../mcp/firing.ts')).mcpForFiring(
          options.mcp ?? {
            servers: mcpServersOf({
              projectDir: options.projectDir,
              home: options.env.HOME ?? homedir(),
              env: options.env,
            }),
          },
        )
      : undefined;
  let chains: ChainRun[];
  try {
    chains = await Promise.all(
      plan.chains.map((chain) => runChain(plan.event, chain, mcp ? { ...options, mcpContext: mcp.context } : options)),
    );
  } finally {
    await mcp?.close();
  }
  const byId = new Map(chains.flatMap(({ runs }) => runs).map((run) => [run.hook.id, run]));
  const runs = plan.run.flatMap(({ hook }) => byId.get(hook.id) ?? []);
  const shortCircuited = chains.flatMap((chain) => chain.shortCircuited);
  const ran = runs.flatMap((run) => (run.kind === 'ran' ? [{ hook: run.hook, raw: run.raw, result: run.result }] : []));
  // A runtime that refused to run a hook (Deno without --allow-run) is a runner error, never a silent allow.
  for (const { hook, raw } of ran) {
    const flag = deniedPermissionFlag(raw.error);
    if (flag) throw permissionError(`to run the hook ${labelOf(hook)} (${raw.error})`, flag);
  }
  const claimed = (hook: LoadedHook) => options.claimedOnce?.has(hook.id) === true;
  return {
    ran,
    background: runs.flatMap((run) => (run.kind === 'background' ? [{ hook: run.hook, jobId: run.jobId }] : [])),
    shortCircuited,
    once: [
      ...runs
        .filter(({ hook }) => claimed(hook))
        .map(
          (run): OnceSettlement =>
            run.kind === 'ran'
              ? { hook: run.hook, success: ranSuccessfully(run.result) }
              : { hook: run.hook, supervisorPid: run.supervisorPid },
        ),
      ...shortCircuited.filter(({ hook }) => claimed(hook)).map(({ hook }) => ({ hook, success: false })),
    ],
    warnings: runs.flatMap(({ hook, warnings }) =>
      warnings.map(
        (message): Diagnostic => ({
          severity: 'warning',
          code: 'hook-runtime',
          message: `[${labelOf(hook)}]: ${message}`,
          file: hook.provenance.file,
          pointer: hook.provenance.pointer,
        }),
      ),
    ),
  };
}

/** The reducer's view of what ran. */
export function reduceItems(ran: readonly RanHook[]): ReduceItem[] {
  return ran.map(({ hook, raw, result }) => ({
    result,
    label: labelOf(hook),
    layer: hook.provenance.layer,
    exitCode: raw.exitCode,
    stdout: raw.stdout,
  }));
}

/** A chain in order: each hook sees the input as the ones before rewrote it; a block ends the chain. */
type ChainOptions = ExecuteOptions & { mcpContext?: McpContext };

async function runChain(event: EventName, chain: readonly PlannedHook[], options: ChainOptions): Promise<ChainRun> {
  const runs: HookRun[] = [];
  let current = options.input;
  for (const [index, planned] of chain.entries()) {
    const run = await runOne(event, planned, current, options);
    runs.push(run);
    // The last hook of a chain stops nothing and rewrites for no one: no reduction of its own (most chains are one hook).
    if (run.kind !== 'ran' || index === chain.length - 1) continue;
    if (blocksAlone(event, run, current)) {
      const detail = `short-circuit: ${labelOf(planned.hook)} blocked earlier in the sequential group`;
      return { runs, shortCircuited: chain.slice(index + 1).map(({ hook }) => ({ hook, detail })) };
    }
    const updated = rewrittenInput(run.result);
    if (updated) current = { ...current, tool_input: updated };
  }
  return { runs, shortCircuited: [] };
}

/** Each input is serialised once, whatever the number of hooks it goes to (a 10 MB input x 200 hooks). */
const serializations = new WeakMap<HookInput, string>();
function serialized(input: HookInput): string {
  let json = serializations.get(input);
  if (json === undefined) {
    json = JSON.stringify(input);
    serializations.set(input, json);
  }
  return json;
}

async function runOne(
  event: EventName,
  { hook, timeoutMs }: PlannedHook,
  input: HookInput,
  options: ChainOptions,
): Promise<HookRun> {
  const { handler } = hook;
  const label = labelOf(hook);
  options.onHookStart?.(hook, handler.statusMessage ?? label);
  const inputJson = serialized(input);
  const warnings: string[] = [];
  const judge = async (raw: RawOutcome): Promise<HookRun> => {
    options.onHookEnd?.(hook, raw);
    if (raw.stdout.trimStart().startsWith('{'))
      warnings.push(...(await import('../output/fields.ts')).misplacedOutputFields(event, raw.stdout));
    return {
      kind: 'ran',
      hook,
      raw,
      result: await (await import('../outcome.ts')).classifyOutcome(raw, {
        event,
        handler,
        label,
        fromPlugin: hook.provenance.layer === 'plugin',
      }),
      warnings,
    };
  };
  // Loaded with the first command hook (which loads child_process anyway): the hand-off must be synchronous.
  const background = handler.type === 'command' ? await import('./background.ts') : undefined;
  const handOff = (job: DistributiveOmit<AsyncJob, 'jobId' | 'session' | 'onceKey'>, pipes?: [Readable, Readable]) =>
    toSupervisor(background!, job, options, pipes);

  if (asyncKind(handler) && !options.asyncHere) {
    const started = handOff({
      kind: 'run',
      hook,
      event,
      label,
      timeoutMs,
      input,
      inputJson,
      projectDir: options.projectDir,
      cwd: input.cwd,
      settings: options.settings,
    });
    if ('error' in started)
      return judge({ exitCode: null, stdout: '', stderr: '', timedOut: false, error: started.error, durationMs: 0 });
    return { kind: 'background', hook, ...started, warnings };
  }
  let handedOff: { jobId: string; supervisorPid: number } | undefined;
  const raw = await (options.runner ?? runHook)(hook, {
    event,
    input,
    inputJson,
    projectDir: options.projectDir,
    cwd: input.cwd,
    env: options.env,
    timeoutMs,
    settings: options.settings,
    signal: options.signal ?? new AbortController().signal,
    warn: (message) => warnings.push(message),
    ...(options.mcpContext ? { mcp: options.mcpContext } : {}),
    moveToBackground: (handoff) => {
      const started = handOff(
        {
          kind: 'adopt',
          hook,
          event,
          label,
          timeoutMs: handoff.asyncTimeoutMs,
          pid: handoff.pid,
          stdoutSoFar: handoff.stdoutSoFar,
          stderrSoFar: handoff.stderrSoFar,
        },
        [handoff.stdout, handoff.stderr],
      );
      if ('error' in started) return false;
      handedOff = started;
      return true;
    },
  });
  if (raw.background && handedOff) return { kind: 'background', hook, ...handedOff, warnings };
  return judge(raw);
}

/** Hands a hook to a detached supervisor; the pipes of a hook that printed `{"async": true}` go with it. */
function toSupervisor(
  background: typeof import('./background.ts'),
  job: DistributiveOmit<AsyncJob, 'jobId' | 'session' | 'onceKey'>,
  options: ExecuteOptions,
  pipes?: [Readable, Readable],
): { jobId: string; supervisorPid: number } | { error: string } {
  if (!options.selfCommand)
    return { error: 'async hooks need FireOptions.selfCommand (how to start peri-hooks) when peri-hooks is embedded' };
  const jobId = background.newJobId();
  const claimed = options.claimedOnce?.has(job.hook.id) === true;
  const full = {
    ...job,
    jobId,
    ...(options.session ? { session: options.session } : {}),
    ...(claimed ? { onceKey: onceKey(job.hook) } : {}),
  } as AsyncJob;
  const started = background.startSupervisor(full, options.selfCommand, options.env, pipes);
  return 'error' in started ? started : { jobId, supervisorPid: started.pid };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Whether one result, alone, blocks the event: what stops a sequential group. WorktreeCreate takes the first success. */
function blocksAlone(event: EventName, run: RanHook, input: HookInput): boolean {
  if (EVENTS[event].family === 'worktree') return false;
  return reduce(event, reduceItems([run]), { input }).blocked;
}

/** The tool input a hook rewrote, where the rewrite is honoured (with allow, ask or no decision, §12). */
function rewrittenInput(result: HookResult): Record<string, unknown> | undefined {
  const updated = result.specific?.updatedInput as Record<string, unknown> | undefined;
  if (!updated || result.outcome === 'blocking' || result.permission === 'deny' || result.permission === 'defer')
    return undefined;
  return updated;
}
