// The library API, for harnesses that embed peri-hooks instead of calling the binary. `fire` runs a whole
// firing; the stages it is made of are exported too, so that an embedder (or a server) can load settings
// once and fire many times: loadSettings -> plan -> execute -> reduce -> settle -> buildReport.
import { useOutputChecks } from './outcome.ts';
import { ZOD_OUTPUT_CHECKS } from './output-schema.ts';
export { fire, type FireOptions } from './fire.ts';
export { loadSettings, type LoadOptions, type LoadedSettings } from './config/index.ts';
export { sourcesToLoad, type SourceOptions } from './config/sources.ts';
export { plan, skipLostOnce, type Plan, type PlanOptions, type PlannedHook, type SkippedHook, type SkipReason } from './plan.ts';
export { execute, reduceItems, type ExecuteOptions, type Executed, type RanHook } from './run/execute.ts';
export { classify, type HookResult } from './outcome.ts';
export { reduce, type Reduced } from './reduce.ts';
export { openSession, type FiringSession, type StateOptions } from './session/store.ts';
export { claimOnce, onceAlreadyRan } from './session/once.ts';
export { decide, settle, type Settled } from './session/settle.ts';
export { buildReport, type ReportParts } from './report/build.ts';
export type { FireReport, HookReport } from './report/types.ts';
export { parseInput, inputSchema, type HookInput } from './input.ts';
export { EVENTS, EVENT_NAMES, checkEvent, type EventName, type EventDef } from './events.ts';
export { renderClaude } from './report/claude.ts';
export { renderDecision } from './report/decision.ts';
export { PeriHooksError, EXIT } from './errors.ts';
export type { Diagnostic, LoadedHook, Provenance, RawOutcome } from './types.ts';

// An embedder's classify is synchronous and words a bad hook output itself, so the library loads zod's output schemas.
useOutputChecks(ZOD_OUTPUT_CHECKS);
