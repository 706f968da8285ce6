// The audit stage of a firing (fire.ts): whether the log can be written, checked before the decision, and the
// entry appended after it. A log that cannot be written is a warning; it never changes the decision, except
// under --fail-closed, where fire counts it as unenforced before reducing.
import type { HookInput } from '../input/parse.ts';
import type { FireReport } from '../report/types.ts';
import type { Diagnostic, LoadedHook } from '../types.ts';
import { auditEntry } from './entry.ts';
import { type AuditTarget, appendEntry, unwritable } from './log.ts';

/** The reason the log cannot be written, as fire's unenforced list takes it; undefined when it can. */
export function unwritableAudit(target: AuditTarget): string | undefined {
  const why = unwritable(target);
  return why === undefined ? undefined : `the audit log ${target.file} cannot be written (${why})`;
}

export interface AuditedFiring {
  report: FireReport;
  input: HookInput;
  hooks: readonly LoadedHook[];
  env: Record<string, string | undefined>;
  durationMs: number;
  time: string;
}

/** Appends the firing; the warnings to add to its report (none when it was written). */
export async function auditFiring(
  target: AuditTarget,
  known: string | undefined,
  firing: AuditedFiring,
): Promise<Diagnostic[]> {
  const warn = (message: string): Diagnostic[] => [
    {
      severity: 'warning',
      code: 'audit-unwritable',
      message,
      fix: 'give --audit (or PERI_HOOKS_AUDIT) a file this user can write (a missing folder is made)',
    },
  ];
  if (known) return warn(known);
  const problem = await appendEntry(
    target,
    auditEntry(firing.report, firing.input, firing.hooks, firing.env, firing.durationMs, firing.time),
  );
  return problem === undefined ? [] : warn(`the audit log ${target.file} was not written (${problem})`);
}
