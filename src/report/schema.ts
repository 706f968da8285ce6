// The published shape of the JSON documents (`peri-hooks schema report`, `schema error`): zod schemas with the
// keys of report/document.ts in its order, every key required, null where a run has nothing to say.
import * as z from 'zod';
import { PROJECT_DIR_RULES, type ProjectDirFrom } from '../config/sources.ts';
import { SCHEMA_VERSION } from '../errors.ts';
import { EVENT_NAMES } from '../events.ts';
import { OUTCOMES } from '../outcome.ts';
import { sessionStateSchema } from '../session/schema.ts';
import { SEVERITIES } from '../types.ts';

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();
const text = z.string();

export function diagnosticSchema() {
  return z.strictObject({
    severity: z.enum(SEVERITIES),
    code: text.describe('Stable machine code, e.g. timeout-in-ms.'),
    message: text,
    file: nullable(text),
    line: nullable(z.int().positive()),
    column: nullable(z.int().positive()),
    pointer: nullable(text).describe('JSON Pointer into the file.'),
    fix: nullable(text),
  });
}

/** Which hook and where it is written: the first keys of every per-hook entry (fire, explain, list). */
export function hookIdentityShape() {
  return {
    id: text,
    type: z.enum(['command', 'http', 'prompt', 'agent', 'mcp_tool']),
    matcher: nullable(text),
    layer: text.describe('managed, user, project, local, flag or plugin.'),
    file: text,
    pointer: text,
    plugin: nullable(text),
    label: text.describe('The command, URL (credentials as ***) or prompt, for people.'),
  };
}

function hookSchema() {
  return z.strictObject({
    ...hookIdentityShape(),
    status: z.enum(['ran', 'skipped']),
    skipReason: nullable(text),
    skipDetail: nullable(text),
    outcome: nullable(z.enum(OUTCOMES)),
    blockedBy: nullable(z.enum(['exit2', 'json', 'onFailure'])),
    exitCode: nullable(z.int()),
    timedOut: nullable(z.boolean()),
    durationMs: nullable(z.number().nonnegative()),
    stdout: nullable(text),
    stderr: nullable(text),
    error: nullable(text),
    truncated: nullable(z.strictObject({ stdout: z.boolean(), stderr: z.boolean() })).describe(
      'Which stream lost output beyond 10 MiB.',
    ),
    answeredInJson: nullable(z.boolean()),
    blockingMessage: nullable(text),
    additionalContext: nullable(text),
    plainText: nullable(text),
    asyncJob: nullable(text),
    via: viaSchema(),
  });
}

/** The last key of every per-hook entry (a later addition): the registration a hook came through. */
export function viaSchema() {
  return nullable(text).describe(
    "A hook of a policy file that peri-hooks' own registration runs: that registration, <file>#<pointer>.",
  );
}

/** An async hook's result as the session keeps it (the report's `delivered`, `state`'s `results`), every key present. */
export function asyncResultSchema() {
  const result = sessionStateSchema().shape.results.unwrap().element.shape;
  return z.strictObject({
    ...result,
    systemMessage: nullable(text),
    additionalContext: nullable(text),
    rewake: nullable(text),
  });
}

/** `fire --output json`. */
export function reportDocumentSchema() {
  return z.strictObject({
    schemaVersion: z.literal(SCHEMA_VERSION),
    event: z.enum(EVENT_NAMES),
    matcherValue: nullable(text).describe('What the matchers were tested against (the tool name, the source, ...).'),
    projectDir: text,
    projectDirFrom: nullable(z.enum(Object.keys(PROJECT_DIR_RULES) as [ProjectDirFrom, ...ProjectDirFrom[]])),
    noHooksFound: nullable(z.strictObject({ searched: z.array(text) })).describe(
      'Set when no source has a hook for the event: nothing is enforced.',
    ),
    blocked: z.boolean(),
    exitCode: z.union([z.literal(0), z.literal(2)]),
    failClosed: nullable(z.boolean()),
    reason: nullable(text).describe('The block message.'),
    output: nullable(z.record(z.string(), z.unknown())).describe(
      'The reduced decision as one Claude Code hook output object.',
    ),
    plainText: nullable(text),
    hooks: z.array(hookSchema()),
    deciders: z.array(text),
    errors: z.array(text),
    warnings: z.array(diagnosticSchema()),
    stopGuard: nullable(
      z.strictObject({
        count: z.int().nonnegative(),
        cap: z.int().positive(),
        overridden: z.boolean(),
        message: nullable(text),
      }),
    ),
    delivered: z.array(asyncResultSchema()),
  });
}

/** An error in JSON mode (any command). */
export function errorDocumentSchema() {
  return z.strictObject({
    schemaVersion: z.literal(SCHEMA_VERSION),
    error: z.strictObject({
      code: text,
      message: text,
      fix: nullable(text),
      file: nullable(text).describe('The file (or stdin) the error is about.'),
      pointer: nullable(text).describe('JSON Pointer to the first problem.'),
      problems: z.array(z.strictObject({ pointer: text, message: text, fix: text })),
      failClosed: z.boolean(),
    }),
  });
}
