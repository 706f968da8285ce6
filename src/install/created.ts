// What install created goes with uninstall: a settings file install made (no backup of an earlier one, or only a
// backup of install's own text), its backup, and the folders left empty. A file that existed before stays.
import { existsSync, readdirSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { commandWords } from '../config/registration.ts';
import { BACKUP_SUFFIX } from './settings-file.ts';

/** Whether install created `file`: it has no backup, or its backup is itself install's text (a registration in it). */
export function createdByInstall(file: string): boolean {
  const backup = `${file}${BACKUP_SUFFIX}`;
  if (!existsSync(backup)) return true;
  return holdsRegistration(readFileSync(backup, 'utf8'));
}

/** Removes `file`, its backup, and each folder above it left empty, up to (not including) `stop`. */
export function removeCreated(file: string, stop: string): void {
  unlinkSync(file);
  const backup = `${file}${BACKUP_SUFFIX}`;
  if (existsSync(backup)) unlinkSync(backup);
  for (
    let dir = path.dirname(file);
    dir.startsWith(`${stop}${path.sep}`) && readdirSync(dir).length === 0;
    dir = path.dirname(dir)
  )
    rmdirSync(dir);
}

function holdsRegistration(text: string): boolean {
  return [...text.matchAll(/"(?:command|bash)":\s*("(?:[^"\\]|\\.)*")/g)].some((match) => {
    const words = commandWords(JSON.parse(match[1]!) as string);
    return words?.includes('fire') && words.some((word) => /peri-hooks(\.cjs|\.exe)?$/.test(word));
  });
}
