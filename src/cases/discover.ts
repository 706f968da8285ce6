// Which case files a `peri-hooks test` run reads. The convention: files named `hooks.test.json` or
// `<anything>.hooks.test.json`, and every `*.json` in a `.claude/hooks-tests/` folder. Paths named on the
// command line are taken as they are (a file is read whatever its name; a folder is searched).
import { type Dirent, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../types.ts';

const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

export function isCaseFileName(name: string): boolean {
  return name === 'hooks.test.json' || name.endsWith('.hooks.test.json');
}

export function discoverCaseFiles(paths: readonly string[], cwd: string): { files: string[]; errors: Diagnostic[] } {
  const files = new Set<string>();
  const errors: Diagnostic[] = [];
  for (const given of paths.length > 0 ? paths : ['.']) {
    const absolute = path.resolve(cwd, given);
    let isFolder: boolean;
    try {
      isFolder = statSync(absolute).isDirectory();
    } catch (error) {
      errors.push({
        severity: 'error',
        code: 'case-file-unreadable',
        file: given,
        message: `cannot read ${given}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        fix: 'pass an existing case file or a folder that holds case files',
      });
      continue;
    }
    if (!isFolder) {
      files.add(absolute);
      continue;
    }
    const before = files.size;
    walk(absolute, files);
    if (files.size === before) {
      errors.push({
        severity: 'error',
        code: 'no-case-files',
        file: given,
        message: `no case files under ${given}`,
        fix: 'name case files hooks.test.json or <name>.hooks.test.json, or put them in .claude/hooks-tests/*.json (see docs/guide/testing.md#case-files)',
      });
    }
  }
  return { files: [...files].sort(), errors };
}

function walk(folder: string, found: Set<string>): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  const inTestsFolder = path.basename(folder) === 'hooks-tests' && path.basename(path.dirname(folder)) === '.claude';
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(folder, entry.name);
    // Symbolic links to folders are not followed, so a link loop cannot hang discovery.
    if (entry.isDirectory()) {
      if (SKIPPED_FOLDERS.has(entry.name) || (entry.name.startsWith('.') && entry.name !== '.claude')) continue;
      walk(full, found);
    } else if (entry.isFile() && (isCaseFileName(entry.name) || (inTestsFolder && entry.name.endsWith('.json')))) {
      found.add(full);
    }
  }
}

/** The project a case file tests, and the rule that chose it: the folder holding `.claude/` for files in `.claude/hooks-tests/`, else the file's folder. */
export function defaultProjectDir(file: string): { dir: string; from: string } {
  const folder = path.dirname(file);
  if (path.basename(folder) === 'hooks-tests' && path.basename(path.dirname(folder)) === '.claude') {
    return { dir: path.dirname(path.dirname(folder)), from: "the folder holding the case file's .claude/hooks-tests" };
  }
  return { dir: folder, from: 'the folder holding the case file (no "projectDir" in it)' };
}
