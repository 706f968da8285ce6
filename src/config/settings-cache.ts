// The settings stage of a resident server and of a test run: loadSettings once per project and source set, then a cheap check per request
// (size, mtime, ctime and inode of every file that was read or looked for, absent ones included) reloads
// whatever changed. Correctness rests on that check alone; nothing watches the files.
import { statSync } from 'node:fs';
import path from 'node:path';
import { BoundedMap } from '../platform/bounded-map.ts';
import { ALL_SOURCES, settingsFiles } from './discover.ts';
import { type LoadedSettings, loadSettings } from './index.ts';
import type { SourcesToLoad } from './sources.ts';

interface Entry {
  loaded: Promise<LoadedSettings>;
  /** Each path the load depended on, with what stat said of it then. */
  fingerprint: Promise<Map<string, string>>;
}

export interface SettingsCache {
  load: (sources: SourcesToLoad) => Promise<LoadedSettings>;
  /** How many loads ran (a hit costs none): for tests and the bench. */
  loads(): number;
  /** How many source sets are cached now. */
  size(): number;
}

/**
 * Projects (source sets) kept at once; the one used longest ago goes first. A server answering for any number of
 * projects (each request's cwd) thus holds a bounded amount; one evicted is loaded again when it comes back.
 */
export const MAX_CACHED_PROJECTS = 256;

export function settingsCache(maxEntries = MAX_CACHED_PROJECTS): SettingsCache {
  const entries = new BoundedMap<string, Entry>(maxEntries);
  let loads = 0;
  const fresh = (sources: SourcesToLoad): Entry => {
    loads++;
    const loaded = loadSettings(sources);
    // Stat before the load reads: a change made during the load is then seen by the next request's check.
    const before = new Map(watchedPaths(sources, undefined).map((file) => [file, stamp(file)]));
    const fingerprint = loaded.then(
      (settings) => {
        const all = new Map(before);
        for (const file of watchedPaths(sources, settings)) if (!all.has(file)) all.set(file, stamp(file));
        return all;
      },
      () => before,
    );
    return { loaded, fingerprint };
  };
  return {
    async load(sources) {
      const key = cacheKey(sources);
      const entry = entries.get(key);
      if (entry && unchanged(await entry.fingerprint)) return entry.loaded;
      const next = fresh(sources);
      entries.set(key, next);
      // A load that throws (a permission refusal) is not kept: the next request tries again.
      next.loaded.catch(() => {
        if (entries.get(key) === next) entries.delete(key);
      });
      return next.loaded;
    },
    loads: () => loads,
    size: () => entries.size,
  };
}

/** What decides which files a load reads: the project, the home, the source options and the variables discovery reads. */
function cacheKey(sources: SourcesToLoad): string {
  const { projectDir, home, managedDir, settings, pluginDirs, settingSources, env, mcpConfigs, projectFiles } = sources;
  return JSON.stringify([
    mcpConfigs,
    projectFiles,
    projectDir,
    home,
    managedDir,
    settings,
    pluginDirs,
    settingSources,
    env.CLAUDE_CONFIG_DIR,
    env.PERI_HOOKS_MANAGED_DIR,
  ]);
}

/**
 * Every path a load reads or looks for: the settings file of each layer it loads, the managed drop-in folder (its
 * listing changes its mtime), each plugin folder, and, once loaded, every source file it reported, missing or not.
 * A layer left out by `settingSources` is never read, so its file is not stat-ed on each request either.
 */
function watchedPaths(sources: SourcesToLoad, loaded: LoadedSettings | undefined): string[] {
  const files = settingsFiles(sources);
  const chosen = new Set(sources.settingSources ?? ALL_SOURCES);
  const fixed = [
    ...(['user', 'project', 'local'] as const).filter((layer) => chosen.has(layer)).map((layer) => files[layer]),
    ...(chosen.has('managed') ? [files.managed, path.join(files.managedDir, 'managed-settings.d')] : []),
  ];
  const flagFiles = (sources.settings ?? [])
    .filter((value) => !value.trimStart().startsWith('{'))
    .map((value) => path.resolve(value));
  const plugins = (sources.pluginDirs ?? []).flatMap((dir) => {
    const root = path.resolve(dir);
    return [root, path.join(root, '.claude-plugin', 'plugin.json'), path.join(root, 'hooks', 'hooks.json')];
  });
  // Inline --settings values are labelled `--settings…`, not paths.
  const reported = (loaded?.sources ?? []).map((source) => source.file).filter((file) => path.isAbsolute(file));
  return [...new Set([...fixed, ...flagFiles, ...plugins, ...reported])];
}

function unchanged(fingerprint: Map<string, string>): boolean {
  for (const [file, seen] of fingerprint) if (stamp(file) !== seen) return false;
  return true;
}

function stamp(file: string): string {
  try {
    // Most watched files are absent, checked on every request: a thrown ENOENT costs ten times the stat.
    const stats = statSync(file, { bigint: true, throwIfNoEntry: false });
    return stats ? `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}` : 'absent:ENOENT';
  } catch (error) {
    return `absent:${(error as NodeJS.ErrnoException).code ?? ''}`;
  }
}
