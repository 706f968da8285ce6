// `test --reporter json`: its published schema (`peri-hooks schema test-report`).
import * as z from 'zod';
import { SCHEMA_VERSION } from '../errors.ts';
import { diagnosticSchema } from '../report/schema.ts';
import { DECISIONS } from './schema.ts';

const text = z.string();
const count = z.int().nonnegative();
const object = z.record(z.string(), z.unknown());

/** `test --reporter json`. */
export function testReportDocumentSchema() {
  return z.strictObject({
    schemaVersion: z.literal(SCHEMA_VERSION),
    summary: z.strictObject({ passed: count, failed: count, notRun: count, leftOut: count, durationMs: count }),
    cases: z.array(
      z.strictObject({
        file: text,
        name: text,
        line: z.int().positive(),
        column: z.int().positive(),
        status: z.enum(['passed', 'failed', 'error']),
        durationMs: count,
        messages: z.array(text),
        failures: z.array(
          z.strictObject({
            key: text,
            message: text,
            expected: z.unknown(),
            actual: z.unknown(),
            line: z.int().positive(),
            column: z.int().positive(),
          }),
        ),
        actual: z
          .strictObject({
            decision: z.enum(DECISIONS),
            exitCode: z.union([z.literal(0), z.literal(2)]),
            reason: text.nullable(),
            updatedInput: object.nullable(),
            context: text.nullable(),
            systemMessage: text.nullable(),
            stdout: text,
            stderr: text,
            ran: z.array(text),
            skipped: z.array(z.strictObject({ hook: text, reason: text })),
            timedOut: z.array(text),
          })
          .nullable()
          .describe('What the firing did; null for a case that did not fire.'),
        hooks: z.array(
          z.strictObject({ hook: text, exitCode: z.int().nullable(), timedOut: z.boolean(), stderr: text }),
        ),
        hookErrors: z.array(text),
      }),
    ),
    errors: z.array(diagnosticSchema()),
  });
}
