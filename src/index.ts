// The library API, for harnesses that embed peri-hooks instead of calling the binary. `fire` runs a whole
// firing; the stages it is made of are exported too, so that an embedder (or a server) can load settings
// once and fire many times: loadSettings -> plan -> execute -> reduce -> settle -> buildReport.
import { useOutputChecks } from './outcome.ts';
import { ZOD_OUTPUT_CHECKS } from './output/schema.ts';

export { type LoadedSettings, type LoadOptions, loadSettings } from './config/index.ts';
export { type SourceOptions, sourcesToLoad } from './config/sources.ts';
export { EXIT, PeriHooksError } from './errors.ts';
export { checkEvent, EVENT_NAMES, EVENTS, type EventDef, type EventName } from './events.ts';
export { type FireOptions, fire } from './fire.ts';
export { type HookInput, inputSchema, parseInput } from './input/parse.ts';
export { classify, type HookResult } from './outcome.ts';
export {
  type Plan,
  type PlannedHook,
  type PlanOptions,
  plan,
  type SkippedHook,
  type SkipReason,
  skipLostOnce,
} from './plan.ts';
export { type Reduced, reduce } from './reduce.ts';
export { buildReport, type ReportParts } from './report/build.ts';
export { renderClaude } from './report/claude.ts';
export { renderDecision } from './report/decision.ts';
export type { FireReport, HookReport } from './report/types.ts';
export { type Executed, type ExecuteOptions, execute, type RanHook, reduceItems } from './run/execute.ts';
export { claimOnce, onceAlreadyRan } from './session/once.ts';
export { decide, type Settled, settle } from './session/settle.ts';
export { type FiringSession, openSession, type StateOptions } from './session/store.ts';
export type { Diagnostic, LoadedHook, Provenance, RawOutcome } from './types.ts';

// An embedder's classify is synchronous and words a bad hook output itself, so the library loads zod's output schemas.
useOutputChecks(ZOD_OUTPUT_CHECKS);
