// What a firing reads from and writes to its session: once claims, async results to deliver. Pure helpers;
// the store does the I/O.
import { EVENTS, type EventName } from '../events.ts';
import { identity } from '../plan.ts';
import type { LoadedHook } from '../types.ts';
import type { HookResult } from '../outcome.ts';
import { isAlive } from './lock.ts';
import type { AsyncResult, SessionState } from './schema.ts';
import { sha256Hex } from './crypto.ts';

/** A once hook is known by what it runs (its dedup identity), not by where it sits in a file. */
export function onceKey(hook: LoadedHook): string {
  return sha256Hex(identity(hook)).slice(0, 16);
}

/** Keys of once hooks that ran successfully, or that a live process is running now. */
export function onceTaken(state: SessionState): Set<string> {
  return new Set(Object.entries(state.once)
    .filter(([, entry]) => entry.status === 'done' || (entry.pid !== undefined && isAlive(entry.pid)))
    .map(([key]) => key));
}

/** A run that counts for `once`: the hook answered (a block is an answer); failures and timeouts do not. */
export function ranSuccessfully(result: HookResult): boolean {
  return result.outcome === 'success' || (result.outcome === 'blocking' && result.blockedBy !== 'onFailure');
}

/** Results this event can carry: messages always, additionalContext only where the event reads it. */
export function canDeliver(event: EventName, result: AsyncResult): boolean {
  const needsContext = result.additionalContext !== undefined || result.rewake !== undefined;
  return !needsContext || EVENTS[event].specificFields.includes('additionalContext');
}

/** Adds delivered async results to the firing's output: systemMessage lines, then additionalContext parts. */
export function withDelivered(event: EventName, output: Record<string, unknown> | undefined, results: readonly AsyncResult[]): Record<string, unknown> | undefined {
  if (results.length === 0) return output;
  const next: Record<string, unknown> = { ...output };
  const messages = results.flatMap((result) => (result.systemMessage !== undefined ? [result.systemMessage] : []));
  if (messages.length > 0) next.systemMessage = [...(typeof next.systemMessage === 'string' ? [next.systemMessage] : []), ...messages].join('\n');
  const contexts = results.flatMap((result) => [
    ...(result.rewake !== undefined ? [result.rewake] : []),
    ...(result.additionalContext !== undefined ? [result.additionalContext] : []),
  ]);
  if (contexts.length > 0) {
    const specific: Record<string, unknown> = { hookEventName: event, ...(next.hookSpecificOutput as Record<string, unknown> | undefined) };
    specific.additionalContext = [...(typeof specific.additionalContext === 'string' ? [specific.additionalContext] : []), ...contexts].join('\n\n');
    next.hookSpecificOutput = specific;
  }
  return next;
}

/** Claude Code's reminder for an asyncRewake hook that exited 2 (§10.3). */
export function rewakeMessage(label: string, stderr: string, stdout: string): string {
  const text = stderr.trim() || stdout.trim() || 'No stderr output';
  return `Stop hook blocking error from command "${label}": ${text}`;
}
