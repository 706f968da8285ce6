// `once` hooks (spec §9.3): known by what they run, claimed under the session lock before they run, so that
// of concurrent firings exactly one runs each, and settled after: done, released, or handed to a supervisor.
import { hostname } from 'node:os';
import type { HookResult } from '../outcome.ts';
import { identity } from '../plan.ts';
import { isoTime } from '../platform/clock.ts';
import { sha256Hex } from '../platform/hash.ts';
import type { LoadedHook } from '../types.ts';
import { isAlive } from './lock.ts';
import type { SessionState } from './schema.ts';
import { type FiringSession, updateSession } from './store.ts';

/** A once hook is known by what it runs (its dedup identity), not by where it sits in a file. */
export function onceKey(hook: LoadedHook): string {
  return sha256Hex(identity(hook)).slice(0, 16);
}

/** Keys of once hooks that ran successfully, or that a live process (or one on another machine) is running now. */
export function onceTaken(state: SessionState): Set<string> {
  const here = hostname();
  return new Set(
    Object.entries(state.once)
      .filter(
        ([, entry]) =>
          entry.status === 'done' ||
          (entry.pid !== undefined && ((entry.host !== undefined && entry.host !== here) || isAlive(entry.pid))),
      )
      .map(([key]) => key),
  );
}

/** A run that counts for `once`: the hook answered (a block is an answer); failures and timeouts do not. */
export function ranSuccessfully(result: HookResult): boolean {
  return result.outcome === 'success' || (result.outcome === 'blocking' && result.blockedBy !== 'onFailure');
}

/** Ids of the once hooks among `hooks` that the session has seen run (or sees running). */
export function onceAlreadyRan(session: FiringSession | undefined, hooks: readonly LoadedHook[]): Set<string> {
  if (!session || Object.keys(session.snapshot.once).length === 0) return new Set();
  const taken = onceTaken(session.snapshot);
  return new Set(hooks.filter((hook) => hook.handler.once && taken.has(onceKey(hook))).map((hook) => hook.id));
}

export interface OnceClaims {
  /** Ids of the hooks this firing claimed: it runs them and settles them. */
  claimed: ReadonlySet<string>;
  /** Ids of the hooks another firing got first: this one does not run them. */
  lost: ReadonlySet<string>;
  warnings: string[];
}

/**
 * The first lock section of a firing: claims the once hooks about to run. Without the lock the hooks run as
 * in a new session, unclaimed.
 */
export async function claimOnce(
  session: FiringSession | undefined,
  hooks: readonly LoadedHook[],
  label: (hook: LoadedHook) => string,
): Promise<OnceClaims> {
  if (!session || hooks.length === 0) return { claimed: new Set(), lost: new Set(), warnings: [] };
  const update = await updateSession(
    session.ref,
    (state) => {
      const claimed = new Set<string>();
      const lost = new Set<string>();
      const taken = onceTaken(state);
      for (const hook of hooks) {
        const key = onceKey(hook);
        if (taken.has(key)) {
          lost.add(hook.id);
          continue;
        }
        state.once[key] = { status: 'running', pid: process.pid, host: hostname(), label: label(hook), at: isoTime() };
        taken.add(key);
        claimed.add(hook.id);
      }
      return { claimed, lost };
    },
    { deadline: session.deadline },
  );
  if (!update.ok) return { claimed: new Set(), lost: new Set(), warnings: update.warnings };
  return { ...update.value, warnings: update.warnings };
}

/** How each claimed once hook ended: it ran (successfully or not), or a supervisor now runs it. */
export type OnceSettlement = { hook: LoadedHook; success: boolean } | { hook: LoadedHook; supervisorPid: number };

/**
 * The once entries after this firing settled its claims. Only claims `pid` still holds are touched: a
 * supervisor may already have settled one, or another process broken our lock. Pure.
 */
export function settleOnce(
  entries: SessionState['once'],
  settlements: readonly OnceSettlement[],
  pid: number,
  now: string,
): SessionState['once'] {
  const next = { ...entries };
  for (const settlement of settlements) {
    const key = onceKey(settlement.hook);
    const claim = next[key];
    if (claim?.status !== 'running' || claim.pid !== pid) continue;
    if ('supervisorPid' in settlement) next[key] = { ...claim, pid: settlement.supervisorPid };
    else if (settlement.success) next[key] = { status: 'done', label: claim.label, at: now };
    else delete next[key];
  }
  return next;
}
