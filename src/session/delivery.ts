// Async results a later firing of the session delivers (spec §10.3): which events can carry them, and how
// they join the firing's output. Pure.
import { EVENTS, type EventName } from '../events.ts';
import type { AsyncResult } from './schema.ts';

/** Results this event can carry: messages always, additionalContext only where the event reads it. */
export function canDeliver(event: EventName, result: AsyncResult): boolean {
  const needsContext = result.additionalContext !== undefined || result.rewake !== undefined;
  return !needsContext || EVENTS[event].specificFields.includes('additionalContext');
}

/** Adds delivered async results to the firing's output: systemMessage lines, then additionalContext parts. */
export function withDelivered(
  event: EventName,
  output: Record<string, unknown> | undefined,
  results: readonly AsyncResult[],
): Record<string, unknown> | undefined {
  if (results.length === 0) return output;
  const next: Record<string, unknown> = { ...output };
  const messages = results.flatMap((result) => (result.systemMessage !== undefined ? [result.systemMessage] : []));
  if (messages.length > 0)
    next.systemMessage = [...(typeof next.systemMessage === 'string' ? [next.systemMessage] : []), ...messages].join(
      '\n',
    );
  const contexts = results.flatMap((result) => [
    ...(result.rewake !== undefined ? [result.rewake] : []),
    ...(result.additionalContext !== undefined ? [result.additionalContext] : []),
  ]);
  if (contexts.length > 0) {
    const specific: Record<string, unknown> = {
      hookEventName: event,
      ...(next.hookSpecificOutput as Record<string, unknown> | undefined),
    };
    specific.additionalContext = [
      ...(typeof specific.additionalContext === 'string' ? [specific.additionalContext] : []),
      ...contexts,
    ].join('\n\n');
    next.hookSpecificOutput = specific;
  }
  return next;
}

/** Claude Code's reminder for an asyncRewake hook that exited 2 (§10.3). */
export function rewakeMessage(label: string, stderr: string, stdout: string): string {
  const text = stderr.trim() || stdout.trim() || 'No stderr output';
  return `Stop hook blocking error from command "${label}": ${text}`;
}
