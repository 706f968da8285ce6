// Replay output: one line per tool call, then a summary table (or, with --output json, everything as JSON).
import pc from 'picocolors';
import { documentText } from '../report/shape.ts';
import { displayPath, table } from '../text.ts';
import { replayDocumentSchema } from './document.ts';
import { type Firing, type Planned, type ReplayResult, VERDICTS, type Verdict } from './run.ts';

const WIDTH = 60;

export type Summary = Record<string, Record<Verdict, number> & { calls: number }>;

export function summarise(result: ReplayResult): Summary {
  const summary: Summary = {};
  const count = (entry: Firing | Planned | undefined) => {
    if (!entry || !('verdict' in entry)) return;
    const row = (summary[entry.event] ??= {
      calls: 0,
      ...Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])),
    } as Summary[string]);
    row.calls++;
    row[entry.verdict]++;
  };
  for (const call of result.calls) {
    count(call.pre);
    count(call.post);
  }
  return summary;
}

export function renderReplayJson(result: ReplayResult): string {
  return documentText(replayDocumentSchema(), { ...result, ...(result.dryRun ? {} : { summary: summarise(result) }) });
}

export function renderReplayHuman(result: ReplayResult, cwd: string, colour: boolean, width?: number): string {
  const c = pc.createColors(colour);
  const lines: string[] = [];
  const places = result.calls.map((call) => `${displayPath(call.transcript, cwd)}:${call.line}`);
  const placeWidth = Math.max(0, ...places.map((place) => place.length));
  const toolWidth = Math.max(0, ...result.calls.map((call) => call.tool.length));
  for (const [index, call] of result.calls.entries()) {
    lines.push(`${places[index]!.padEnd(placeWidth)}  ${call.tool.padEnd(toolWidth)}  ${describe(call.input)}`);
    lines.push(`    ${entryLine(call.pre, c)}`);
    if (call.post) lines.push(`    ${entryLine(call.post, c)}`);
    else if (call.postNote) lines.push(`    ${c.dim(`post: ${call.postNote}`)}`);
  }
  if (result.calls.length === 0) lines.push('no tool calls found');
  lines.push('');
  lines.push(...(result.dryRun ? planTable(result, width) : verdictTable(summarise(result), width)));
  return `${lines.join('\n')}\n`;
}

function entryLine(entry: Firing | Planned, c: ReturnType<typeof pc.createColors>): string {
  if (entry.error !== undefined) return `${entry.event}: ${c.red('error')}: ${entry.error}`;
  if (!('verdict' in entry)) {
    const skipped =
      entry.skipped.length > 0
        ? `; skipped: ${entry.skipped.map((item) => `${item.hook} (${item.reason})`).join(', ')}`
        : '';
    return `${entry.event}: ${entry.run.length > 0 ? `would run ${entry.run.join(', ')}` : c.dim('no hook would run')}${skipped}`;
  }
  const colourOf: Partial<Record<Verdict, (text: string) => string>> = {
    denied: c.red,
    blocked: c.red,
    asked: c.yellow,
    deferred: c.yellow,
    rewritten: c.cyan,
    allowed: c.green,
    'no decision': c.dim,
  };
  const detail =
    entry.verdict === 'rewritten'
      ? ` to ${JSON.stringify(entry.updatedInput)}`
      : entry.reason !== undefined
        ? `: ${entry.reason.split('\n').join(' / ')}`
        : '';
  const ran = entry.hooks.filter((hook) => hook.status === 'ran').length;
  const errors =
    entry.hookErrors.length > 0
      ? `, ${entry.hookErrors.length} hook ${entry.hookErrors.length === 1 ? 'error' : 'errors'}`
      : '';
  return `${entry.event}: ${(colourOf[entry.verdict] ?? String)(entry.verdict)}${detail} ${c.dim(`(${ran} ran${errors})`)}`;
}

function verdictTable(summary: Summary, width: number | undefined): string[] {
  const header = ['Event', 'Calls', ...VERDICTS.map((verdict) => verdict[0]!.toUpperCase() + verdict.slice(1))];
  const rows = Object.entries(summary).map(([event, row]) => [
    event,
    String(row.calls),
    ...VERDICTS.map((verdict) => String(row[verdict])),
  ]);
  return countTable([header, ...rows], width);
}

function planTable(result: ReplayResult, width: number | undefined): string[] {
  const rows = new Map<string, number[]>();
  for (const call of result.calls) {
    for (const entry of [call.pre, call.post]) {
      if (!entry || 'verdict' in entry) continue;
      const row = rows.get(entry.event) ?? [0, 0, 0, 0];
      row[0]!++;
      if (entry.error !== undefined) row[3]!++;
      else if (entry.run.length > 0) row[1]!++;
      else row[2]!++;
      rows.set(entry.event, row);
    }
  }
  return countTable(
    [
      ['Event', 'Calls', 'With hooks', 'Without hooks', 'Errors'],
      ...[...rows].map(([event, row]) => [event, ...row.map(String)]),
    ],
    width,
  );
}

/** A summary table: the event, then counts aligned right. */
function countTable(rows: string[][], width: number | undefined): string[] {
  return table(rows, { align: rows[0]!.map((_, column) => (column === 0 ? 'left' : 'right')), width }).split('\n');
}

/** The part of a tool input a reader recognises: the command, the path, the pattern, the URL. */
function describe(input: Record<string, unknown>): string {
  const key = [
    'command',
    'file_path',
    'notebook_path',
    'path',
    'pattern',
    'url',
    'query',
    'description',
    'prompt',
  ].find((name) => typeof input[name] === 'string');
  const text = (key ? String(input[key]) : JSON.stringify(input)).replace(/\s+/g, ' ');
  return text.length > WIDTH ? `${text.slice(0, WIDTH - 3)}...` : text;
}
