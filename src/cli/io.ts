// The CLI's edges: stdin, writing results, terminal detection, option normalisation.
import { readFileSync } from 'node:fs';
import { PeriHooksError } from '../errors.ts';
import type { Diagnostic } from '../types.ts';

/** All of stdin, or '' when stdin is a terminal (nothing was piped). */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `--input <file>` or stdin. */
export async function readInput(file: string | undefined): Promise<{ text: string; source: string }> {
  if (file === undefined) return { text: await readStdin(), source: 'stdin' };
  try {
    return { text: readFileSync(file, 'utf8'), source: file };
  } catch (error) {
    throw new PeriHooksError('usage', `cannot read the input file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'pass an existing JSON file to --input, or pipe the input on stdin');
  }
}

/** cac gives a string for one use of a repeatable option and an array for several. */
export function list(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : [value]).map(String);
}

export function useColour(stream: NodeJS.WriteStream): boolean {
  return Boolean(stream.isTTY) && !('NO_COLOR' in process.env) && process.env.TERM !== 'dumb';
}

export function formatDiagnostic(diagnostic: Diagnostic): string {
  const where = diagnostic.file
    ? `${diagnostic.file}${diagnostic.line !== undefined ? `:${diagnostic.line}:${diagnostic.column ?? 1}` : ''}${diagnostic.pointer ? ` (${diagnostic.pointer})` : ''}: `
    : '';
  return `peri-hooks: ${diagnostic.severity}: ${where}${diagnostic.message}${diagnostic.fix ? `\n  fix: ${diagnostic.fix}` : ''}`;
}

/** Writes and resolves once the data is flushed, so that the exit code never cuts output short. */
export function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  if (text === '') return Promise.resolve();
  return new Promise((resolve) => stream.write(text, () => resolve()));
}
