// The settings stage: discover → load + validate → merge (spec §1, §9). Loading never throws for the
// user's mistakes: they come back as diagnostics, and every other source still loads.

import path from 'node:path';
import type { EffectiveSettings, Layer, LoadedHook } from '../types.ts';
import type { LoaderDiagnostic } from './codes.ts';
import { discover, type SettingsLayer } from './discover.ts';
import { type FileResult, loadSpec } from './load.ts';
import { lookupOptions } from './mcp/lookup-options.ts';
import type { ServerCatalogue } from './mcp/servers.ts';
import { merge } from './merge.ts';
import { projectArgs } from './registration.ts';

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
  /** `--mcp-config` values: MCP servers for mcp_tool hooks, after the configured ones. */
  mcpConfigs?: readonly string[];
  /** false: the project's own MCP files (.mcp.json, .claude/settings.local.json) are not read (serve asks). */
  projectFiles?: boolean;
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
  /**
   * The MCP servers these sources define for mcp_tool hooks, looked up when called (only a firing or an inspection
   * with such a hook pays for it) and afresh on each call, so that a cached load sees an edited .mcp.json.
   */
  mcpServers: () => Promise<ServerCatalogue>;
}

export async function loadSettings(options: LoadOptions): Promise<LoadedSettings> {
  const discovery = await discover(options);
  const found = (await Promise.all(discovery.specs.map((spec) => loadSpec(spec, options.everyEntry === true)))).flat();
  const results = [...found, ...(await followRegistrations(found, options))];
  const { hooks, settings } = merge(results);
  return {
    hooks,
    settings,
    diagnostics: [...discovery.diagnostics, ...results.flatMap((r) => r.diagnostics)],
    sources: results.map((r) => r.report),
    ...(options.everyEntry ? { unapplied: results.flatMap((r) => r.unapplied) } : {}),
    mcpServers: mcpServersOf(options),
  };
}

/** Where the MCP servers of `options` are defined (spec harnesses §4.2), as a lookup to run when they are needed. */
export function mcpServersOf(options: LoadOptions): () => Promise<ServerCatalogue> {
  const lookup = lookupOptions(options, options.mcpConfigs);
  return async () => (await import('./mcp/lookup.ts')).lookupServers(lookup);
}

/**
 * peri-hooks' own registrations, followed: each policy file they name is loaded (once, in the layer of the file
 * that registers it) with the hooks of the events registered for it, each marked with the registration it came
 * through. A file that is a source already is not loaded again; a followed file's own registrations are not followed.
 */
async function followRegistrations(results: readonly FileResult[], options: LoadOptions): Promise<FileResult[]> {
  const wanted = new Map<string, { layer: SettingsLayer; events: Set<string>; via: string }>();
  const loaded = new Set(results.map((result) => result.report.file));
  for (const result of results) {
    for (const registration of result.registrations ?? []) {
      const files = projectArgs(registration.args, options.projectDir).flatMap((arg, i, args) =>
        args[i - 1] === '--settings' ? [arg] : arg.startsWith('--settings=') ? [arg.slice(11)] : [],
      );
      for (const file of files
        .map((policy) => path.resolve(options.projectDir, policy))
        .filter((file) => !loaded.has(file))) {
        const entry = wanted.get(file) ?? {
          layer: result.report.layer as SettingsLayer /* load.ts records none of a plugin */,
          events: new Set<string>(),
          via: `${result.report.file}#${registration.pointer}`,
        };
        entry.events.add(registration.event);
        wanted.set(file, entry);
      }
    }
  }
  return Promise.all(
    [...wanted].map(async ([file, { layer, events, via }]) => {
      const [result] = await loadSpec({ kind: 'file', layer, file, required: true }, options.everyEntry === true);
      const through = (hooks: FileResult['hooks']) =>
        hooks
          .filter((hook) => events.has(hook.event))
          .map((hook) => ({ ...hook, provenance: { ...hook.provenance, via } }));
      const { registrations: _notFollowed, ...rest } = result!;
      return {
        ...rest,
        hooks: through(rest.hooks),
        unapplied: through(rest.unapplied),
        report: { ...rest.report, hooks: through(rest.hooks).length },
      };
    }),
  );
}
