// The evaluator's answer: the tools that force its shape, and a lenient parser for what comes back.
import * as z from 'zod';
import type { ToolDefinition } from './wire.ts';

const verdictSchema = z.object({
  ok: z.boolean(),
  reason: z.string().optional(),
  impossible: z.boolean().optional(),
});

export type Verdict = z.infer<typeof verdictSchema>;

export type ParsedVerdict = { ok: true; verdict: Verdict } | { ok: false; error: string };

export const VERDICT_TOOL = 'verdict';
export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';

const okProperty = { type: 'boolean', description: 'true: the condition is met; false: it is not.' };
const reasonProperty = { type: 'string', description: 'One or two sentences; shown to the user and to Claude.' };

/** The prompt hook's single forced tool; `impossible` only where a stop condition is judged. */
export function verdictTool(withImpossible: boolean): ToolDefinition {
  const properties: Record<string, unknown> = { ok: okProperty, reason: reasonProperty };
  if (withImpossible) {
    properties.impossible = {
      type: 'boolean',
      description: 'true with ok false: more work cannot meet the condition.',
    };
  }
  return {
    name: VERDICT_TOOL,
    description: 'Report your decision. Call it exactly once.',
    input_schema: { type: 'object', properties, required: ['ok', 'reason'], additionalProperties: false },
  };
}

/** The agent hook's final tool, as Claude Code's StructuredOutput: `{ok, reason?}`. */
export const structuredOutputTool: ToolDefinition = {
  name: STRUCTURED_OUTPUT_TOOL,
  description: 'Report your final decision. Calling it ends the evaluation.',
  input_schema: {
    type: 'object',
    properties: { ok: okProperty, reason: reasonProperty },
    required: ['ok'],
    additionalProperties: false,
  },
};

export function validateVerdict(value: unknown): ParsedVerdict {
  const result = verdictSchema.safeParse(value);
  if (result.success) return { ok: true, verdict: result.data };
  const issues = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  return { ok: false, error: `Schema validation failed: ${issues.join('; ')}` };
}

/** Text answers (a gateway that ignores tool_choice): code fences and prose around one JSON object are tolerated. */
export function parseVerdictText(text: string): ParsedVerdict {
  const trimmed = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  for (const candidate of [trimmed, trimmed.slice(trimmed.indexOf('{'), trimmed.lastIndexOf('}') + 1)]) {
    if (!candidate) continue;
    try {
      return validateVerdict(JSON.parse(candidate));
    } catch {
      // try the next candidate
    }
  }
  const shown = trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed;
  return { ok: false, error: `JSON validation failed: the answer is not a JSON object: ${JSON.stringify(shown)}` };
}
