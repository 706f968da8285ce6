// `agent` hooks (§5.6): a bounded tool loop with read-only tools; the model ends by calling StructuredOutput.

import { STRUCTURED_OUTPUT_TOOL, structuredOutputTool, validateVerdict } from '../llm/answer.ts';
import { evaluate } from '../llm/evaluate.ts';
import { agentSystem, substituteArguments } from '../llm/prompt-text.ts';
import { isToolUse, type Message, type ToolResultBlock } from '../llm/wire.ts';
import type { Runner } from '../types.ts';
import { createScope, READ_ONLY_TOOLS, runTool } from './agent-tools.ts';
import { cancelledOutcome, errorOutcome, verdictOutcome } from './raw-outcome.ts';

export const MAX_TURNS = 50;

export const runAgentHook: Runner = async (hook, ctx) => {
  const handler = hook.handler;
  if (handler.type !== 'agent') return { ...errorOutcome(`not an agent hook: ${handler.type}`), durationMs: 0 };
  return evaluate('agent', handler.model, ctx, async ({ call, failed, signal }) => {
    const transcript =
      typeof ctx.input.transcript_path === 'string' && ctx.input.transcript_path !== ''
        ? ctx.input.transcript_path
        : undefined;
    const scope = await createScope(ctx.projectDir, transcript);
    const system = agentSystem(ctx.event, scope.roots[0]!, scope.transcript);
    const messages: Message[] = [{ role: 'user', content: substituteArguments(handler.prompt, ctx.inputJson) }];
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      // `any`: every turn is a tool call, so the loop ends only through StructuredOutput (or a limit).
      const result = await call({
        max_tokens: 4096,
        system,
        messages,
        tools: [...READ_ONLY_TOOLS, structuredOutputTool],
        tool_choice: { type: 'any' },
      });
      if (!result.ok) return failed(result.error);
      const { content, stop_reason: stopReason } = result.message;
      const uses = content.filter(isToolUse);
      if (uses.length === 0)
        return cancelledOutcome(
          `the agent stopped (${stopReason ?? 'no stop_reason'}) without calling ${STRUCTURED_OUTPUT_TOOL}`,
        );
      messages.push({ role: 'assistant', content });
      const results: ToolResultBlock[] = [];
      for (const use of uses) {
        if (use.name === STRUCTURED_OUTPUT_TOOL) {
          const parsed = validateVerdict(use.input);
          if (parsed.ok) {
            const verdict = { ok: parsed.verdict.ok, reason: parsed.verdict.reason };
            return verdictOutcome(ctx.event, verdict, {
              continueOnBlock: true,
              message: (reason) => `Agent hook condition was not met: ${reason}`,
            });
          }
          results.push({
            type: 'tool_result',
            tool_use_id: use.id,
            content: `${parsed.error}; call ${STRUCTURED_OUTPUT_TOOL} again`,
            is_error: true,
          });
        } else {
          const output = await runTool(scope, use.name, use.input, signal);
          results.push({
            type: 'tool_result',
            tool_use_id: use.id,
            content: output.content,
            ...(output.isError ? { is_error: true } : {}),
          });
        }
      }
      messages.push({ role: 'user', content: results });
    }
    return cancelledOutcome(`the agent used all ${MAX_TURNS} turns without calling ${STRUCTURED_OUTPUT_TOOL}`);
  });
};
