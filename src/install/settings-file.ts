// The settings file of a scope, read once (as `fire` reads it: a regular file, bounded) and written back
// atomically (a temporary file renamed over it, its mode kept, symlinks followed), with the text before the first
// install kept next to it as a backup. A file whose bytes peri-hooks cannot give back as they were is refused.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { settingsFiles } from '../config/discover.ts';
import type { LoadOptions } from '../config/index.ts';
import { PeriHooksError } from '../errors.ts';
import { readSettingsBytes } from '../platform/files.ts';

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
  /** Why writing the file would change more than its text (its bytes, its links, its mode): it is then not written. */
  unfaithful?: string;
  /** The file starts with a byte order mark: kept out of `text` (as fire reads it), and written back before it. */
  bom?: true;
}

export function scopeFile(
  scope: Scope,
  options: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'>,
): string {
  return settingsFiles(options)[scope];
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function readSettingsText(file: string): SettingsText {
  let real: string;
  try {
    real = realpathSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unreadable(file, error);
    const target = danglingTarget(file);
    return {
      file,
      real: file,
      text: undefined,
      ...(target === undefined
        ? {}
        : {
            unfaithful: `it is a symlink to ${target}, which does not exist: writing it would put a file in place of the link`,
          }),
    };
  }
  let read: ReturnType<typeof readSettingsBytes>;
  try {
    read = readSettingsBytes(real);
  } catch (error) {
    throw unreadable(file, error);
  }
  if ('refused' in read) throw unreadable(file, read.refused);
  try {
    return { file, real, ...withoutBom(UTF8.decode(read.bytes)), ...unfaithful(read.stats) };
  } catch {
    const at = firstInvalidUtf8(read.bytes);
    return {
      file,
      real,
      ...withoutBom(read.bytes.toString('utf8')),
      unfaithful: `it is not valid UTF-8 (byte ${at}): its text cannot be edited without changing bytes that are not peri-hooks'`,
    };
  }
}

function withoutBom(text: string): { text: string; bom?: true } {
  return text.charCodeAt(0) === 0xfeff ? { text: text.slice(1), bom: true } : { text };
}

/** A file edited by replacing it loses its other hard links, and a read-only one was meant to stay as it is. */
function unfaithful(stats: Stats): { unfaithful?: string } {
  if (stats.nlink > 1)
    return {
      unfaithful: `it has ${stats.nlink} hard links: writing it would leave the other ${stats.nlink - 1} with the old text`,
    };
  if ((stats.mode & 0o200) === 0)
    return { unfaithful: `it is read-only (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')})` };
  return {};
}

function danglingTarget(file: string): string | undefined {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/** The offset of the first byte that does not decode: where the lossy decoding stops giving the bytes back. */
function firstInvalidUtf8(bytes: Buffer): number {
  let offset = 0;
  for (const char of bytes.toString('utf8')) {
    const encoded = Buffer.from(char);
    if (!bytes.subarray(offset, offset + encoded.length).equals(encoded)) return offset;
    offset += encoded.length;
  }
  return offset;
}

/** Throws, before anything is written, when one of the files cannot be written faithfully. */
export function checkWritable(reads: readonly SettingsText[]): void {
  for (const read of reads) {
    if (read.unfaithful !== undefined) {
      throw new PeriHooksError(
        'settings-unwritable',
        `${read.file} cannot be edited faithfully: ${read.unfaithful}; nothing was changed`,
        'edit the file by hand, or make it a plain, writable UTF-8 file and run the command again',
      );
    }
  }
}

/** Writes `text` in place of what was read; returns the backup's path when there is one. */
export function writeSettingsText(read: SettingsText, text: string): string | undefined {
  checkWritable([read]);
  const { real } = read;
  try {
    mkdirSync(path.dirname(real), { recursive: true });
    const current = readSettingsText(read.file).text;
    if (current !== read.text) {
      throw new PeriHooksError(
        'settings-unwritable',
        `${read.file} changed while peri-hooks was editing it; nothing was written`,
        'run the command again',
      );
    }
    const mode = read.text === undefined ? undefined : lstatSync(real).mode & 0o7777;
    const backup = read.text === undefined ? undefined : `${real}${BACKUP_SUFFIX}`;
    // The first backup is the file before peri-hooks touched it; a later install or an uninstall keeps it. Anything
    // else at its name (a link a repository planted, a folder) is no backup: the rename puts one in its place.
    const bom = read.bom ? '\ufeff' : '';
    if (backup !== undefined && !isPlainFile(backup)) replaceFile(backup, bom + read.text!, mode);
    replaceFile(real, bom + text, mode);
    return backup;
  } catch (error) {
    if (error instanceof PeriHooksError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new PeriHooksError(
      'settings-unwritable',
      `cannot write ${read.file}: ${code ?? (error as Error).message}; nothing was changed there`,
      code === 'EACCES' || code === 'EPERM'
        ? 'run it as a user who may write that file (the managed scope usually needs root)'
        : 'check the folder exists and is writable',
    );
  }
}

/** The text of the backup install kept of `read`'s file, when there is one that reads as UTF-8. */
export function firstBackup(read: SettingsText): string | undefined {
  const file = `${read.real}${BACKUP_SUFFIX}`;
  if (!isPlainFile(file)) return undefined;
  try {
    const backup = readSettingsBytes(file);
    return 'refused' in backup ? undefined : withoutBom(UTF8.decode(backup.bytes)).text;
  } catch {
    return undefined;
  }
}

/** A regular file under its own name, not a link to one. */
function isPlainFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Readers see the old file or the new one, never half of either. The temporary file next to it has a name no one
 * can guess and is created exclusively (O_EXCL), so that a link planted there is never written through.
 */
export function replaceFile(file: string, content: string | Uint8Array, mode: number | undefined): void {
  const { temporary, fd } = createTemporary(file, mode);
  try {
    try {
      const bytes = typeof content === 'string' ? Buffer.from(content) : content;
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
      if (mode !== undefined) fchmodSync(fd, mode);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      /* gone already */
    }
    throw error;
  }
}

function createTemporary(file: string, mode: number | undefined): { temporary: string; fd: number } {
  for (let attempt = 1; ; attempt++) {
    const temporary = path.join(
      path.dirname(file),
      `.${path.basename(file)}.${randomBytes(9).toString('base64url')}.tmp`,
    );
    try {
      return { temporary, fd: openSync(temporary, 'wx', mode ?? 0o666) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === 5) throw error;
    }
  }
}

function unreadable(file: string, error: unknown): PeriHooksError {
  const reason =
    typeof error === 'string' ? error : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
  return new PeriHooksError(
    'settings-unreadable',
    `cannot read ${file}: ${reason}; nothing was changed`,
    'make it a readable file',
  );
}
