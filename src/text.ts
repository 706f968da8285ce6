// Display helpers for people: tables, paths, URLs, diagnostics. No dependencies, so any module may use them.
import path from 'node:path';
import type { Diagnostic } from './types.ts';

/** One diagnostic with its place and fix; `prefix` '' drops the program name (for lists under a heading). */
export function formatDiagnostic(diagnostic: Diagnostic, prefix = 'peri-hooks: '): string {
  const where = diagnostic.file
    ? `${diagnostic.file}${diagnostic.line !== undefined ? `:${diagnostic.line}:${diagnostic.column ?? 1}` : ''}${diagnostic.pointer ? ` (${diagnostic.pointer})` : ''}: `
    : '';
  const fix = fixWithDoc(diagnostic);
  return `${prefix}${diagnostic.severity}: ${where}${diagnostic.message}${fix ? `\n  fix: ${fix}` : ''}`;
}

/**
 * A diagnostic's fix for people, with where its code is explained: the code's row in the diagnostics reference
 * (test/diagnostics-doc.test.ts keeps a row for every code). JSON documents keep `fix` and `code` apart.
 */
export function fixWithDoc(diagnostic: Pick<Diagnostic, 'code' | 'fix'>): string | undefined {
  return diagnostic.fix && `${diagnostic.fix} (docs/reference/diagnostics.md#${diagnostic.code})`;
}

export interface TableOptions {
  /** Per column; left by default. */
  align?: ReadonlyArray<'left' | 'right'>;
  /** The terminal's width: wider rows are cut, widest column first, each cut cell ending in `…`. */
  width?: number;
}

const ANSI = /\x1b\[[0-9;]*m/g;
const COLUMN_GAP = 2;
/** A column is not cut narrower than this. */
const NARROWEST = 8;

/** How many columns a cell takes on a terminal: its characters without colour codes. */
export function visibleWidth(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

/** Rows as aligned columns (widths without colour codes); the last column is not padded. */
export function table(rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, visibleWidth(cell));
    });
  fitTo(widths, options.width);
  const pad = (cell: string, i: number, last: boolean) => {
    const fitted = cut(cell, widths[i]!);
    const room = ' '.repeat(Math.max(0, widths[i]! - visibleWidth(fitted)));
    return options.align?.[i] === 'right' ? room + fitted : last ? fitted : fitted + room;
  };
  return rows
    .map((row) =>
      row
        .map((cell, i) => pad(cell, i, i === row.length - 1))
        .join(' '.repeat(COLUMN_GAP))
        .trimEnd(),
    )
    .join('\n');
}

/** Narrows the widest columns, one character at a time, until a row fits `width`. */
function fitTo(widths: number[], width: number | undefined): void {
  if (width === undefined) return;
  const total = () => widths.reduce((sum, w) => sum + w, 0) + COLUMN_GAP * (widths.length - 1);
  while (total() > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= NARROWEST) return;
    widths[widest]!--;
  }
}

/** `text` cut to `width` visible characters, ending in `…`; its colour codes kept, and reset after a cut. */
function cut(text: string, width: number): string {
  if (visibleWidth(text) <= width) return text;
  let out = '';
  let shown = 0;
  for (const part of text.split(/(\x1b\[[0-9;]*m)/)) {
    if (part.startsWith('\x1b[')) {
      out += part;
      continue;
    }
    for (const char of part) {
      if (shown === width - 1) return `${out}…${text.includes('\x1b[') ? '\x1b[0m' : ''}`;
      out += char;
      shown++;
    }
  }
  return out;
}

/** The width to fit a table to: the terminal's, and none when the output is piped (a reader wants it whole). */
export function terminalWidth(stream: NodeJS.WriteStream): number | undefined {
  return stream.isTTY && stream.columns > 0 ? stream.columns : undefined;
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
export function sourceCell(
  hook: { layer: string; plugin?: string; file: string; via?: string },
  line: number | undefined,
): string {
  const via = hook.via
    ? ` via ${displayPath(hook.via.slice(0, hook.via.lastIndexOf('#')))} (peri-hooks' registration)`
    : '';
  return `${hook.layer}${hook.plugin ? `:${hook.plugin}` : ''} ${displayPath(hook.file)}${line !== undefined ? `:${line}` : ''}${via}`;
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

// Escape sequences (CSI, OSC, other ESC forms) first, whole, then any other C0/C1 control but tab and newline.
const ESCAPE_SEQUENCE =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-_])|\u009b[0-?]*[ -/]*[@-~]/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Untrusted text (a file name, an MCP answer, a server's message) made safe to show on a terminal: no escape sequence or control character survives. */
export function printable(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}
