// The report as `fire --output json` prints it: schemaVersion first, then every key of the report in this order,
// null where a run has nothing to say, so that a script reads the same keys whatever happened. The zod schema
// that is published (report/schema.ts) has the same keys; a test keeps the two in step. No zod here: a
// firing must not load it.
import { SCHEMA_VERSION } from '../errors.ts';
import type { Diagnostic } from '../types.ts';
import type { FireReport, HookReport } from './types.ts';

/** Every JSON document peri-hooks prints, by the name `peri-hooks schema <name>` publishes its schema under. */
export const DOCUMENT_NAMES = [
  'report',
  'error',
  'test-report',
  'validate',
  'list',
  'explain',
  'doctor',
  'replay',
  'state',
  'host-report',
  'trust',
] as const;
export type DocumentName = (typeof DOCUMENT_NAMES)[number];

export const REPORT_KEYS = [
  'schemaVersion',
  'event',
  'matcherValue',
  'projectDir',
  'projectDirFrom',
  'noHooksFound',
  'blocked',
  'exitCode',
  'failClosed',
  'reason',
  'output',
  'plainText',
  'hooks',
  'deciders',
  'errors',
  'warnings',
  'stopGuard',
  'delivered',
] as const satisfies ReadonlyArray<keyof FireReport | 'schemaVersion'>;

export const HOOK_KEYS = [
  'id',
  'type',
  'matcher',
  'layer',
  'file',
  'pointer',
  'plugin',
  'label',
  'status',
  'skipReason',
  'skipDetail',
  'outcome',
  'blockedBy',
  'exitCode',
  'timedOut',
  'durationMs',
  'stdout',
  'stderr',
  'error',
  'truncated',
  'answeredInJson',
  'blockingMessage',
  'additionalContext',
  'plainText',
  'asyncJob',
  'via',
] as const satisfies ReadonlyArray<keyof HookReport>;

export const STOP_GUARD_KEYS = ['count', 'cap', 'overridden', 'message'] as const satisfies ReadonlyArray<
  keyof NonNullable<FireReport['stopGuard']>
>;

export const ASYNC_RESULT_KEYS = [
  'jobId',
  'hookId',
  'label',
  'event',
  'finishedAt',
  'systemMessage',
  'additionalContext',
  'rewake',
] as const satisfies ReadonlyArray<keyof NonNullable<FireReport['delivered']>[number]>;

export const DIAGNOSTIC_KEYS = [
  'severity',
  'code',
  'message',
  'file',
  'line',
  'column',
  'pointer',
  'fix',
] as const satisfies ReadonlyArray<keyof Diagnostic>;

/** Arrays that are empty rather than null when a run has none. */
const LISTS = new Set<string>(['hooks', 'deciders', 'errors', 'warnings', 'delivered']);

function ordered(value: object, keys: readonly string[]): Record<string, unknown> {
  const source = value as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key, source[key] ?? (LISTS.has(key) ? [] : null)]));
}

export function reportDocument(report: FireReport): Record<string, unknown> {
  return ordered(
    {
      ...report,
      schemaVersion: SCHEMA_VERSION,
      hooks: report.hooks.map((hook) =>
        ordered(
          {
            ...hook,
            truncated: hook.truncated && {
              stdout: hook.truncated.stdout === true,
              stderr: hook.truncated.stderr === true,
            },
          },
          HOOK_KEYS,
        ),
      ),
      warnings: report.warnings.map((warning) => ordered(warning, DIAGNOSTIC_KEYS)),
      stopGuard: report.stopGuard && ordered(report.stopGuard, STOP_GUARD_KEYS),
      delivered: report.delivered?.map((result) => ordered(result, ASYNC_RESULT_KEYS)),
    },
    REPORT_KEYS,
  );
}
