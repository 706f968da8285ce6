// The Stop/SubagentStop loop guard (spec §10.2). Pure: the count comes in from the session state and the
// new count goes out. A continuation is a block (decision "block", exit 2) or, on Stop, additionalContext;
// the one that would make the count exceed the cap is overridden, and the stop goes ahead. Like Claude Code's
// count, it starts again when the agent does something else between two stops (a tool call): any other
// firing of the agent resets its counter.
import { EVENTS, type EventName } from '../events.ts';
import type { Reduced } from '../reduce.ts';

export const CAP_VARIABLE = 'CLAUDE_CODE_STOP_HOOK_BLOCK_CAP';
export const DEFAULT_CAP = 8;

export interface StopGuard {
  /** The consecutive continuations, this firing included (0 once the stop goes ahead). */
  count: number;
  cap: number;
  overridden: boolean;
  /** Why the block was overridden. */
  message?: string;
}

/** The events the guard counts, and the key of the counter in the session: per agent for SubagentStop. */
export function stopGuardKey(event: EventName, input: Record<string, unknown>): string | undefined {
  const stopLike = EVENTS[event].stopLike;
  if (!stopLike) return undefined;
  return stopLike.guardCounter === 'main' ? MAIN_COUNTER : agentCounter(input.agent_id);
}

/** The counter that a firing of any other event resets: its agent's (inputs from inside a subagent carry agent_id). */
export function resetGuardKey(event: EventName, input: Record<string, unknown>): string | undefined {
  if (EVENTS[event].stopLike) return undefined;
  return input.agent_id === undefined ? MAIN_COUNTER : agentCounter(input.agent_id);
}

const MAIN_COUNTER = 'main';
const agentCounter = (agentId: unknown) => `agent:${String(agentId ?? '')}`;

/** The cap from the environment; 0 means no cap. A value that is not a whole number keeps the default. */
export function stopCap(env: Record<string, string | undefined>): { cap: number; invalid?: string } {
  const raw = env[CAP_VARIABLE];
  if (raw === undefined || raw.trim() === '') return { cap: DEFAULT_CAP };
  const cap = Number(raw);
  if (!Number.isInteger(cap) || cap < 0)
    return {
      cap: DEFAULT_CAP,
      invalid: `${CAP_VARIABLE}=${JSON.stringify(raw)} is not a whole number >= 0; the cap stays ${DEFAULT_CAP}`,
    };
  return { cap };
}

export function isContinuation(reduced: Reduced): boolean {
  // continue: false ends the turn whatever else the hooks said.
  if (reduced.output?.continue === false) return false;
  if (reduced.blocked) return true;
  const specific = reduced.output?.hookSpecificOutput as Record<string, unknown> | undefined;
  return typeof specific?.additionalContext === 'string' && specific.additionalContext !== '';
}

/** Applies the guard to a reduced Stop/SubagentStop decision, given the count before this firing. */
export function guardStop(
  event: EventName,
  reduced: Reduced,
  previous: number,
  cap: number,
): { reduced: Reduced; guard: StopGuard } {
  if (!isContinuation(reduced)) return { reduced, guard: { count: 0, cap, overridden: false } };
  const count = previous + 1;
  if (cap === 0 || count <= cap) return { reduced, guard: { count, cap, overridden: false } };
  const message = `A hook blocked the ${EVENTS[event].stopLike?.ends ?? 'turn'} from ending ${count} consecutive times; ${CAP_VARIABLE} is ${cap}, so peri-hooks overrides the hook and lets it stop`;
  const { decision: _decision, reason: _reason, hookSpecificOutput: _specific, ...rest } = reduced.output ?? {};
  const systemMessage = typeof rest.systemMessage === 'string' ? `${rest.systemMessage}\n${message}` : message;
  const { reason: _blockReason, ...base } = reduced;
  const overridden: Reduced = { ...base, blocked: false, deciders: [], output: { ...rest, systemMessage } };
  return { reduced: overridden, guard: { count: 0, cap, overridden: true, message } };
}
