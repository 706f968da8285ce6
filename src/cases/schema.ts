// The case file format (docs/guide/testing.md, "Case files"), as zod schemas. Strict objects, so that a misspelt expectation
// is an error instead of a case that silently checks nothing.
import * as z from 'zod';
import { EVENT_NAMES, isEventName, suggestEvent } from '../events.ts';
import { OUTCOMES } from '../outcome.ts';
import { SKIP_REASONS } from '../plan.ts';

export const DECISIONS = ['allow', 'deny', 'ask', 'defer', 'block', 'none'] as const;
export type Decision = (typeof DECISIONS)[number];

const regex = z.string().refine(
  (source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid JavaScript regular expression' },
);

const texts = z.union([z.string(), z.array(z.string()).min(1)]);
const object = z.record(z.string(), z.unknown());

/** What one hook did: keyed by the hook's selector (a part of its command, URL or prompt, or its id). */
const hookExpectationSchema = z.strictObject({
  outcome: z.enum(OUTCOMES).optional(),
  exitCode: z.number().int().nullable().optional(),
  stdoutContains: texts.optional(),
  stderrContains: texts.optional(),
});

export const expectationSchema = z.strictObject({
  decision: z.enum(DECISIONS).optional(),
  exitCode: z.union([z.literal(0), z.literal(2)]).optional(),
  reasonContains: texts.optional(),
  reasonMatches: regex.optional(),
  updatedInput: object.nullable().optional(),
  updatedInputIncludes: object.optional(),
  contextContains: texts.optional(),
  contextMatches: regex.optional(),
  systemMessageContains: texts.optional(),
  stdoutContains: texts.optional(),
  stderrContains: texts.optional(),
  hooks: z.record(z.string().min(1), hookExpectationSchema).optional(),
  ran: z.array(z.string().min(1)).optional(),
  skipped: z
    .array(
      z.union([
        z.string().min(1),
        z.strictObject({ hook: z.string().min(1), reason: z.enum(SKIP_REASONS).optional() }),
      ]),
    )
    .optional(),
  timedOut: z.union([z.boolean(), z.array(z.string().min(1))]).optional(),
});
export type Expectation = z.infer<typeof expectationSchema>;

/** A settings file (relative to the case file) or inline settings; one or several. */
const settingsEntry = z.union([z.string().min(1), object]);
export const settingsSchema = z.union([settingsEntry, z.array(settingsEntry)]);
export type SettingsRef = z.infer<typeof settingsSchema>;

export const caseSchema = z.strictObject({
  name: z.string().min(1),
  event: z
    .string()
    .refine(isEventName, { error: (issue) => eventMessage(String(issue.input)) })
    .default('PreToolUse'),
  tool: z.string().min(1).optional(),
  toolInput: object.optional(),
  toolResponse: z.unknown().optional(),
  input: z.union([z.string().min(1), object]).optional(),
  settings: settingsSchema.optional(),
  expect: expectationSchema.optional(),
});
export type CaseSpec = z.infer<typeof caseSchema>;

/** A file is an array of cases, or an object with shared settings and project folder. Cases are checked one by one. */
export const fileSchema = z.union([
  z.array(z.unknown()),
  z.strictObject({
    projectDir: z.string().min(1).optional(),
    settings: settingsSchema.optional(),
    cases: z.array(z.unknown()),
  }),
]);

export const CASE_KEYS = Object.keys(caseSchema.shape);
export const EXPECTATION_KEYS = Object.keys(expectationSchema.shape);

function eventMessage(name: string): string {
  const suggestion = suggestEvent(name);
  return `unknown event "${name}"${suggestion ? `; did you mean ${suggestion}?` : ` (one of ${EVENT_NAMES.length} Claude Code events)`}`;
}
