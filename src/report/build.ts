// The report of one firing, from the values the stages returned: the plan, what ran, what the session settled.
import type { SourceReport } from '../config/index.ts';
import type { ProjectDirFrom } from '../config/sources.ts';
import type { EventName } from '../events.ts';
import { labelOf } from '../hook-label.ts';
import type { Plan } from '../plan.ts';
import type { Executed } from '../run/execute.ts';
import type { Settled } from '../session/settle.ts';
import type { Diagnostic, LoadedHook } from '../types.ts';
import type { FireReport, HookReport } from './types.ts';

export interface ReportParts {
  event: EventName;
  projectDir: string;
  projectDirFrom?: ProjectDirFrom;
  /** Every settings source read, to name them when none has a hook of the event. */
  sources?: readonly SourceReport[];
  /** Every loaded hook; the report lists those of the event, in configuration order. */
  hooks: readonly LoadedHook[];
  plan: Plan;
  executed: Executed;
  settled: Settled;
  /** The loader's diagnostics. */
  loadDiagnostics: readonly Diagnostic[];
  /** Problems with the session state before the hooks ran (reading it, claiming once hooks). */
  sessionWarnings: readonly string[];
}

export function buildReport({
  event,
  projectDir,
  projectDirFrom,
  sources,
  hooks,
  plan,
  executed,
  settled,
  loadDiagnostics,
  sessionWarnings,
}: ReportParts): FireReport {
  const { reduced, guard, delivered } = settled;
  const ran = new Map(executed.ran.map((entry) => [entry.hook.id, entry]));
  const background = new Map(executed.background.map((entry) => [entry.hook.id, entry]));
  const shortCircuited = new Map(executed.shortCircuited.map((entry) => [entry.hook.id, entry]));
  const skipped = new Map(plan.skipped.map((entry) => [entry.hook.id, entry]));
  const reports = hooks
    .filter((hook) => hook.event === event)
    .map((hook): HookReport => {
      const base = describeHook(hook);
      const run = ran.get(hook.id);
      if (run) {
        const { raw, result } = run;
        return {
          ...base,
          status: 'ran',
          outcome: result.outcome,
          ...(result.blockedBy ? { blockedBy: result.blockedBy } : {}),
          exitCode: raw.exitCode,
          timedOut: raw.timedOut,
          durationMs: Math.round(raw.durationMs),
          stdout: raw.stdout,
          stderr: raw.stderr,
          ...(result.error !== undefined ? { error: result.error } : {}),
          ...(raw.truncated ? { truncated: raw.truncated } : {}),
          answeredInJson: result.answeredInJson,
          ...(result.blockingMessage !== undefined ? { blockingMessage: result.blockingMessage } : {}),
          ...(typeof result.specific?.additionalContext === 'string'
            ? { additionalContext: result.specific.additionalContext }
            : {}),
          ...(result.plainText !== undefined ? { plainText: result.plainText } : {}),
        };
      }
      const job = background.get(hook.id);
      if (job)
        return {
          ...base,
          status: 'skipped',
          skipReason: 'background',
          skipDetail: `runs in the background as job ${job.jobId}; a later firing of the session delivers its messages`,
          asyncJob: job.jobId,
        };
      const cut = shortCircuited.get(hook.id);
      if (cut) return { ...base, status: 'skipped', skipReason: 'short-circuit', skipDetail: cut.detail };
      const skip = skipped.get(hook.id);
      return { ...base, status: 'skipped', skipReason: skip?.reason ?? 'unknown', skipDetail: skip?.detail ?? '' };
    });
  const warnings: Diagnostic[] = [
    ...loadDiagnostics,
    ...sessionWarnings.map(stateDiagnostic),
    ...plan.warnings,
    ...executed.warnings,
    ...settled.warnings.map(stateDiagnostic),
    ...(guard?.overridden
      ? [{ severity: 'warning', code: 'stop-hook-block-cap', message: guard.message! } satisfies Diagnostic]
      : []),
    ...executed.ran
      .filter(({ raw }) => raw.truncated)
      .map(
        ({ hook }): Diagnostic => ({
          severity: 'warning',
          code: 'output-truncated',
          message: `[${labelOf(hook)}]: output beyond 10 MiB was dropped`,
          file: hook.provenance.file,
          pointer: hook.provenance.pointer,
        }),
      ),
  ];

  return {
    event,
    ...(plan.matcherValue !== undefined ? { matcherValue: plan.matcherValue } : {}),
    projectDir,
    ...(projectDirFrom ? { projectDirFrom } : {}),
    ...(sources && reports.length === 0 ? { noHooksFound: { searched: sources.map((source) => source.file) } } : {}),
    ...(reduced.output ? { output: reduced.output } : {}),
    ...(reduced.plainText !== undefined ? { plainText: reduced.plainText } : {}),
    blocked: reduced.blocked,
    ...(reduced.reason !== undefined ? { reason: reduced.reason } : {}),
    exitCode: reduced.blocked ? 2 : 0,
    ...(reduced.failClosed ? { failClosed: true } : {}),
    hooks: reports,
    deciders: reduced.deciders.map((index) => executed.ran[index]!.hook.id),
    errors: reduced.errors,
    warnings,
    ...(guard ? { stopGuard: guard } : {}),
    ...(delivered.length > 0 ? { delivered } : {}),
  };
}

/** A hook's identity and provenance, as every report and listing shows it. */
export function describeHook(hook: LoadedHook): Omit<HookReport, 'status'> {
  return {
    id: hook.id,
    type: hook.handler.type,
    ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
    layer: hook.provenance.layer,
    file: hook.provenance.file,
    pointer: hook.provenance.pointer,
    ...(hook.provenance.pluginName ? { plugin: hook.provenance.pluginName } : {}),
    ...(hook.provenance.via ? { via: hook.provenance.via } : {}),
    label: labelOf(hook),
  };
}

/** A problem with the session state: a warning, and the firing goes on as if the session were new. */
export function stateDiagnostic(message: string): Diagnostic {
  return { severity: 'warning', code: 'session-state', message };
}
