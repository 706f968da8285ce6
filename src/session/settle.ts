// After the hooks ran and their results were reduced: the session's say in the final decision. One pure
// `decide` applies the Stop guard, settles this firing's once claims and picks the async results to deliver;
// `settle` runs it inside the firing's second (and last) lock section. A firing with no once hook, no Stop
// event, no Stop count to reset and nothing to deliver never takes the lock or writes.

import type { EventName } from '../events.ts';
import { isoTime } from '../platform/clock.ts';
import type { Reduced } from '../reduce.ts';
import { canDeliver, withDelivered } from './delivery.ts';
import { type OnceSettlement, settleOnce } from './once.ts';
import type { AsyncResult, SessionState } from './schema.ts';
import { emptyState } from './state.ts';
import { guardStop, resetGuardKey, type StopGuard, stopCap, stopGuardKey } from './stop-guard.ts';
import { type FiringSession, updateSession } from './store.ts';

/** The cap of a host that caps Stop loops itself (Claude Code). */
export const HOST_CAP = 'host';

export interface DecideContext {
  /** The hook input (SubagentStop counts per agent_id). */
  input: Record<string, unknown>;
  /** How this firing's claimed once hooks ended. */
  once: readonly OnceSettlement[];
  /** The Stop guard's cap; 0 means no cap; `host`: the host caps Stop loops itself, so peri-hooks neither counts nor overrides. */
  cap: number | typeof HOST_CAP;
  /** The process whose claims these are. */
  pid: number;
  /** The time stamp of once hooks settled as done. */
  now: string;
}

export interface Decision {
  /** The final decision: the Stop guard applied, delivered results added to the output. */
  reduced: Reduced;
  /** Stop and SubagentStop only. */
  guard?: StopGuard;
  delivered: AsyncResult[];
  /** The session state to write back. */
  state: SessionState;
}

/** The session's part of the decision, from the state as it is under the lock. Pure: `state` is not changed. */
export function decide(event: EventName, reduced: Reduced, state: SessionState, context: DecideContext): Decision {
  const { cap } = context;
  const key = stopGuardKey(event, context.input);
  const guarded =
    key === undefined || cap === HOST_CAP ? undefined : guardStop(event, reduced, state.stopBlocks[key] ?? 0, cap);
  const delivered = state.results.filter((result) => canDeliver(event, result));
  const final = guarded?.reduced ?? reduced;
  return {
    reduced: delivered.length > 0 ? { ...final, output: withDelivered(event, final.output, delivered) } : final,
    ...(guarded ? { guard: guarded.guard } : {}),
    delivered,
    state: {
      ...state,
      // This firing's counter counts; a firing of any other event resets its agent's.
      stopBlocks:
        cap === HOST_CAP
          ? state.stopBlocks
          : counted(state.stopBlocks, key ?? resetGuardKey(event, context.input)!, guarded?.guard.count ?? 0),
      once: settleOnce(state.once, context.once, context.pid, context.now),
      results: state.results.filter((result) => !canDeliver(event, result)),
    },
  };
}

/** The Stop counters with `key` at `count`; a count of 0 is no entry. */
function counted(stopBlocks: SessionState['stopBlocks'], key: string, count: number): SessionState['stopBlocks'] {
  const { [key]: _previous, ...others } = stopBlocks;
  return count === 0 ? others : { ...others, [key]: count };
}

export interface Settled {
  reduced: Reduced;
  guard?: StopGuard;
  delivered: AsyncResult[];
  warnings: string[];
}

/**
 * Decides under the session lock and writes the result; without a session (or the lock), as in a new session.
 * `stopGuard: false` leaves the Stop loop to a host that caps it itself (Claude Code).
 */
export async function settle(
  session: FiringSession | undefined,
  event: EventName,
  input: Record<string, unknown>,
  reduced: Reduced,
  once: readonly OnceSettlement[],
  env: Record<string, string | undefined>,
  stopGuard = true,
): Promise<Settled> {
  const { cap, invalid }: { cap: DecideContext['cap']; invalid?: string } = stopGuard
    ? stopCap(env)
    : { cap: HOST_CAP };
  const warnings = invalid ? [invalid] : [];
  const context = (): DecideContext => ({ input, once, cap, pid: process.pid, now: isoTime() });
  const asNew = (): Settled => {
    const { reduced: final, guard } = decide(event, reduced, emptyState(String(input.session_id ?? '')), context());
    return { reduced: final, ...(guard ? { guard } : {}), delivered: [], warnings };
  };
  const deliverable = session?.snapshot.results.some((result) => canDeliver(event, result)) ?? false;
  const counts =
    stopGuard &&
    (stopGuardKey(event, input) !== undefined ||
      session?.snapshot.stopBlocks[resetGuardKey(event, input)!] !== undefined);
  if (!session || (!counts && once.length === 0 && !deliverable)) return asNew();

  const update = await updateSession(
    session.ref,
    (state) => {
      const decision = decide(event, reduced, state, context());
      Object.assign(state, decision.state);
      return decision;
    },
    { deadline: session.deadline },
  );
  warnings.push(...update.warnings);
  if (!update.ok) return asNew();
  const { reduced: final, guard, delivered } = update.value;
  return { reduced: final, ...(guard ? { guard } : {}), delivered, warnings };
}
