// The library API, for harnesses that embed peri-hooks instead of calling the binary.
export { fire, type FireOptions } from './fire.ts';
export type { FireReport, HookReport } from './report/types.ts';
export { loadSettings, type LoadOptions, type LoadedSettings } from './config/index.ts';
export { plan, type Plan, type PlannedHook, type SkippedHook, type SkipReason } from './plan.ts';
export { classify, type HookResult } from './outcome.ts';
export { reduce, type Reduced } from './reduce.ts';
export { parseInput, inputSchema, type HookInput } from './input.ts';
export { EVENTS, EVENT_NAMES, checkEvent, type EventName, type EventDef } from './events.ts';
export { renderClaude } from './report/claude.ts';
export { renderDecision } from './report/decision.ts';
export { PeriHooksError, EXIT } from './errors.ts';
export type { Diagnostic, LoadedHook, Provenance, RawOutcome } from './types.ts';
