// The state of validating one settings document (spec §1, §5) and its primitives: the checks (the generated ones,
// or zod's once one defers), a diagnostic at a JSON pointer, an entry that cannot load, the file's result.
import type * as z from 'zod';
import { EVENTS, type EventName } from '../events.ts';
import { DEFER, handlerCheck, matcherCheck, sequentialCheck, settingChecks } from '../generated/checks.ts';
import type { LoadedHook, Provenance, Severity } from '../types.ts';
import type { LoaderCode, LoaderDiagnostic } from './codes.ts';
import type { FileResult } from './load.ts';
import { createLocator } from './locate.ts';
import type { FollowedRegistration } from './registration.ts';
import type { ScalarKey, ScalarSettings } from './scalars.ts';
import type { HookHandler } from './schema.ts';

export type Origin = Omit<Provenance, 'pointer'>;

type Checked<T> =
  | { success: true; data: T }
  | { success: false; data?: undefined; error: { issues: z.core.$ZodIssue[] } };

/** How a walk validates each part: the generated checks, which defer what they cannot accept, or zod's schemas. */
export interface Checks {
  scalar(key: ScalarKey, value: unknown): Checked<unknown>;
  matcher(value: unknown): Checked<string | undefined>;
  sequential(value: unknown): Checked<boolean | undefined>;
  handler(value: unknown): Checked<HookHandler>;
}

/** Thrown by the generated checks to abandon a walk: the file is walked again with zod. */
const DEFERRED = new Error('a generated check deferred to zod');

function accepted<T>(data: unknown): Checked<T> {
  if (data === DEFER) throw DEFERRED;
  return { success: true, data: data as T };
}

const GENERATED_CHECKS: Checks = {
  scalar: (key, value) => accepted(settingChecks[key]!(value)),
  matcher: (value) => accepted(matcherCheck(value)),
  sequential: (value) => accepted(sequentialCheck(value)),
  handler: (value) => accepted(handlerCheck(value)),
};

/**
 * Walks a document with the generated checks, so that valid settings never load zod; when one of them defers,
 * the document is walked again with zod's schemas, which accept it or word each problem.
 */
export async function walked(origin: Origin, everyEntry: boolean, visit: (walk: Walk) => void): Promise<Walk> {
  const walk = newWalk(origin, everyEntry, GENERATED_CHECKS);
  try {
    visit(walk);
    return walk;
  } catch (error) {
    if (error !== DEFERRED) throw error;
  }
  const withZod = newWalk(origin, everyEntry, (await import('./zod-checks.ts')).ZOD_CHECKS);
  visit(withZod);
  return withZod;
}

/** The state of validating one file. */
export interface Walk {
  origin: Origin;
  checks: Checks;
  everyEntry: boolean;
  hooks: LoadedHook[];
  unapplied: LoadedHook[];
  /** Above 0 while walking the inside of a dropped entry (only with `everyEntry`). */
  dropped: number;
  diagnostics: LoaderDiagnostic[];
  registrations: FollowedRegistration[];
  /** The first unloadable entry of a guard event: the file is then inapplicable. */
  brokenGuard?: { event: EventName; pointer: string };
}

/** Walks the inside of a dropped entry: only with `everyEntry`, and what loads there is unapplied. */
export function insideDropped(walk: Walk, inside: () => void): void {
  if (!walk.everyEntry) return;
  walk.dropped++;
  inside();
  walk.dropped--;
}

/**
 * An entry that cannot be loaded: dropped, and on a guard event it makes the whole file inapplicable (§1).
 * Exactly these are the loader's errors (with the source-inapplicable summary).
 */
export function unloadable(
  walk: Walk,
  event: EventName,
  pointer: string,
  code: LoaderCode,
  message: string,
  fix?: string,
): void {
  const guard = EVENTS[event].brokenEntryVoidsSource === true && walk.dropped === 0;
  if (guard) walk.brokenGuard ??= { event, pointer };
  add(walk, guard ? 'error' : 'warning', code, pointer, message, fix);
}

export function add(
  walk: Walk,
  severity: Severity,
  code: LoaderCode,
  pointer: string,
  message: string,
  fix?: string,
): void {
  walk.diagnostics.push({
    severity,
    code,
    message,
    file: walk.origin.file,
    pointer,
    ...(fix === undefined ? {} : { fix }),
  });
}

export async function finish(walk: Walk, text: string, settings?: ScalarSettings): Promise<FileResult> {
  const { origin, brokenGuard, diagnostics } = walk;
  if (diagnostics.length > 0) {
    const locate = await createLocator(text);
    for (const diagnostic of diagnostics) Object.assign(diagnostic, locate(diagnostic.pointer!));
    diagnostics.sort((a, b) => a.line! - b.line! || a.column! - b.column!);
  }
  if (brokenGuard) {
    const first = diagnostics.find((d) => d.pointer === brokenGuard.pointer)!;
    diagnostics.push({
      severity: 'error',
      code: 'source-inapplicable',
      file: origin.file,
      pointer: brokenGuard.pointer,
      line: first.line!,
      column: first.column!,
      message: `an unloadable ${brokenGuard.event} entry makes the whole source inapplicable: nothing in ${origin.file} is applied until the entry is fixed`,
      fix: `fix the ${brokenGuard.event} entry above; until then none of this file's hooks or settings apply`,
    });
  }
  const hooks = brokenGuard ? [] : walk.hooks;
  return {
    report: {
      layer: origin.layer,
      file: origin.file,
      status: brokenGuard ? 'inapplicable' : 'loaded',
      hooks: hooks.length,
    },
    hooks,
    unapplied: brokenGuard ? [...walk.hooks, ...walk.unapplied] : walk.unapplied,
    diagnostics,
    ...(brokenGuard || !settings ? {} : { settings }),
    ...(brokenGuard || walk.registrations.length === 0 ? {} : { registrations: walk.registrations }),
  };
}

function newWalk(origin: Origin, everyEntry: boolean, checks: Checks): Walk {
  return { origin, checks, everyEntry, hooks: [], unapplied: [], dropped: 0, diagnostics: [], registrations: [] };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

export function clip(text: string): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
