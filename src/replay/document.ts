// `replay --output json`: its published schema (`peri-hooks schema replay`) and the document built from it.
import * as z from 'zod';
import { SCHEMA_VERSION } from '../errors.ts';
import { EVENT_NAMES } from '../events.ts';
import { SKIP_REASONS } from '../plan.ts';
import { VERDICTS } from './run.ts';

const text = z.string();
const count = z.int().nonnegative();
const object = z.record(z.string(), z.unknown());

function firingSchema() {
  return z
    .strictObject({
      event: z.enum(EVENT_NAMES),
      verdict: z.enum(VERDICTS),
      reason: text.nullable(),
      updatedInput: object.nullable(),
      hooks: z.array(
        z.strictObject({
          hook: text,
          status: z.enum(['ran', 'skipped']),
          exitCode: z.int().nullable(),
          timedOut: z.boolean().nullable(),
          skipReason: text.nullable(),
        }),
      ),
      hookErrors: z.array(text),
      error: text.nullable(),
    })
    .describe('A firing (without --dry-run).');
}

function plannedSchema() {
  return z
    .strictObject({
      event: z.enum(EVENT_NAMES),
      run: z.array(text),
      skipped: z.array(z.strictObject({ hook: text, reason: z.enum(SKIP_REASONS), detail: text })),
      error: text.nullable(),
    })
    .describe('A plan (--dry-run).');
}

/** `replay --output json`. */
export function replayDocumentSchema() {
  const entry = z.union([firingSchema(), plannedSchema()]);
  return z.strictObject({
    schemaVersion: z.literal(SCHEMA_VERSION),
    dryRun: z.boolean(),
    transcripts: z.array(text),
    calls: z.array(
      z.strictObject({
        transcript: text,
        line: z.int().positive(),
        toolUseId: text,
        tool: text,
        input: object,
        timestamp: text.nullable(),
        pre: entry,
        post: entry.nullable(),
        postNote: text.nullable().describe('Why there is no post firing although --post was given.'),
      }),
    ),
    malformed: z.array(z.strictObject({ transcript: text, line: z.int().positive(), message: text })),
    warnings: z.array(text),
    summary: z
      .record(
        z.string(),
        z.strictObject({ calls: count, ...Object.fromEntries(VERDICTS.map((verdict) => [verdict, count])) }),
      )
      .nullable()
      .describe('Per event: calls and verdicts; null with --dry-run.'),
  });
}
