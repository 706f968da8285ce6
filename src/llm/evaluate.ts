// The frame both model runners share: configuration, one deadline for every API call, duration,
// and the rule that a runner never throws.

import { EVENTS } from '../events.ts';
import { nowMs } from '../platform/clock.ts';
import { timerMs } from '../platform/timer.ts';
import { cancelledOutcome, errorOutcome, type Outcome } from '../runners/raw-outcome.ts';
import type { RawOutcome, RunContext } from '../types.ts';
import { type CallResult, createMessage } from './client.ts';
import { redact, resolveModelConfig } from './config.ts';
import type { MessagesRequest } from './wire.ts';

export interface Evaluation {
  call: (request: Omit<MessagesRequest, 'model'>) => Promise<CallResult>;
  /** The outcome of a failed call: cancelled when the deadline or an interruption caused it. */
  failed: (error: string) => Outcome;
  signal: AbortSignal;
}

export async function evaluate(
  type: 'prompt' | 'agent',
  model: string | undefined,
  ctx: RunContext,
  body: (evaluation: Evaluation) => Promise<Outcome>,
): Promise<RawOutcome> {
  const started = nowMs();
  const finish = (outcome: Outcome): RawOutcome => ({ ...outcome, durationMs: Math.round(nowMs() - started) });
  if (!EVENTS[ctx.event].hookTypes.includes(type)) {
    return finish(errorOutcome(`${type} hooks are not supported for ${ctx.event} events`));
  }
  const config = resolveModelConfig(ctx.env, model);
  if ('error' in config) return finish(errorOutcome(`Hook evaluator API error: ${config.error}`));
  // The model may quote a key it read (an agent reading .env): scrub whatever leaves the runner.
  const scrub = (outcome: Outcome): RawOutcome => {
    const clean = (text: string) => redact(text, config.secrets);
    const scrubbed = { ...outcome, stdout: clean(outcome.stdout), stderr: clean(outcome.stderr) };
    if (outcome.error !== undefined) scrubbed.error = clean(outcome.error);
    return finish(scrubbed);
  };
  const timeout = AbortSignal.timeout(timerMs(ctx.timeoutMs));
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const deadline = Date.now() + ctx.timeoutMs;
  const evaluation: Evaluation = {
    call: (request) => createMessage(config, { model: config.model, ...request }, { signal, deadline }),
    failed: (error) => {
      if (ctx.signal.aborted) return cancelledOutcome('interrupted');
      if (timeout.aborted) return cancelledOutcome();
      return errorOutcome(`Hook evaluator API error: ${error}`);
    },
    signal,
  };
  try {
    if (signal.aborted) return scrub(evaluation.failed('aborted'));
    return scrub(await body(evaluation));
  } catch (error) {
    // A bug, not a hook result; still a value.
    return scrub(errorOutcome(`Hook evaluator error: ${error instanceof Error ? error.message : String(error)}`));
  }
}
