// A model's verdict as the raw outcome a command hook would have produced (§5.5, §5.6), so that one parser
// downstream judges every hook type: exit 2 + stderr blocks, `continue: false` on stdout ends the turn.
import { EVENTS, type EventName } from '../events.ts';
import type { Verdict } from '../llm/answer.ts';
import type { RawOutcome } from '../types.ts';

/** A raw outcome before its duration is known; the http runner builds its outcomes from these helpers too. */
export type Outcome = Omit<RawOutcome, 'durationMs'>;

export const PASS: Outcome = { exitCode: 0, stdout: '', stderr: '', timedOut: false };

export interface BlockStyle {
  /** stderr of a block, built from the reason. */
  message: (reason: string) => string;
  continueOnBlock: boolean;
}

export function verdictOutcome(event: EventName, verdict: Verdict, style: BlockStyle): Outcome {
  if (verdict.ok) return PASS;
  const reason = verdict.reason?.trim() || '(no reason given)';
  const onBlock = EVENTS[event].modelVerdictOnBlock;
  if (onBlock === 'keepWorking')
    return verdict.impossible === true ? PASS : { ...PASS, exitCode: 2, stderr: style.message(reason) };
  if (onBlock === 'noEffect') return PASS;
  const endTurn = onBlock === 'endTurn' || (onBlock !== 'feedback' && !style.continueOnBlock);
  return {
    ...PASS,
    exitCode: 2,
    stderr: style.message(reason),
    stdout: endTurn ? JSON.stringify({ continue: false, stopReason: reason }) : '',
  };
}

/** A non-blocking error (or a block under --fail-closed): unparsable answer, API error. */
export function errorOutcome(error: string): Outcome {
  return { exitCode: null, stdout: '', stderr: '', timedOut: false, error };
}

/** Cancelled, no decision: timeout, interruption, or an agent that never answered. */
export function cancelledOutcome(why?: string): Outcome {
  const outcome: Outcome = { exitCode: null, stdout: '', stderr: '', timedOut: true };
  if (why !== undefined) outcome.error = why;
  return outcome;
}
