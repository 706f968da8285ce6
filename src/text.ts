// Display helpers for people: tables, paths, URLs, diagnostics. No dependencies, so any module may use them.
import path from 'node:path';
import type { Diagnostic } from './types.ts';

/** One diagnostic with its place and fix; `prefix` '' drops the program name (for lists under a heading). */
export function formatDiagnostic(diagnostic: Diagnostic, prefix = 'peri-hooks: '): string {
  const where = diagnostic.file
    ? `${diagnostic.file}${diagnostic.line !== undefined ? `:${diagnostic.line}:${diagnostic.column ?? 1}` : ''}${diagnostic.pointer ? ` (${diagnostic.pointer})` : ''}: `
    : '';
  return `${prefix}${diagnostic.severity}: ${where}${diagnostic.message}${diagnostic.fix ? `\n  fix: ${diagnostic.fix}` : ''}`;
}

/** Rows as left-aligned columns; the last column is not padded. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, cell.length); });
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

/** A path relative to `cwd` (the current directory by default) when it lies inside it; otherwise as given. */
export function displayPath(file: string, cwd = process.cwd()): string {
  const relative = path.relative(cwd, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** What the URL parser would take for userinfo, for text it cannot parse: up to the last `@` of the authority. */
const USERINFO = /^(\s*[a-z][a-z0-9+.-]*:[\\/]*)[^/?#\\]*@/i;

/**
 * A URL as every message, label and report shows it: the user name and password, which may be credentials,
 * become `***`. A URL without them is shown as written (a URL object as its href).
 */
export function shownUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return String(url).replace(USERINFO, '$1***@');
  }
  if (parsed.username === '' && parsed.password === '') return typeof url === 'string' ? url : url.href;
  const masked = new URL(parsed.href);
  masked.username = '***';
  masked.password = '';
  return masked.href;
}

/** Where a hook is configured, for the hook tables of list and explain: layer, plugin, file and line. */
export function sourceCell(hook: { layer: string; plugin?: string; file: string }, line: number | undefined): string {
  return `${hook.layer}${hook.plugin ? `:${hook.plugin}` : ''} ${displayPath(hook.file)}${line !== undefined ? `:${line}` : ''}`;
}

/** Words wrapped at `width`, each line indented. */
export function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current && (current + word).length > width) {
      lines.push(current.trimEnd());
      current = '';
    }
    current += `${word} `;
  }
  if (current) lines.push(current.trimEnd());
  return lines.map((item) => indent + item).join('\n');
}

/** `1 hook`, `3 hooks`. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
