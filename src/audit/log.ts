// The audit log: one JSON line per firing, each carrying the hash of the line before it (`prev`) and its own
// (`hash`, SHA-256 of `prev`, a newline and the line without `hash`), so that an edited, removed, inserted or
// reordered line breaks the chain where it stands (verify.ts). Firings append under a lock, so concurrent ones
// write whole lines in one chain; a torn last line (a crash mid-write) is ended with a newline and skipped by the
// next append, which links to the last whole line. Past `maxBytes` the file rotates to `<file>.1` (`.1` to `.2`,
// …), and the new file's first line links to the rotated file's last: the chain runs across files.
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../platform/hash.ts';
import { acquireLock } from '../session/lock.ts';
import type { AuditEntry } from './entry.ts';

export const AUDIT_VARIABLE = 'PERI_HOOKS_AUDIT';
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** Rotated files kept: `<file>.1` … `<file>.9`. */
export const KEPT_FILES = 9;
/** How much of a file's end is read for its last hash; an entry is far shorter (entry.ts caps its texts). */
const TAIL_BYTES = 1024 * 1024;
const LOCK_WAIT_MS = 5_000;

export interface AuditTarget {
  file: string;
  maxBytes?: number;
}

export type ChainedEntry = AuditEntry & { prev: string; hash: string };

/** The hash of a line: of the previous hash and the line's JSON without its own hash. */
export function chainHash(prev: string, withoutHash: string): string {
  return sha256Hex(`${prev}\n${withoutHash}`);
}

/**
 * Why the log cannot be appended to, or undefined when it can (checked before the hooks run). Its folder is made
 * (private): a registration committed with `~/.local/state/peri-hooks/audit.jsonl` must log on a new machine too.
 */
export function unwritable(target: AuditTarget): string | undefined {
  try {
    mkdirSync(path.dirname(target.file), { recursive: true, mode: 0o700 });
    closeSync(openSync(target.file, 'a', 0o600));
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}

/** Appends one entry; a problem is returned as text, never thrown (it must not change the decision). */
export async function appendEntry(target: AuditTarget, entry: AuditEntry): Promise<string | undefined> {
  const release = await acquireLock(`${target.file}.lock`, { deadline: Date.now() + LOCK_WAIT_MS });
  if (!release) return `the audit log's lock ${target.file}.lock could not be taken within ${LOCK_WAIT_MS / 1000} s`;
  try {
    const { hash: prev, torn } = lastHash(target.file);
    const body = JSON.stringify({ ...entry, prev });
    const line = `${body.slice(0, -1)},"hash":${JSON.stringify(chainHash(prev, body))}}\n`;
    if (size(target.file) + line.length > (target.maxBytes ?? DEFAULT_MAX_BYTES) && size(target.file) > 0)
      rotate(target.file);
    appendFileSync(target.file, torn ? `\n${line}` : line, { mode: 0o600 });
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  } finally {
    release();
  }
}

function size(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function rotate(file: string): void {
  for (let index = KEPT_FILES - 1; index >= 1; index--) {
    if (existsSync(`${file}.${index}`)) renameSync(`${file}.${index}`, `${file}.${index + 1}`);
  }
  renameSync(file, `${file}.1`);
}

/** The hash of the last whole line of the log (in its newest file that has one), and whether the file ends torn. */
function lastHash(file: string): { hash: string; torn: boolean } {
  const current = readTail(file) ?? '';
  const torn = current.length > 0 && !current.endsWith('\n');
  for (const tail of [
    current,
    ...Array.from({ length: KEPT_FILES }, (_, index) => readTail(`${file}.${index + 1}`) ?? ''),
  ]) {
    const lines = tail.split('\n');
    for (let index = lines.length - 1; index >= 0; index--) {
      const hash = hashOf(lines[index]!);
      if (hash !== undefined) return { hash, torn };
    }
  }
  return { hash: '', torn };
}

function hashOf(line: string): string | undefined {
  try {
    const parsed = JSON.parse(line) as { hash?: unknown };
    return typeof parsed.hash === 'string' ? parsed.hash : undefined;
  } catch {
    return undefined;
  }
}

function readTail(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const length = Math.min(statSync(file).size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, statSync(file).size - length);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
