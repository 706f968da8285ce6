// Small file-system questions several stages ask.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';

/** Whether `path` is a folder; absent or unreadable is not one. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The most a settings file may hold: hook settings are a few kilobytes, and a reader must never take a device's endless stream. */
export const SETTINGS_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * A settings file's bytes, or why they are not read: a FIFO or a device at a settings path must neither hang the
 * reader (opened without blocking, checked before reading) nor fill its memory (at most `limit` bytes, whatever
 * the size said). An error of the open itself (ENOENT, EACCES…) is thrown.
 */
export function readSettingsBytes(
  file: string,
  limit = SETTINGS_LIMIT_BYTES,
): { bytes: Buffer; stats: Stats } | { refused: string } {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return { refused: 'it is a directory' };
    if (!stats.isFile()) return { refused: 'it is not a regular file (a FIFO, socket or device)' };
    // The size is a hint (0 for some special files, stale for a growing one): read up to one byte past the limit.
    let bytes = Buffer.allocUnsafe(Math.min(stats.size, limit) + 1);
    let size = 0;
    for (let read = -1; read !== 0; size += read) {
      if (size === bytes.length) {
        if (size > limit) return { refused: `it is larger than ${limit} bytes` };
        bytes = Buffer.concat([bytes, Buffer.allocUnsafe(Math.min(size, limit + 1 - size))]);
      }
      read = readSync(fd, bytes, size, bytes.length - size, null);
    }
    return { bytes: bytes.subarray(0, size), stats };
  } finally {
    closeSync(fd);
  }
}
