// Reading the audit log back: its files oldest first (`<file>.9` … `<file>.1`, `<file>`), each line checked
// against the chain. `verify` names the first line that breaks it, and how; the queries read the entries.
import { existsSync, readFileSync } from 'node:fs';
import { type ChainedEntry, chainHash, KEPT_FILES } from './log.ts';

export interface ChainProblem {
  file: string;
  line: number;
  kind: 'edited' | 'removed' | 'inserted' | 'reordered' | 'broken' | 'unreadable';
  message: string;
}

export interface ChainReport {
  ok: boolean;
  files: string[];
  entries: number;
  problem?: ChainProblem;
  /** What verify saw that does not break the chain: a torn line, a chain that starts in a removed file. */
  notes: string[];
}

interface Line {
  file: string;
  number: number;
  text: string;
  entry?: ChainedEntry;
}

/** The log's files, oldest first; a missing `<file>` is an error the caller names. */
export function logFiles(file: string): string[] {
  const rotated = Array.from({ length: KEPT_FILES }, (_, index) => `${file}.${KEPT_FILES - index}`).filter(
    (candidate) => existsSync(candidate),
  );
  return [...rotated, ...(existsSync(file) ? [file] : [])];
}

function lines(files: readonly string[]): Line[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const parts = text.split('\n');
    if (parts.at(-1) === '') parts.pop();
    return parts.map((part, index) => ({ file, number: index + 1, text: part, ...parse(part) }));
  });
}

function parse(text: string): { entry?: ChainedEntry } {
  try {
    const value = JSON.parse(text) as ChainedEntry;
    return typeof value === 'object' &&
      value !== null &&
      typeof value.hash === 'string' &&
      typeof value.prev === 'string'
      ? { entry: value }
      : {};
  } catch {
    return {};
  }
}

/** The line's own hash as it should be: from its text without the hash field (as log.ts wrote it). */
function expectedHash(line: Line): string | undefined {
  const at = line.text.lastIndexOf(',"hash":');
  return at < 0 || !line.entry ? undefined : chainHash(line.entry.prev, `${line.text.slice(0, at)}}`);
}

export function verifyChain(files: readonly string[]): ChainReport {
  const all = lines(files);
  const notes: string[] = [];
  const where = (line: Line) => `${line.file}:${line.number}`;
  const fail = (line: Line, kind: ChainProblem['kind'], message: string): ChainReport => ({
    ok: false,
    files: [...files],
    entries: all.filter((candidate) => candidate.entry).length,
    problem: { file: line.file, line: line.number, kind, message },
    notes,
  });
  const hashes = new Map(all.flatMap((line, index) => (line.entry ? [[line.entry.hash, index] as const] : [])));
  let previous: string | undefined;
  let previousIndex = -1;
  for (let index = 0; index < all.length; index++) {
    const line = all[index]!;
    if (!line.entry) {
      // A write that did not finish: the next append ends it and links past it.
      const next = all.slice(index + 1).find((candidate) => candidate.entry);
      if (!next || next.entry!.prev === previous) {
        notes.push(`${where(line)} is a torn line (a write that did not finish); the chain goes on past it`);
        continue;
      }
      return fail(line, 'unreadable', `${where(line)} is not an audit entry`);
    }
    const entry = line.entry;
    if (expectedHash(line) !== entry.hash)
      return fail(line, 'edited', `${where(line)} was edited: its hash does not match its content`);
    if (previous === undefined) {
      if (entry.prev !== '')
        notes.push(
          `${where(line)} links to an older file that is no longer there (rotated away); the chain is checked from here`,
        );
    } else if (entry.prev !== previous) {
      const before = all[previousIndex]!;
      const linkedTo = hashes.get(entry.prev);
      // The line before links where this one does: that one was put in between.
      if (before.entry!.prev === entry.prev)
        return fail(before, 'inserted', `${where(before)} was inserted: ${where(line)} links past it`);
      if (linkedTo !== undefined && linkedTo > index)
        return fail(
          line,
          'reordered',
          `${where(line)} links to a later line, ${where(all[linkedTo]!)}: lines were reordered`,
        );
      const next = all.slice(index + 1).find((candidate) => candidate.entry);
      if (next?.entry?.prev === previous)
        return fail(line, 'inserted', `${where(line)} was inserted: the line after it links past it`);
      if (linkedTo !== undefined)
        return fail(
          line,
          'removed',
          `${where(line)} follows ${where(all[linkedTo]!)}: the line(s) between were removed`,
        );
      return fail(
        line,
        'removed',
        `${where(line)} links to a line that is not in the log: the line before it was removed`,
      );
    }
    previous = entry.hash;
    previousIndex = index;
  }
  return { ok: true, files: [...files], entries: all.filter((line) => line.entry).length, notes };
}

/** Every whole entry of the log, oldest first. */
export function readEntries(files: readonly string[]): ChainedEntry[] {
  return lines(files).flatMap((line) => (line.entry ? [line.entry] : []));
}
