// JSON Schema for editors and other tools, generated from the zod schemas that validate (principle 4).
// The settings schema is the loader's, keyed by the 34 event names and narrowed per event to the hook types
// the event runs, so an editor flags what validate would; inputs and outputs are input.ts and outcome.ts,
// with each hookSpecificOutput field typed as hook output parsing checks it (a wrong enum value is refused).
// Without an event, input and hookSpecificOutput are one schema per event, told apart by the event name.
import * as z from 'zod';
import { testReportDocumentSchema } from '../cases/document.ts';
import {
  agentHookSchema,
  commandHookSchema,
  httpHookSchema,
  matcherGroupSchema,
  mcpToolHookSchema,
  promptHookSchema,
  settingsSchema,
} from '../config/schema.ts';
import { SCHEMA_VERSION } from '../errors.ts';
import { EVENT_NAMES, EVENTS, type EventName } from '../events.ts';
import { inputSchema } from '../input/parse.ts';
import { hookOutputSchema, specificFieldSchema } from '../output/schema.ts';
import { replayDocumentSchema } from '../replay/document.ts';
import type { DocumentName } from '../report/document.ts';
import {
  doctorDocumentSchema,
  explainDocumentSchema,
  hostReportDocumentSchema,
  listDocumentSchema,
  stateDocumentSchema,
  trustDocumentSchema,
  validateDocumentSchema,
} from '../report/documents.ts';
import { errorDocumentSchema, reportDocumentSchema } from '../report/schema.ts';
import type { HookType } from '../types.ts';

type JsonSchema = Record<string, unknown>;

const HANDLERS: Readonly<Record<HookType, z.ZodObject>> = {
  command: commandHookSchema.meta({ id: 'CommandHook', title: 'command hook' }),
  http: httpHookSchema.meta({ id: 'HttpHook', title: 'http hook' }),
  mcp_tool: mcpToolHookSchema.meta({ id: 'McpToolHook', title: 'mcp_tool hook' }),
  prompt: promptHookSchema.meta({ id: 'PromptHook', title: 'prompt hook' }),
  agent: agentHookSchema.meta({ id: 'AgentHook', title: 'agent hook' }),
};

function groupSchema(event: EventName): z.ZodType {
  const { matcherField, hookTypes } = EVENTS[event];
  const handlers = hookTypes.map((type) => HANDLERS[type]);
  return matcherGroupSchema.extend({
    matcher: matcherGroupSchema.shape.matcher.describe(
      matcherField === undefined
        ? `Ignored: ${event} has no matcher, so the group runs on every ${event}.`
        : `Tested against "${matcherField}": exact names separated by | or , ; anything else is an unanchored regex.`,
    ),
    hooks: z
      .array(z.discriminatedUnion('type', handlers as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]))
      .describe(`Handlers; ${event} runs ${hookTypes.join(', ')} hooks.`),
  });
}

/** Settings as users write them: `hooks` keyed by event name; other keys pass (Claude Code settings hold much more). */
export function settingsJsonSchema(): JsonSchema {
  const hooks = z
    .strictObject(Object.fromEntries(EVENT_NAMES.map((event) => [event, z.array(groupSchema(event)).optional()])))
    .describe('Hook configuration keyed by event name (case-sensitive).');
  const schema = settingsSchema.extend({ $schema: z.string().optional(), hooks: hooks.optional() });
  return finish(schema, 'Claude Code hook settings (as peri-hooks reads them)');
}

function eventInputSchema(event: EventName): z.ZodObject {
  return (inputSchema(event) as unknown as z.ZodObject).extend({ hook_event_name: z.literal(event) });
}

/** One event's hook input, with `hook_event_name` fixed to the event; without an event, any event's input. */
export function inputJsonSchema(event?: EventName): JsonSchema {
  if (event === undefined) {
    const union = z.discriminatedUnion(
      'hook_event_name',
      EVENT_NAMES.map(eventInputSchema) as [z.ZodObject, z.ZodObject, ...z.ZodObject[]],
    );
    return discriminated(finish(union, 'Hook input of any event (Claude Code 2.1.332)'), 'hook_event_name');
  }
  return finish(eventInputSchema(event), `${event} hook input (Claude Code 2.1.332)`);
}

/**
 * The permission update entries of a PermissionRequest allow (§6.6), for the published schema only: hook
 * output parsing takes any `{type}` there and leaves the entries to Claude Code, which checks them so.
 */
function permissionUpdateSchema(): z.ZodType {
  const destination = z.enum(['userSettings', 'projectSettings', 'localSettings', 'session', 'cliArg']);
  return z.union([
    z.looseObject({
      type: z.enum(['addRules', 'replaceRules', 'removeRules']),
      rules: z.array(z.looseObject({ toolName: z.string(), ruleContent: z.string().optional() })),
      behavior: z.enum(['allow', 'deny', 'ask']),
      destination,
    }),
    z.looseObject({
      type: z.literal('setMode'),
      mode: z.enum(['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk', 'auto', 'manual']),
      destination,
    }),
    z.looseObject({
      type: z.enum(['addDirectories', 'removeDirectories']),
      directories: z.array(z.string()),
      destination,
    }),
  ]);
}

/** Published field schemas stricter than parsing's, where Claude Code checks more than peri-hooks needs to. */
function publishedFieldSchema(event: EventName, field: string): z.ZodType {
  if (event !== 'PermissionRequest' || field !== 'decision') return specificFieldSchema(event, field);
  return z.discriminatedUnion('behavior', [
    z.looseObject({
      behavior: z.literal('allow'),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      updatedPermissions: z.array(permissionUpdateSchema()).optional(),
    }),
    z.looseObject({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() }),
  ]);
}

/** `hookSpecificOutput` of one event: its name, and the fields it honours, typed as parsing checks them. */
function specificOutputSchema(event: EventName): z.ZodObject {
  const fields = Object.fromEntries(
    EVENTS[event].specificFields.map((field) => [
      field,
      publishedFieldSchema(event, field).optional().describe(`Honoured for ${event}.`),
    ]),
  );
  return z.looseObject({ hookEventName: z.literal(event), ...fields });
}

/** What a hook may print as JSON; `hookSpecificOutput` names the event (the given one, or any) and the fields it honours. */
export function outputJsonSchema(event?: EventName): JsonSchema {
  if (event === undefined) {
    const specific = z.discriminatedUnion(
      'hookEventName',
      EVENT_NAMES.map(specificOutputSchema) as [z.ZodObject, z.ZodObject, ...z.ZodObject[]],
    );
    return finish(
      hookOutputSchema().extend({ hookSpecificOutput: specific.optional() }),
      'Hook output JSON (Claude Code 2.1.332)',
    );
  }
  return finish(
    hookOutputSchema().extend({ hookSpecificOutput: specificOutputSchema(event).optional() }),
    `${event} hook output JSON (Claude Code 2.1.332)`,
  );
}

/** Each JSON document peri-hooks prints: its zod schema, and what prints it. */
export const DOCUMENTS: Readonly<Record<DocumentName, { schema: () => z.ZodObject; printedBy: string }>> = {
  report: { schema: reportDocumentSchema, printedBy: 'peri-hooks fire --output json' },
  error: { schema: errorDocumentSchema, printedBy: 'peri-hooks error in JSON mode' },
  'test-report': { schema: testReportDocumentSchema, printedBy: 'peri-hooks test --reporter json' },
  validate: { schema: validateDocumentSchema, printedBy: 'peri-hooks validate --output json' },
  list: { schema: listDocumentSchema, printedBy: 'peri-hooks list --output json' },
  explain: { schema: explainDocumentSchema, printedBy: 'peri-hooks explain --output json' },
  doctor: { schema: doctorDocumentSchema, printedBy: 'peri-hooks doctor --output json' },
  replay: { schema: replayDocumentSchema, printedBy: 'peri-hooks replay --output json' },
  state: { schema: stateDocumentSchema, printedBy: 'peri-hooks state' },
  'host-report': { schema: hostReportDocumentSchema, printedBy: 'peri-hooks fire --host <agent> --output json' },
  trust: { schema: trustDocumentSchema, printedBy: 'peri-hooks trust --output json' },
};

/** The published JSON Schema of one document peri-hooks prints. */
export function documentJsonSchema(name: DocumentName): JsonSchema {
  const { schema, printedBy } = DOCUMENTS[name];
  return finish(schema(), `${printedBy}, schemaVersion ${SCHEMA_VERSION}`);
}

/** Every committed file under schema/, by path relative to that folder. */
export function schemaFiles(): Record<string, JsonSchema> {
  return {
    'settings.schema.json': settingsJsonSchema(),
    'output.schema.json': outputJsonSchema(),
    ...Object.fromEntries(
      Object.keys(DOCUMENTS).map((name) => [`${name}.schema.json`, documentJsonSchema(name as DocumentName)]),
    ),
    'input.schema.json': inputJsonSchema(),
    ...Object.fromEntries(EVENT_NAMES.map((event) => [`input/${event}.schema.json`, inputJsonSchema(event)])),
  };
}

export function serialise(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** The OpenAPI `discriminator` next to `oneOf`, for tools that pick the branch by the property instead of trying each. */
function discriminated(schema: JsonSchema, propertyName: string): JsonSchema {
  return { ...schema, discriminator: { propertyName } };
}

function finish(schema: z.ZodType, title: string): JsonSchema {
  // io "input": these describe what people and Claude Code write, before any defaults.
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const { $schema, ...rest } = json;
  return { $schema, title, ...rest };
}
