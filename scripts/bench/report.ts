// The bench's outputs: the machine it ran on, a markdown table, and the copy of that table in docs/performance.md.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';

export interface Row {
  scenario: string;
  command: string;
  baseline: string;
  runs: number;
  medianMs?: number;
  baselineMedianMs?: number;
  ratio?: number;
  peakMemoryMB?: number;
  target?: string;
  met?: boolean;
  note?: string;
}

export function machine(denoBinary: string): Record<string, string | number> {
  const osRelease = existsSync('/etc/os-release')
    ? /PRETTY_NAME="([^"]*)"/.exec(readFileSync('/etc/os-release', 'utf8'))?.[1]
    : undefined;
  let deno = 'absent';
  try {
    deno = execFileSync(denoBinary, ['--version'], { encoding: 'utf8' })
      .split('\n')[0]!
      .replace(/^deno /, '');
  } catch {
    /* reported as absent */
  }
  return {
    date: new Date().toISOString().slice(0, 10),
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${osRelease ?? process.platform} (${release()})`,
    node: process.version,
    deno,
    /** At the start: the machine may be shared, and its load moves every number. */
    load: loadavg()
      .map((value) => value.toFixed(2))
      .join(' / '),
  };
}

const ms = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(1));

export function table(rows: readonly Row[]): string {
  const lines = [
    '| # | command | baseline | runs | median ms | baseline ms | ratio | peak MB | target |',
    '|---|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const target = row.target
      ? `${row.target}: ${row.met === undefined ? 'n/a' : row.met ? '**met**' : '**missed**'}`
      : '';
    lines.push(
      `| ${row.scenario} | ${row.command}${row.note ? ` (${row.note})` : ''} | ${row.baseline} | ${row.runs} | ${ms(row.medianMs)} | ${ms(row.baselineMedianMs)} | ${row.ratio === undefined ? '–' : `${row.ratio.toFixed(2)}x`} | ${row.peakMemoryMB ?? '–'} | ${target} |`,
    );
  }
  return lines.join('\n');
}

/** The page whose tables the bench rewrites, relative to the repository root. */
export const BENCH_DOC = 'docs/performance.md';

/** The marker of each bench's table in BENCH_DOC: `<!-- <marker>:start -->` … `<!-- <marker>:end -->`. */
export const BENCH_MARKERS = { startup: 'bench', serve: 'bench-serve', mcp: 'bench-mcp', otel: 'bench-otel' } as const;

/** Replaces the table between the `<!-- <marker>:start -->` and `:end` comments of a markdown file, if it has them. */
export function updateDoc(file: string, text: string, marker: string): boolean {
  if (!existsSync(file)) return false;
  const doc = readFileSync(file, 'utf8');
  const [START, END] = [`<!-- ${marker}:start -->`, `<!-- ${marker}:end -->`];
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) return false;
  writeFileSync(file, `${doc.slice(0, start + START.length)}\n${text}\n${doc.slice(end)}`);
  return true;
}
