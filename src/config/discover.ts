// Which settings files exist to be read, per layer, in Claude Code's collection order (spec §9.1):
// user → project → local → flag → managed (managed-settings.json, then managed-settings.d/*.json) → plugins.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { deniedPermissionFlag, permissionError } from '../errors.ts';
import { isDirectory } from '../platform/files.ts';
import type { LoaderDiagnostic } from './codes.ts';
import type { LoadOptions } from './index.ts';

export type SettingsLayer = 'managed' | 'user' | 'project' | 'local' | 'flag';

export type SourceSpec =
  /** A settings file; `required` when the user named it (a missing --settings file is worth a warning). */
  | { kind: 'file'; layer: SettingsLayer; file: string; required?: boolean }
  /** Inline JSON given to --settings; `file` is its label. */
  | { kind: 'inline'; layer: 'flag'; file: string; text: string }
  | { kind: 'plugin'; root: string };

export interface Discovery {
  specs: SourceSpec[];
  diagnostics: LoaderDiagnostic[];
}

/** The settings layers a user can name (`--setting-sources`), in load order. */
export const ALL_SOURCES = ['managed', 'user', 'project', 'local'] as const;

export function defaultManagedDir(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode';
  return '/etc/claude-code';
}

/** The settings file of each layer that has one (and the managed folder, for its drop-ins). */
export function settingsFiles(
  options: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'>,
): Record<'user' | 'project' | 'local' | 'managed' | 'managedDir', string> {
  const managedDir = path.resolve(options.managedDir ?? (options.env.PERI_HOOKS_MANAGED_DIR || defaultManagedDir()));
  const configDir = options.env.CLAUDE_CONFIG_DIR
    ? path.resolve(options.env.CLAUDE_CONFIG_DIR)
    : path.join(path.resolve(options.home), '.claude');
  const projectClaude = path.join(path.resolve(options.projectDir), '.claude');
  return {
    user: path.join(configDir, 'settings.json'),
    project: path.join(projectClaude, 'settings.json'),
    local: path.join(projectClaude, 'settings.local.json'),
    managed: path.join(managedDir, 'managed-settings.json'),
    managedDir,
  };
}

export async function discover(options: LoadOptions): Promise<Discovery> {
  const chosen = new Set(options.settingSources ?? ALL_SOURCES);
  const files = settingsFiles(options);
  const [dropIns, plugins] = await Promise.all([
    chosen.has('managed') ? listDropIns(path.join(files.managedDir, 'managed-settings.d')) : [],
    Promise.all((options.pluginDirs ?? []).map(checkPluginDir)),
  ]);

  const specs: SourceSpec[] = [];
  const diagnostics: LoaderDiagnostic[] = [];
  if (chosen.has('user')) specs.push({ kind: 'file', layer: 'user', file: files.user });
  // Project dir = home: the project file is the user file, read once, as user.
  if (chosen.has('project') && !(chosen.has('user') && files.project === files.user))
    specs.push({ kind: 'file', layer: 'project', file: files.project });
  if (chosen.has('local')) specs.push({ kind: 'file', layer: 'local', file: files.local });
  specs.push(...flagSpecs(options.settings ?? []));
  if (chosen.has('managed')) {
    specs.push({ kind: 'file', layer: 'managed', file: files.managed });
    for (const file of dropIns) specs.push({ kind: 'file', layer: 'managed', file });
  }
  for (const plugin of plugins) {
    if ('root' in plugin) specs.push({ kind: 'plugin', root: plugin.root });
    else diagnostics.push(plugin.diagnostic);
  }
  return { specs, diagnostics };
}

function flagSpecs(values: string[]): SourceSpec[] {
  const inlineCount = values.filter(isInline).length;
  let inlineIndex = 0;
  return values.map((value): SourceSpec => {
    if (!isInline(value)) return { kind: 'file', layer: 'flag', file: path.resolve(value), required: true };
    inlineIndex++;
    // Labels stay `--settings` when unambiguous; several inline values need distinct labels for unique hook ids.
    return {
      kind: 'inline',
      layer: 'flag',
      file: inlineCount === 1 ? '--settings' : `--settings[${inlineIndex}]`,
      text: value,
    };
  });
}

function isInline(value: string): boolean {
  return value.trimStart().startsWith('{');
}

/** managed-settings.d/*.json sorted by name (code-unit order); hidden files are skipped like a shell glob would. */
async function listDropIns(dir: string): Promise<string[]> {
  try {
    const names = readdirSync(dir);
    return names
      .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
      .sort()
      .map((name) => path.join(dir, name));
  } catch (error) {
    const flag = deniedPermissionFlag(error);
    if (flag) throw permissionError(`to list ${dir}`, flag);
    return []; // no drop-in folder is the normal case
  }
}

async function checkPluginDir(dir: string): Promise<{ root: string } | { diagnostic: LoaderDiagnostic }> {
  const root = path.resolve(dir);
  if (isDirectory(root)) return { root };
  return {
    diagnostic: {
      severity: 'warning',
      code: 'plugin-dir-missing',
      message: `Plugin directory does not exist: ${root}`,
      file: root,
      fix: 'check the --plugin-dir path; it must be the plugin folder (the one holding .claude-plugin/ or hooks/)',
    },
  };
}
