// `test --watch`: wait until one of the suite's files changes. Each file's folder is watched rather than the
// file, so that an editor that saves by writing a new file and renaming it over the old one is still seen.
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Changes closer together than this are one change: an editor's save is often several events. */
const SETTLE_MS = 150;

/** Resolves with the first changed file, or undefined when `signal` aborts. */
export function nextChange(files: readonly string[], signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const byFolder = new Map<string, Set<string>>();
    for (const file of files) {
      const folder = path.dirname(file);
      if (!byFolder.has(folder)) byFolder.set(folder, new Set());
      byFolder.get(folder)!.add(path.basename(file));
    }
    const watchers: FSWatcher[] = [];
    let settle: NodeJS.Timeout | undefined;
    const finish = (changed: string | undefined) => {
      clearTimeout(settle);
      for (const watcher of watchers) watcher.close();
      signal.removeEventListener('abort', stop);
      resolve(changed);
    };
    const stop = () => finish(undefined);
    signal.addEventListener('abort', stop, { once: true });
    for (const [folder, names] of byFolder) {
      try {
        const watcher = watch(folder, (_, name) => {
          if (name === null || !names.has(name)) return;
          clearTimeout(settle);
          settle = setTimeout(() => finish(path.join(folder, name)), SETTLE_MS);
        });
        // A folder that goes away cannot report anything more; the others still do.
        watcher.on('error', () => watcher.close());
        watchers.push(watcher);
      } catch {
        // A folder that does not exist (a settings file of a project without .claude) has nothing to report.
      }
    }
    if (signal.aborted) stop();
  });
}
