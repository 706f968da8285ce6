// `test --watch`: wait until one of the suite's files changes. Each file's folder is watched rather than the
// file, so that an editor that saves by writing a new file and renaming it over the old one is still seen.
// A watch starts when it is made, so one made before a run sees the changes saved during it.
import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';

/** Changes closer together than this are one change: an editor's save is often several events. */
const SETTLE_MS = 150;

export interface Watch {
  /** The first changed file; undefined when the signal aborts or the watch is closed. */
  next: Promise<string | undefined>;
  /** Whether a change has come (next has resolved with a file). */
  changed(): boolean;
  close(): void;
}

/** Watches `files` from now on, until the first change (after it settles), `signal` aborts, or close(). */
export function watchChanges(files: readonly string[], signal: AbortSignal): Watch {
  const byFolder = new Map<string, Set<string>>();
  for (const file of files) {
    const folder = path.dirname(file);
    if (!byFolder.has(folder)) byFolder.set(folder, new Set());
    byFolder.get(folder)!.add(path.basename(file));
  }
  const watchers: FSWatcher[] = [];
  let settle: NodeJS.Timeout | undefined;
  let changed: string | undefined;
  let resolve: (file: string | undefined) => void = () => {};
  const next = new Promise<string | undefined>((done) => {
    resolve = done;
  });
  const finish = (file: string | undefined) => {
    clearTimeout(settle);
    for (const watcher of watchers.splice(0)) watcher.close();
    signal.removeEventListener('abort', close);
    changed ??= file;
    resolve(file);
  };
  const close = () => finish(undefined);
  signal.addEventListener('abort', close, { once: true });
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
  if (signal.aborted) close();
  return { next, changed: () => changed !== undefined, close };
}
