// A hook input's text as a JSON object, with every check that comes before the event's schema: shared by the
// zod parse (parse.ts) and the generated check (text.ts), and importing neither.
import { PeriHooksError } from '../errors.ts';
import type { EventName } from '../events.ts';

/** The input text as a JSON object for the event: every check before its schema's. */
export function inputObject(event: EventName, text: string, source: string): Record<string, unknown> {
  if (text.trim() === '') {
    throw new PeriHooksError(
      'empty-input',
      `no hook input on ${source}`,
      `pipe the ${event} input JSON in, e.g. peri-hooks fire ${event} < input.json`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(source, '$');
    throw new PeriHooksError(
      'invalid-json',
      `the hook input on ${source} is not valid JSON: ${(error as Error).message}`,
      'send exactly one JSON object, as Claude Code writes it to a hook',
    );
  }
  const deepField = fieldNestedTooDeep(value);
  if (deepField !== undefined) throw tooDeep(source, deepField);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    throw new PeriHooksError(
      'invalid-input',
      `the hook input on ${source} is ${kind}, not a JSON object`,
      'send one JSON object with session_id, transcript_path, cwd and hook_event_name',
    );
  }
  const named = (value as Record<string, unknown>).hook_event_name;
  if (typeof named === 'string' && named !== event) {
    throw new PeriHooksError(
      'event-mismatch',
      `the input says hook_event_name "${named}" but the event fired is ${event}`,
      `fire ${named}, or fix hook_event_name in the input`,
    );
  }
  return value as Record<string, unknown>;
}

/**
 * Deeper values than this are refused: serialising them for the hooks would overflow the stack (at about 3,000
 * levels on Node 24), and no tool input Claude Code sends comes near it.
 */
export const MAX_INPUT_DEPTH = 1000;

function tooDeep(source: string, field: string): PeriHooksError {
  return new PeriHooksError(
    'invalid-input',
    `the hook input on ${source} is nested more than ${MAX_INPUT_DEPTH} levels deep at ${field}`,
    'send the input as Claude Code writes it; no hook input is nested that deeply',
  );
}

/** The top-level field (as `$.name`) holding a value nested deeper than MAX_INPUT_DEPTH, without recursion. */
function fieldNestedTooDeep(root: unknown): string | undefined {
  if (typeof root !== 'object' || root === null) return undefined;
  for (const [key, field] of Object.entries(root)) {
    const pending: Array<[unknown, number]> = [[field, 2]];
    while (pending.length > 0) {
      const [value, depth] = pending.pop()!;
      if (typeof value !== 'object' || value === null) continue;
      if (depth > MAX_INPUT_DEPTH) return `$.${key}`;
      for (const child of Object.values(value))
        if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
  return undefined;
}
