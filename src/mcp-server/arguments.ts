// The `fire` tool's arguments → a typed hook input. Claude Code substitutes an mcp_tool hook's `input` as text
// (spec §20.4 item 5): `${tool_input}` arrives as compact JSON, numbers and booleans as strings, absent fields as
// "". Each field is read back to the type the event's input schema gives it; values already typed (Codex keeps a
// whole-value placeholder's JSON type) pass as they are. The event is `hook_event_name`, a field of every input.
import type * as z from 'zod';
import { PeriHooksError } from '../errors.ts';
import { type EventName, isEventName } from '../events.ts';
import { inputSchema } from '../input/parse.ts';

type Kind = 'string' | 'boolean' | 'number' | 'json' | 'unknown';
interface Field {
  kind: Kind;
  optional: boolean;
}

const fieldCache = new Map<EventName, ReadonlyMap<string, Field>>();

/** The fields of an event's input, with the type each takes; from the same zod schema that validates it. */
export function inputFields(event: EventName): ReadonlyMap<string, Field> {
  let fields = fieldCache.get(event);
  if (!fields) {
    const shape = (inputSchema(event) as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
    fields = new Map(Object.entries(shape).map(([name, schema]) => [name, fieldOf(schema)]));
    fieldCache.set(event, fields);
  }
  return fields;
}

function fieldOf(schema: z.ZodType): Field {
  let def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
  let optional = false;
  while ((def.type === 'optional' || def.type === 'nullable') && def.innerType) {
    optional = true;
    def = (def.innerType as unknown as { _zod: { def: typeof def } })._zod.def;
  }
  const kind: Kind =
    def.type === 'string' || def.type === 'boolean' || def.type === 'number'
      ? def.type
      : def.type === 'record' || def.type === 'object' || def.type === 'array'
        ? 'json'
        : 'unknown';
  return { kind, optional };
}

/** The event and the typed input; a field that cannot be read is an invalid-input error naming it. */
export function inputFromArguments(args: Record<string, unknown> | undefined): {
  event: EventName;
  input: Record<string, unknown>;
} {
  const event = args?.hook_event_name;
  if (typeof event !== 'string' || !isEventName(event)) {
    throw new PeriHooksError(
      'invalid-input',
      `the fire tool's arguments name no hook event ($.hook_event_name is ${JSON.stringify(event ?? null)})`,
      'pass "hook_event_name": "${hook_event_name}" in the mcp_tool hook\'s input (peri-hooks install --via mcp writes it)',
    );
  }
  const fields = inputFields(event);
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args ?? {})) {
    const field = fields.get(name);
    if (field === undefined || typeof value !== 'string') {
      input[name] = value;
      continue;
    }
    // Claude Code sends "" for a field the payload does not have.
    if (value === '' && field.optional) continue;
    input[name] = typed(event, name, field.kind, value);
  }
  return { event, input };
}

function typed(event: EventName, name: string, kind: Kind, text: string): unknown {
  const wrong = (what: string) =>
    new PeriHooksError(
      'invalid-input',
      `the fire tool's argument $.${name} is not ${what} (${event}): ${JSON.stringify(text.slice(0, 80))}`,
      `pass "${name}": "\${${name}}" as Claude Code substitutes it`,
    );
  switch (kind) {
    case 'string':
      return text;
    case 'boolean':
      if (text === 'true' || text === 'false') return text === 'true';
      throw wrong('true or false');
    case 'number': {
      const number = Number(text);
      if (text.trim() === '' || !Number.isFinite(number)) throw wrong('a number');
      return number;
    }
    case 'json':
      try {
        return JSON.parse(text);
      } catch {
        throw wrong('JSON');
      }
    case 'unknown': {
      // A tool's response is an object or a string; only text that reads as an object or array is parsed.
      if (!/^\s*[[{]/.test(text)) return text;
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    }
  }
}

/** The mcp_tool hook `input` that passes every field of the event, for install --via mcp. */
export function inputTemplate(event: EventName): Record<string, string> {
  return Object.fromEntries([...inputFields(event).keys()].map((name) => [name, `\${${name}}`]));
}
