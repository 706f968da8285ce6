// The session as one firing sees it: one read at the start, and at most two short lock sections (claiming
// `once` hooks before they run; counting Stop blocks, settling claims and taking async results after).
// A firing with no once hook, no Stop event and nothing to deliver never takes the lock or writes.
import type { EventName } from '../events.ts';
import type { Reduced } from '../reduce.ts';
import { guardStop, stopCap, stopGuardKey, type StopGuard } from './stop-guard.ts';
import type { LoadedHook } from '../types.ts';
import type { AsyncResult, SessionState } from './schema.ts';
import { canDeliver, onceKey, onceTaken } from './session.ts';
import { readSession, resolveStateDir, updateSession, type SessionRef } from './store.ts';

export interface FiringSession {
  ref: SessionRef;
  /** The state as read when the firing began. */
  snapshot: SessionState;
  /** Epoch ms: the end of the firing's time budget, until which its lock sections wait for the lock. */
  deadline: number;
}

export interface StateOptions {
  noState?: boolean;
  stateDir?: string;
  env: Record<string, string | undefined>;
  home: string;
  /** Epoch ms: the end of the firing's time budget. */
  deadline: number;
}

/** The one read of the session file; undefined with --no-state. */
export function openSession(sessionId: string, options: StateOptions): { session?: FiringSession; warnings: string[] } {
  if (options.noState) return { warnings: [] };
  const ref = { dir: resolveStateDir(options.env, options.home, options.stateDir), sessionId };
  const read = readSession(ref);
  return { session: { ref, snapshot: read.state, deadline: options.deadline }, warnings: read.warning ? [read.warning] : [] };
}

/** Ids of the once hooks among `hooks` that the session has seen run (or sees running). */
export function onceAlreadyRan(session: FiringSession | undefined, hooks: readonly LoadedHook[]): Set<string> {
  if (!session || Object.keys(session.snapshot.once).length === 0) return new Set();
  const taken = onceTaken(session.snapshot);
  return new Set(hooks.filter((hook) => hook.handler.once && taken.has(onceKey(hook))).map((hook) => hook.id));
}

/**
 * Claims the once hooks about to run, under the lock, so that of concurrent firings exactly one runs each.
 * Returns the ids this firing claimed and the ids another firing got first. Without the lock the hooks run
 * as in a new session, unclaimed.
 */
export async function claimOnce(session: FiringSession | undefined, hooks: readonly LoadedHook[], label: (hook: LoadedHook) => string): Promise<{ claimed: Set<string>; lost: Set<string>; warnings: string[] }> {
  const claimed = new Set<string>();
  const lost = new Set<string>();
  if (!session || hooks.length === 0) return { claimed, lost, warnings: [] };
  const update = await updateSession(session.ref, (state) => {
    const taken = onceTaken(state);
    for (const hook of hooks) {
      const key = onceKey(hook);
      if (taken.has(key)) {
        lost.add(hook.id);
        continue;
      }
      state.once[key] = { status: 'running', pid: process.pid, label: label(hook), at: new Date().toISOString() };
      taken.add(key);
      claimed.add(hook.id);
    }
  }, { deadline: session.deadline });
  if (!update.ok) {
    claimed.clear();
    lost.clear();
  }
  return { claimed, lost, warnings: update.warnings };
}

/** How each claimed once hook ended: it ran (successfully or not), or a supervisor now runs it. */
export type OnceSettlement = { hook: LoadedHook; success: boolean } | { hook: LoadedHook; supervisorPid: number };

export interface Settled {
  reduced: Reduced;
  guard?: StopGuard;
  delivered: AsyncResult[];
  warnings: string[];
}

/** After the hooks: the Stop guard, the once claims, the async results this firing delivers. */
export async function settle(session: FiringSession | undefined, event: EventName, input: Record<string, unknown>, reduced: Reduced, once: readonly OnceSettlement[], env: Record<string, string | undefined>): Promise<Settled> {
  const key = stopGuardKey(event, input);
  const { cap, invalid } = stopCap(env);
  const warnings = invalid ? [invalid] : [];
  const deliverable = session?.snapshot.results.some((result) => canDeliver(event, result)) ?? false;
  const asNew = (): Settled => {
    const guarded = key ? guardStop(event, reduced, 0, cap) : undefined;
    return { reduced: guarded?.reduced ?? reduced, ...(guarded ? { guard: guarded.guard } : {}), delivered: [], warnings };
  };
  if (!session || (!key && once.length === 0 && !deliverable)) return asNew();

  const update = await updateSession(session.ref, (state) => {
    let guarded: ReturnType<typeof guardStop> | undefined;
    if (key) {
      guarded = guardStop(event, reduced, state.stopBlocks[key] ?? 0, cap);
      if (guarded.guard.count === 0) delete state.stopBlocks[key];
      else state.stopBlocks[key] = guarded.guard.count;
    }
    for (const entry of once) {
      const onceId = onceKey(entry.hook);
      const claim = state.once[onceId];
      // Only our own claim: a supervisor may already have settled it, or another process broke our lock.
      if (claim?.status !== 'running' || claim.pid !== process.pid) continue;
      if ('supervisorPid' in entry) claim.pid = entry.supervisorPid;
      else if (entry.success) state.once[onceId] = { status: 'done', label: claim.label, at: new Date().toISOString() };
      else delete state.once[onceId];
    }
    const delivered = state.results.filter((result) => canDeliver(event, result));
    state.results = state.results.filter((result) => !canDeliver(event, result));
    return { guarded, delivered };
  }, { deadline: session.deadline });
  warnings.push(...update.warnings);
  if (!update.ok) return asNew();
  const { guarded, delivered } = update.value;
  return { reduced: guarded?.reduced ?? reduced, ...(guarded ? { guard: guarded.guard } : {}), delivered, warnings };
}
