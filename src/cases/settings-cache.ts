// One run of a suite loads the settings of each distinct source set once (most cases of a file share them),
// through the server's cache (config/settings-cache.ts), which reloads what changed on disk; this adds the
// files `--watch` watches: every settings file looked at and every hook script a loaded command hook names.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { LoadedSettings } from '../config/index.ts';
import type { CommandHook } from '../config/schema.ts';
import { settingsCache } from '../config/settings-cache.ts';
import type { SourcesToLoad } from '../config/sources.ts';

export interface RunSettingsCache {
  load: (sources: SourcesToLoad) => Promise<LoadedSettings>;
  /** Every settings file looked at (missing ones too) and every hook script named by a loaded command hook. */
  files(): string[];
  /** How many loads ran; the rest were served from the cache. */
  loads(): number;
}

export function runSettingsCache(): RunSettingsCache {
  const cache = settingsCache();
  const files = new Set<string>();
  const seen = new WeakSet<LoadedSettings>();
  return {
    async load(sources) {
      const settings = await cache.load(sources);
      if (!seen.has(settings)) {
        seen.add(settings);
        // Inline settings are reported under a label, not a path: there is no file to watch.
        for (const source of settings.sources) if (path.isAbsolute(source.file)) files.add(source.file);
        for (const script of hookScripts(settings, sources.projectDir)) files.add(script);
      }
      return settings;
    },
    files: () => [...files].sort(),
    loads: () => cache.loads(),
  };
}

/** The words of command hooks that name an existing file, `$CLAUDE_PROJECT_DIR` expanded: what `--watch` also watches. */
function hookScripts(settings: LoadedSettings, projectDir: string): string[] {
  const scripts: string[] = [];
  for (const hook of settings.hooks) {
    if (hook.handler.type !== 'command') continue;
    const handler = hook.handler as CommandHook;
    const root = hook.provenance.pluginRoot ?? projectDir;
    for (const word of [handler.command, ...(handler.args ?? [])].flatMap((part) => part.split(/\s+/))) {
      const expanded = word
        .replace(/["']/g, '')
        .replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, projectDir)
        .replace(/\$\{?CLAUDE_PLUGIN_ROOT\}?/g, root);
      if (expanded === '' || !/[/.]/.test(expanded)) continue;
      const file = path.resolve(projectDir, expanded);
      if (isFile(file)) scripts.push(file);
    }
  }
  return scripts;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
