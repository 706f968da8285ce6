// Read one source and validate it entry by entry (spec §1, §5): a bad group or handler costs only itself,
// except on guard events, where it makes its whole file inapplicable. Every problem is a located diagnostic.
// For `validate`, `everyEntry` also walks what is dropped (an inapplicable file, the inside of a dropped
// entry), so that one mistake does not hide the others; what it finds there never applies. The parts: read.ts
// (text and JSON), scalars.ts (settings besides hooks), entries.ts (events and groups), handler.ts (one
// handler), plugin.ts (a plugin's files), walk.ts (the state of one walk).
import type { LoadedHook } from '../types.ts';
import { LOADER_CODES, type LoaderDiagnostic } from './codes.ts';
import type { SourceSpec } from './discover.ts';
import { walkHooks } from './entries.ts';
import type { SourceReport } from './index.ts';
import { loadPlugin } from './plugin.ts';
import { parseDocument, type Read, readText } from './read.ts';
import type { FollowedRegistration } from './registration.ts';
import { readScalars, type ScalarSettings } from './scalars.ts';
import { finish, type Origin, walked } from './walk.ts';

export interface FileResult {
  report: SourceReport;
  hooks: LoadedHook[];
  /** Hooks that were read but do not apply: an inapplicable file's, and with `everyEntry` those inside dropped entries. */
  unapplied: LoadedHook[];
  diagnostics: LoaderDiagnostic[];
  /** Scalar settings of an applied settings file (never of plugins), each key validated on its own. */
  settings?: ScalarSettings;
  /** peri-hooks' own registrations in the file that can be followed to their policy files (loadSettings does). */
  registrations?: FollowedRegistration[];
}

export async function loadSpec(spec: SourceSpec, everyEntry = false): Promise<FileResult[]> {
  if (spec.kind === 'plugin') return loadPlugin(spec.root, everyEntry);
  const origin: Origin = { layer: spec.layer, file: spec.file };
  const read: Read = spec.kind === 'inline' ? { kind: 'text', text: spec.text } : await readText(spec.file);
  const parsed = await parseDocument(origin, read, spec.kind === 'file' && spec.required === true);
  if (!parsed.ok) return [parsed.result];
  let settings: ScalarSettings = {};
  const walk = await walked(origin, everyEntry, (walk) => {
    settings = readScalars(walk, parsed.value);
    if (parsed.value.hooks !== undefined) walkHooks(walk, parsed.value.hooks, '/hooks');
  });
  const result = await finish(walk, parsed.text, settings);
  if (spec.kind === 'file' && spec.required === true) emptyPolicy(result, parsed.text, settings, parsed.value);
  return [result];
}

/**
 * A policy the user named that holds no hooks says so: a truncated save or a full disk empties a file, and an
 * empty policy enforces nothing. Not where a finding already says why, where the file turns hooks off, nor where
 * it carries settings of its own (a file of `allowedHttpHookUrls` for another policy's http hooks is no policy).
 */
function emptyPolicy(result: FileResult, text: string, settings: ScalarSettings, value: Record<string, unknown>): void {
  if (result.hooks.length > 0 || result.unapplied.length > 0 || settings.disableAllHooks === true) return;
  if (Object.keys(value).some((key) => key !== 'hooks' && key !== '$schema')) return;
  if (result.diagnostics.some((diagnostic) => LOADER_CODES[diagnostic.code] !== 'nothing')) return;
  const file = result.report.file;
  result.diagnostics.push({
    severity: 'warning',
    code: 'policy-without-hooks',
    file,
    message: `the --settings file ${file} ${text.trim() === '' ? 'is empty' : 'holds no hooks'}: none of its policy is enforced`,
    fix: "restore the policy's hooks (a truncated save or a full disk empties a file), or stop naming the file with --settings",
  });
}
