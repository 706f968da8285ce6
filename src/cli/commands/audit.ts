// `peri-hooks audit <verify|tail|stats|search|report> [file]`: the audit log read back, for people or as JSON, or
// as one self-contained HTML page (report --html).

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChainedEntry } from '../../audit/log.ts';
import { entryLine, type Filter, matches, type Stats, stats } from '../../audit/query.ts';
import { logFiles, readEntries, verifyChain } from '../../audit/read.ts';
import { EXIT, PeriHooksError } from '../../errors.ts';
import { isoTime } from '../../platform/clock.ts';
import { outputForm, write } from '../io.ts';

export interface AuditFlags extends Filter {
  output?: string;
  lines?: unknown;
  html?: unknown;
}

const ACTIONS = ['verify', 'tail', 'stats', 'search', 'report'] as const;
const FILTERS = ['session', 'decision', 'tool', 'hook', 'since', 'until'] as const satisfies ReadonlyArray<
  keyof Filter
>;

export async function auditCommand(
  action: string,
  fileArgument: string | undefined,
  flags: AuditFlags,
): Promise<number> {
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new PeriHooksError('usage', `unknown audit action "${action}"`, `use one of: ${ACTIONS.join(', ')}`);
  const file = fileArgument ?? process.env.PERI_HOOKS_AUDIT;
  if (!file)
    throw new PeriHooksError(
      'usage',
      'no audit log named',
      'give the log file (peri-hooks audit verify audit.jsonl), or set PERI_HOOKS_AUDIT',
    );
  const files = logFiles(file);
  if (files.length === 0)
    throw new PeriHooksError(
      'usage',
      `the audit log ${file} does not exist`,
      'name the file that --audit (or PERI_HOOKS_AUDIT) wrote to',
    );
  const json = outputForm(flags.output, 'human') === 'json';
  if (action === 'verify') {
    const report = verifyChain(files);
    const human = report.ok
      ? `ok: ${report.entries} entries in ${files.length} file${files.length === 1 ? '' : 's'}, the chain holds${report.notes.map((note) => `\nnote: ${note}`).join('')}\n`
      : `broken: ${report.problem!.message}\n(${report.entries} entries read${report.notes.map((note) => `; ${note}`).join('')})\n`;
    await write(process.stdout, json ? `${JSON.stringify(report, null, 2)}\n` : human);
    return report.ok ? EXIT.ok : EXIT.runnerError;
  }
  // cac may give a number for a value that looks like one (a session id, a date): each filter is text.
  const filter: Filter = Object.fromEntries(
    FILTERS.flatMap((key) => (flags[key] === undefined ? [] : [[key, String(flags[key])]])),
  );
  let entries = readEntries(files).filter((entry) => matches(entry, filter));
  if (action === 'stats') {
    const result = stats(entries);
    await write(process.stdout, json ? `${JSON.stringify(result, null, 2)}\n` : statsText(result));
    return EXIT.ok;
  }
  if (action === 'report') return htmlReportCommand(file, files, entries, flags.html);
  if (action === 'tail') entries = entries.slice(-count(flags.lines));
  await write(
    process.stdout,
    json ? `${JSON.stringify(entries, null, 2)}\n` : entries.map((entry) => `${entryLine(entry)}\n`).join(''),
  );
  return EXIT.ok;
}

async function htmlReportCommand(log: string, files: string[], entries: ChainedEntry[], out: unknown): Promise<number> {
  if (typeof out !== 'string' || out === '')
    throw new PeriHooksError(
      'usage',
      'audit report needs the page to write',
      'peri-hooks audit report --html report.html [log file]',
    );
  const { htmlReport } = await import('../../audit/report-html.ts');
  const page = htmlReport({
    log: path.resolve(log),
    entries,
    chain: verifyChain(files),
    lines: await hookLines(entries),
    generated: isoTime(),
  });
  try {
    writeFileSync(out, page);
  } catch (error) {
    throw new PeriHooksError(
      'usage',
      `the report ${out} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      'give --html a file in a folder this user can write',
    );
  }
  await write(process.stdout, `peri-hooks: wrote ${out} (${entries.length} firings)\n`);
  return EXIT.ok;
}

/** Where each hook of the log stands in its settings file now, by `<file> <pointer>` (as stats keys them). */
async function hookLines(entries: readonly ChainedEntry[]): Promise<Map<string, number>> {
  const { createLocator } = await import('../../config/locate.ts');
  const hooks = new Map<string, Set<string>>();
  for (const hook of entries.flatMap((entry) => entry.hooks)) {
    if (!path.isAbsolute(hook.file)) continue;
    const pointers = hooks.get(hook.file) ?? new Set<string>();
    pointers.add(hook.pointer);
    hooks.set(hook.file, pointers);
  }
  const lines = new Map<string, number>();
  for (const [file, pointers] of hooks) {
    let locate: Awaited<ReturnType<typeof createLocator>>;
    try {
      locate = await createLocator(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
    } catch {
      continue;
    }
    for (const pointer of pointers) lines.set(`${file} ${pointer}`, locate(pointer).line);
  }
  return lines;
}

function count(value: unknown): number {
  if (value === undefined) return 20;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new PeriHooksError(
      'usage',
      `--lines must be a whole number of at least 1, not "${String(value)}"`,
      'e.g. --lines 50',
    );
  return number;
}

function statsText(result: Stats): string {
  const row = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([decision, times]) => `${decision} ${times}`)
      .join(', ');
  const table = (title: string, rows: Record<string, Record<string, number>>) => [
    `${title}:`,
    ...Object.entries(rows).map(([key, counts]) => `  ${key}: ${row(counts)}`),
  ];
  return [
    `${result.entries} firings: ${row(result.decisions)}`,
    ...table('by event', result.byEvent),
    ...table('by tool', result.byTool),
    ...table('by day', result.byDay),
    'hooks that decided most:',
    ...result.deciders.map((hook) => `  ${hook.count}  ${hook.hook}  ${hook.label}`),
    'slowest hooks (p50 / p95 ms):',
    ...result.slowest.map(
      (hook) => `  ${hook.p50Ms} / ${hook.p95Ms}  (${hook.runs} runs)  ${hook.hook}  ${hook.label}`,
    ),
    '',
  ].join('\n');
}
