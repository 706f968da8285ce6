// `prompt` hooks (§5.5): one forced-tool turn of a small model, mapped to a command hook's raw outcome.
import { isStopEvent } from '../events.ts';
import { parseVerdictText, VERDICT_TOOL, validateVerdict, verdictTool } from '../llm/answer.ts';
import { evaluate } from '../llm/evaluate.ts';
import { promptSystem, stopUserMessage, substituteArguments } from '../llm/prompt-text.ts';
import { renderTranscript } from '../llm/transcript.ts';
import { isToolUse, textOf } from '../llm/wire.ts';
import type { Runner } from '../types.ts';
import { errorOutcome, verdictOutcome } from './raw-outcome.ts';

export const runPromptHook: Runner = async (hook, ctx) => {
  const handler = hook.handler;
  if (handler.type !== 'prompt') return { ...errorOutcome(`not a prompt hook: ${handler.type}`), durationMs: 0 };
  return evaluate('prompt', handler.model, ctx, async ({ call, failed }) => {
    const stop = isStopEvent(ctx.event);
    const condition = substituteArguments(handler.prompt, ctx.inputJson);
    const content = stop ? stopUserMessage(condition, await renderTranscript(ctx.input.transcript_path)) : condition;
    const result = await call({
      max_tokens: 1024,
      system: promptSystem(ctx.event),
      messages: [{ role: 'user', content }],
      tools: [verdictTool(stop)],
      tool_choice: { type: 'tool', name: VERDICT_TOOL },
    });
    if (!result.ok) return failed(result.error);
    const answer = result.message.content.filter(isToolUse).find((block) => block.name === VERDICT_TOOL);
    const parsed = answer ? validateVerdict(answer.input) : parseVerdictText(textOf(result.message.content));
    if (!parsed.ok) return errorOutcome(parsed.error);
    return verdictOutcome(ctx.event, parsed.verdict, {
      continueOnBlock: handler.continueOnBlock === true,
      // On stop events the reason is Claude's next instruction; elsewhere it names the hook.
      message: (reason) => (stop ? reason : `[${handler.prompt}]: ${reason}`),
    });
  });
};
