// One run of a suite loads the settings of each distinct source set once: most cases of a file share them.
// The key holds what decides the files a load reads, and the identity (device, inode, size, mtime) of each
// settings file a case names, so two cases share a load only when they would read the same bytes.
// A run is short and its cases do not edit their own settings, which is what makes this safe within one run;
// `--watch` starts every rerun with a new cache.
import { statSync } from 'node:fs';
import path from 'node:path';
import { loadSettings, type LoadedSettings } from '../config/index.ts';
import type { CommandHook } from '../config/schema.ts';
import type { SourcesToLoad } from '../config/sources.ts';

export interface RunSettingsCache {
  load: (sources: SourcesToLoad) => Promise<LoadedSettings>;
  /** Every settings file looked at (missing ones too) and every hook script named by a loaded command hook. */
  files(): string[];
  /** How many loads ran; the rest were served from the cache. */
  loads(): number;
}

export function runSettingsCache(): RunSettingsCache {
  const entries = new Map<string, Promise<LoadedSettings>>();
  const files = new Set<string>();
  let loads = 0;
  return {
    load(sources) {
      const key = cacheKey(sources);
      let loaded = entries.get(key);
      if (!loaded) {
        loads++;
        loaded = loadSettings(sources);
        entries.set(key, loaded);
        loaded.then((settings) => {
          // Inline settings are reported under a label, not a path: there is no file to watch.
          for (const source of settings.sources) if (path.isAbsolute(source.file)) files.add(source.file);
          for (const script of hookScripts(settings, sources.projectDir)) files.add(script);
        }, () => entries.delete(key));
      }
      return loaded;
    },
    files: () => [...files].sort(),
    loads: () => loads,
  };
}

function cacheKey(sources: SourcesToLoad): string {
  const { projectDir, home, managedDir, settings, pluginDirs, settingSources, env } = sources;
  const identities = (settings ?? []).map((value) => (value.trim().startsWith('{') ? value : `${value}@${identity(value)}`));
  return JSON.stringify([projectDir, home, managedDir, identities, pluginDirs, settingSources, env.CLAUDE_CONFIG_DIR, env.PERI_HOOKS_MANAGED_DIR]);
}

function identity(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'unreadable';
  }
}

/** The words of command hooks that name an existing file, `$CLAUDE_PROJECT_DIR` expanded: what `--watch` also watches. */
function hookScripts(settings: LoadedSettings, projectDir: string): string[] {
  const scripts: string[] = [];
  for (const hook of settings.hooks) {
    if (hook.handler.type !== 'command') continue;
    const handler = hook.handler as CommandHook;
    const root = hook.provenance.pluginRoot ?? projectDir;
    for (const word of [handler.command, ...(handler.args ?? [])].flatMap((part) => part.split(/\s+/))) {
      const expanded = word.replace(/["']/g, '').replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, projectDir).replace(/\$\{?CLAUDE_PLUGIN_ROOT\}?/g, root);
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
