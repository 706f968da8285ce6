// The settings stage: discover → load + validate → merge (spec §1, §9). Loading never throws for the
// user's mistakes: they come back as diagnostics, and every other source still loads.
import type { EffectiveSettings, Layer, LoadedHook } from '../types.ts';
import type { LoaderDiagnostic } from './codes.ts';
import { discover } from './discover.ts';
import { loadSpec } from './load.ts';
import { merge } from './merge.ts';

export interface LoadOptions {
  projectDir: string;
  /** The user's home (the caller decides; os.homedir() by default). */
  home: string;
  /** CLAUDE_CONFIG_DIR and PERI_HOOKS_MANAGED_DIR are read from here, never from process.env. */
  env: Record<string, string | undefined>;
  /** The managed-policy folder; wins over PERI_HOOKS_MANAGED_DIR and the platform default. */
  managedDir?: string;
  /** --settings values in order: a file path, or inline JSON when the trimmed value starts with `{`. */
  settings?: string[];
  /** --plugin-dir values in order. */
  pluginDirs?: string[];
  /** Default all four; [] loads only --settings and plugins. */
  settingSources?: Array<'managed' | 'user' | 'project' | 'local'>;
  /** For `validate`: also read the inside of dropped entries, and return what does not apply as `unapplied`. */
  everyEntry?: boolean;
}

export interface SourceReport {
  layer: Layer;
  file: string;
  status: 'loaded' | 'missing' | 'invalid' | 'inapplicable';
  hooks: number;
}

export interface LoadedSettings {
  /** Every valid handler of every event in configuration order; hooks turned off by policy carry disabledReason. */
  hooks: LoadedHook[];
  settings: EffectiveSettings;
  diagnostics: LoaderDiagnostic[];
  sources: SourceReport[];
  /** With `everyEntry`: hooks read but not applied (an inapplicable file, a dropped entry); never fired. */
  unapplied?: LoadedHook[];
}

export async function loadSettings(options: LoadOptions): Promise<LoadedSettings> {
  const discovery = await discover(options);
  const results = (await Promise.all(discovery.specs.map((spec) => loadSpec(spec, options.everyEntry === true)))).flat();
  const { hooks, settings } = merge(results);
  return {
    hooks,
    settings,
    diagnostics: [...discovery.diagnostics, ...results.flatMap((r) => r.diagnostics)],
    sources: results.map((r) => r.report),
    ...(options.everyEntry ? { unapplied: results.flatMap((r) => r.unapplied) } : {}),
  };
}
