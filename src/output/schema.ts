// zod's schemas of hook output (spec §6.2, §6.4): the published JSON Schema's source, and what words the problem
// with an output that the generated checks (outcome.ts) do not accept. Loaded only then, or by `schema`.
import * as z from 'zod';
import { EVENTS, type EventName } from '../events.ts';
import type { OutputChecks } from '../outcome.ts';

// Built on first use: a firing whose hooks do not match never parses hook output.
function buildHookOutputSchema() {
  return z.looseObject({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    decision: z.enum(['approve', 'block']).optional(),
    reason: z.string().optional(),
    terminalSequence: z.string().optional(),
    hookSpecificOutput: z.looseObject({ hookEventName: z.string() }).optional(),
    async: z.boolean().optional(),
    asyncTimeout: z.number().optional(),
  });
}
export type HookOutput = z.infer<ReturnType<typeof buildHookOutputSchema>>;

let outputSchema: ReturnType<typeof buildHookOutputSchema> | undefined;
/** The hook output JSON schema (cached). */
export function hookOutputSchema(): ReturnType<typeof buildHookOutputSchema> {
  return (outputSchema ??= buildHookOutputSchema());
}

/** Schemas of every hookSpecificOutput field; each event honours the subset named in its catalogue row. */
function buildSpecificFieldSchemas(): Record<string, z.ZodType> {
  const permissionUpdate = z.looseObject({ type: z.string() });
  return {
    permissionDecisionReason: z.string(),
    updatedInput: z.record(z.string(), z.unknown()),
    additionalContext: z.string(),
    classifierContext: z.string(),
    updatedToolOutput: z.unknown(),
    updatedMCPToolOutput: z.unknown(),
    sessionTitle: z.string(),
    suppressOriginalPrompt: z.boolean(),
    initialUserMessage: z.string(),
    watchPaths: z.array(z.string()),
    reloadSkills: z.boolean(),
    retry: z.boolean(),
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z.record(z.string(), z.unknown()),
    worktreePath: z.string(),
    displayContent: z.string(),
    decision: z.discriminatedUnion('behavior', [
      z.looseObject({
        behavior: z.literal('allow'),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        updatedPermissions: z.array(permissionUpdate).optional(),
      }),
      z.looseObject({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() }),
    ]),
  };
}
let specificFieldSchemas: Record<string, z.ZodType> | undefined;
const permissionDecisionSchemas = new Map<EventName, z.ZodType>();

/** permissionDecision takes the values of the event's catalogue row (PreModelSwitch has no `defer`, §6.4). */
function permissionDecisionSchema(event: EventName): z.ZodType {
  let schema = permissionDecisionSchemas.get(event);
  if (!schema) {
    schema = z.enum(EVENTS[event].permissionDecisions!);
    permissionDecisionSchemas.set(event, schema);
  }
  return schema;
}

/** The schema of one `hookSpecificOutput` field of an event, as parsing checks it (and `schema output` publishes it). */
export function specificFieldSchema(event: EventName, field: string): z.ZodType {
  return field === 'permissionDecision'
    ? permissionDecisionSchema(event)
    : (specificFieldSchemas ??= buildSpecificFieldSchemas())[field]!;
}

export const ZOD_OUTPUT_CHECKS: OutputChecks = {
  output(value) {
    const parsed = hookOutputSchema().safeParse(value);
    return parsed.success ? { data: parsed.data } : { error: describeIssue(parsed.error) };
  },
  field(event, field, value) {
    const parsed = specificFieldSchema(event, field).safeParse(value);
    return parsed.success
      ? { data: parsed.data }
      : { error: describeIssue(parsed.error, `hookSpecificOutput.${field}`) };
  },
};

function describeIssue(error: z.ZodError, prefix?: string): string {
  const issue = error.issues[0]!;
  const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
