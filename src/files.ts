// Small file-system questions several stages ask.
import { statSync } from 'node:fs';

/** Whether `path` is a folder; absent or unreadable is not one. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
