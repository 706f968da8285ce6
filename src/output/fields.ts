// Fields of a hook's JSON output that Claude Code ignores where they stand: an event's field at the top level
// (`{"permissionDecision": "deny"}` lets the call through), a top-level field inside hookSpecificOutput, a field
// the event does not read. Said as warnings naming the field and where it belongs; the decision is unchanged.
import { EVENT_NAMES, EVENTS, type EventName } from '../events.ts';

/** The top-level keys of hook output (schema.ts), kept here without zod: this runs for every JSON answer. */
const TOP_LEVEL = new Set([
  'continue',
  'stopReason',
  'suppressOutput',
  'systemMessage',
  'decision',
  'reason',
  'terminalSequence',
  'hookSpecificOutput',
  'async',
  'asyncTimeout',
]);

/** The warnings for `stdout` as `event`'s output; [] for plain text, other JSON, or output where everything stands right. */
export function misplacedOutputFields(event: EventName, stdout: string): string[] {
  const text = stdout.trim();
  if (!text.startsWith('{')) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const own = new Set<string>(EVENTS[event].specificFields);
  const nest = `in "hookSpecificOutput" with "hookEventName": "${event}"`;
  const warnings = Object.keys(value)
    .filter((key) => !TOP_LEVEL.has(key))
    .map((key) =>
      own.has(key)
        ? `"${key}" at the top level of the output is ignored: it belongs ${nest}`
        : `"${key}" is not a field of ${event}'s output: it is ignored${elsewhere(key)}`,
    );
  const nested = (value as Record<string, unknown>).hookSpecificOutput;
  if (
    typeof nested !== 'object' ||
    nested === null ||
    Array.isArray(nested) ||
    (nested as Record<string, unknown>).hookEventName !== event
  )
    return warnings;
  for (const key of Object.keys(nested).filter((name) => name !== 'hookEventName' && !own.has(name))) {
    warnings.push(
      TOP_LEVEL.has(key)
        ? `"hookSpecificOutput.${key}" is ignored: "${key}" belongs at the top level of the output`
        : `"hookSpecificOutput.${key}" is not a field of ${event}: it is ignored (${event} reads ${[...own].join(', ') || 'no hookSpecificOutput field'})${elsewhere(key)}`,
    );
  }
  return warnings;
}

/** Where a field is read instead: the events whose hookSpecificOutput has it. */
function elsewhere(key: string): string {
  const events = EVENT_NAMES.filter((name) => (EVENTS[name].specificFields as readonly string[]).includes(key));
  return events.length === 0
    ? ''
    : `; it is a hookSpecificOutput field of ${events.slice(0, 3).join(', ')}${events.length > 3 ? ', …' : ''}`;
}
