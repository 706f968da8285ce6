// The settings file of a scope, read once and written back atomically (a temporary file renamed over it, its
// mode kept, symlinks followed), with the previous text kept next to it as a backup.
import { chmodSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { settingsFiles } from '../config/discover.ts';
import type { LoadOptions } from '../config/index.ts';
import { PeriHooksError } from '../errors.ts';

export const SCOPES = ['project', 'local', 'user', 'managed'] as const;
export type Scope = (typeof SCOPES)[number];

/** What the backup of a settings file is called: next to it, so that it is found where the file is. */
export const BACKUP_SUFFIX = '.peri-hooks.bak';

export interface SettingsText {
  /** The path as the scope names it. */
  file: string;
  /** The file written: symlinks followed. */
  real: string;
  /** undefined: the file does not exist yet. */
  text: string | undefined;
}

export function scopeFile(scope: Scope, options: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'>): string {
  return settingsFiles(options)[scope];
}

export function readSettingsText(file: string): SettingsText {
  let real: string;
  try {
    real = realpathSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, real: file, text: undefined };
    throw unreadable(file, error);
  }
  try {
    return { file, real, text: readFileSync(real, 'utf8') };
  } catch (error) {
    throw unreadable(file, error);
  }
}

/** Writes `text` in place of what was read; returns the backup's path when there was a file to back up. */
export function writeSettingsText(read: SettingsText, text: string): string | undefined {
  const { real } = read;
  try {
    mkdirSync(path.dirname(real), { recursive: true });
    const current = readSettingsText(read.file).text;
    if (current !== read.text) {
      throw new PeriHooksError('settings-unwritable', `${read.file} changed while peri-hooks was editing it; nothing was written`, 'run the command again');
    }
    const mode = read.text === undefined ? undefined : statSync(real).mode & 0o7777;
    const backup = read.text === undefined ? undefined : `${real}${BACKUP_SUFFIX}`;
    if (backup !== undefined) replaceFile(backup, read.text!, mode);
    replaceFile(real, text, mode);
    return backup;
  } catch (error) {
    if (error instanceof PeriHooksError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new PeriHooksError('settings-unwritable', `cannot write ${read.file}: ${code ?? (error as Error).message}; nothing was changed there`,
      code === 'EACCES' || code === 'EPERM' ? 'run it as a user who may write that file (the managed scope usually needs root)' : 'check the folder exists and is writable');
  }
}

/** Readers see the old file or the new one, never half of either. */
function replaceFile(file: string, text: string, mode: number | undefined): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text, mode === undefined ? {} : { mode });
    if (mode !== undefined) chmodSync(temporary, mode);
    renameSync(temporary, file);
  } catch (error) {
    try { unlinkSync(temporary); } catch { /* never written */ }
    throw error;
  }
}

function unreadable(file: string, error: unknown): PeriHooksError {
  return new PeriHooksError('settings-unreadable', `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; nothing was changed`, 'make it a readable file');
}
