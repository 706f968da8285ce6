// `audit report --html`: the audit log as one page a security lead opens after an incident. Self-contained: the
// charts are inline SVG, the style inline, no script at all, and a Content-Security-Policy that forbids every
// load, so the page reaches no network when viewed. Everything from the log is untrusted (a tool name, a command,
// a hook's path are whatever the firing saw) and escaped; links go only to file:// URLs of settings files.
import { pathToFileURL } from 'node:url';
import type { ChainedEntry } from './log.ts';
import { type Stats, stats } from './query.ts';
import type { ChainReport } from './read.ts';

export interface ReportInput {
  log: string;
  entries: readonly ChainedEntry[];
  chain: ChainReport;
  /** The line of a hook in its settings file as it reads now, by `<file> <pointer>`. */
  lines: ReadonlyMap<string, number>;
  generated: string;
}

const DECISIONS = ['block', 'deny', 'ask', 'allow', 'none'] as const;
const COLOURS: Record<string, string> = {
  block: '#c62828',
  deny: '#ef6c00',
  ask: '#f9a825',
  allow: '#2e7d32',
  none: '#90a4ae',
};
const STOPPING = new Set(['block', 'deny', 'ask']);
const TOP = 10;

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );
}
const esc = escapeHtml;

export function htmlReport(input: ReportInput): string {
  const summary = stats(input.entries, TOP);
  const times = input.entries.map((entry) => entry.time).sort();
  const range = times.length === 0 ? 'no entries' : `${times[0]} – ${times.at(-1)}`;
  const chain = input.chain.ok
    ? `<p class="ok">The hash chain holds: ${input.chain.entries} entries in ${input.chain.files.length} file(s).</p>`
    : `<p class="broken">The hash chain is broken: ${esc(input.chain.problem?.message ?? '')}. What follows may have been altered.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>peri-hooks audit: ${esc(input.log)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>peri-hooks audit report</h1>
<p class="meta">${esc(input.log)} · ${input.entries.length} firings · ${esc(range)} · generated ${esc(input.generated)}</p>
${chain}
<section><h2>Decisions</h2>${legend()}${totalsChart(summary)}</section>
<section><h2>Decisions over time</h2>${timeChart(input.entries)}</section>
<section><h2>Most blocked tools (block, deny, ask)</h2>${toolsTable(summary)}</section>
<section><h2>Most blocked calls</h2>${commandsTable(input.entries)}</section>
<section><h2>Hooks that decide most</h2>${decidersTable(summary, input.lines)}</section>
<section><h2>Slowest hooks</h2>${slowestTable(summary, input.lines)}</section>
</body>
</html>
`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#212121}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.8em}.meta{color:#616161}
.ok{color:#2e7d32}.broken{color:#b71c1c;font-weight:bold}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3em .6em;border-bottom:1px solid #e0e0e0;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}code{font-size:.92em;word-break:break-all}
.bar{display:inline-block;height:.8em;background:#c62828;vertical-align:middle}
.legend span{display:inline-block;margin-right:1em}.legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em}
svg{display:block;max-width:100%;height:auto}.empty{color:#757575}`;

function legend(): string {
  return `<p class="legend">${DECISIONS.map((decision) => `<span><i style="background:${COLOURS[decision]}"></i>${decision}</span>`).join('')}</p>`;
}

/** One horizontal bar per decision. */
function totalsChart(summary: Stats): string {
  const rows = DECISIONS.filter((decision) => (summary.decisions[decision] ?? 0) > 0);
  if (rows.length === 0) return '<p class="empty">No firings.</p>';
  const most = Math.max(...rows.map((decision) => summary.decisions[decision]!));
  const height = rows.length * 28 + 8;
  const bars = rows.map((decision, index) => {
    const count = summary.decisions[decision]!;
    const width = Math.max(2, (count / most) * 520);
    const y = 4 + index * 28;
    return `<text x="0" y="${y + 15}">${decision}</text><rect x="70" y="${y}" width="${width.toFixed(1)}" height="20" fill="${COLOURS[decision]}"><title>${decision}: ${count}</title></rect><text x="${(76 + width).toFixed(1)}" y="${y + 15}">${count}</text>`;
  });
  return `<svg class="chart" viewBox="0 0 680 ${height}" width="680" height="${height}" role="img" aria-label="decisions" font-size="13" font-family="system-ui,sans-serif">${bars.join('')}</svg>`;
}

/** Stacked columns of decisions per day (per hour when the log spans two days or less). */
function timeChart(entries: readonly ChainedEntry[]): string {
  if (entries.length === 0) return '<p class="empty">No firings.</p>';
  const days = new Set(entries.map((entry) => entry.time.slice(0, 10)));
  const width = days.size <= 2 ? 13 : 10;
  const buckets = new Map<string, Record<string, number>>();
  for (const entry of [...entries].sort((a, b) => a.time.localeCompare(b.time))) {
    const row = buckets.get(entry.time.slice(0, width)) ?? {};
    row[entry.decision] = (row[entry.decision] ?? 0) + 1;
    buckets.set(entry.time.slice(0, width), row);
  }
  const keys = [...buckets.keys()];
  const total = (key: string) => Object.values(buckets.get(key)!).reduce((sum, count) => sum + count, 0);
  const most = Math.max(...keys.map(total));
  const plot = { left: 40, top: 10, height: 200, width: Math.max(300, Math.min(900, keys.length * 40)) };
  const step = plot.width / keys.length;
  const columns = keys.map((key, index) => {
    let y = plot.top + plot.height;
    const x = plot.left + index * step + step * 0.1;
    const parts = DECISIONS.filter((decision) => buckets.get(key)![decision]).map((decision) => {
      const count = buckets.get(key)![decision]!;
      const h = (count / most) * plot.height;
      y -= h;
      return `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(step * 0.8).toFixed(1)}" height="${h.toFixed(1)}" fill="${COLOURS[decision]}"><title>${esc(key)} ${decision}: ${count}</title></rect>`;
    });
    return parts.join('');
  });
  const label = (key: string) => (width === 13 ? `${key.slice(5, 10)} ${key.slice(11)}h` : key.slice(5));
  const every = Math.max(1, Math.ceil(keys.length / 12));
  const labels = keys
    .map((key, index) =>
      index % every === 0
        ? `<text x="${(plot.left + index * step + step / 2).toFixed(1)}" y="${plot.top + plot.height + 16}" text-anchor="middle">${esc(label(key))}</text>`
        : '',
    )
    .join('');
  const svgWidth = plot.left + plot.width + 10;
  const svgHeight = plot.top + plot.height + 26;
  return `<svg class="chart" viewBox="0 0 ${svgWidth} ${svgHeight}" width="${svgWidth}" height="${svgHeight}" role="img" aria-label="decisions over time" font-size="11" font-family="system-ui,sans-serif"><line x1="${plot.left}" y1="${plot.top + plot.height}" x2="${plot.left + plot.width}" y2="${plot.top + plot.height}" stroke="#9e9e9e"/><text x="${plot.left - 6}" y="${plot.top + 10}" text-anchor="end">${most}</text><text x="${plot.left - 6}" y="${plot.top + plot.height}" text-anchor="end">0</text>${columns.join('')}${labels}</svg>`;
}

function bar(count: number, most: number): string {
  return `<span class="bar" style="width:${Math.max(2, Math.round((count / most) * 160))}px"></span>`;
}

function table(head: string[], rows: string[][], numeric: number[]): string {
  if (rows.length === 0) return '<p class="empty">None.</p>';
  const cell = (text: string, index: number) => `<td${numeric.includes(index) ? ' class="n"' : ''}>${text}</td>`;
  return `<table><thead><tr>${head.map((title) => `<th>${title}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map(cell).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

function toolsTable(summary: Stats): string {
  const rows = Object.entries(summary.byTool)
    .map(([tool, counts]) => ({
      tool,
      counts,
      stopped: [...STOPPING].reduce((sum, decision) => sum + (counts[decision] ?? 0), 0),
    }))
    .filter((row) => row.stopped > 0)
    .sort((a, b) => b.stopped - a.stopped)
    .slice(0, TOP);
  const most = rows[0]?.stopped ?? 1;
  return table(
    ['tool', 'blocked', 'block', 'deny', 'ask', 'allowed or no decision', ''],
    rows.map((row) => [
      `<code>${esc(row.tool)}</code>`,
      String(row.stopped),
      String(row.counts.block ?? 0),
      String(row.counts.deny ?? 0),
      String(row.counts.ask ?? 0),
      String((row.counts.allow ?? 0) + (row.counts.none ?? 0)),
      bar(row.stopped, most),
    ]),
    [1, 2, 3, 4, 5],
  );
}

function commandsTable(entries: readonly ChainedEntry[]): string {
  const counts = new Map<string, { tool: string; summary: string; count: number; reason?: string }>();
  for (const entry of entries) {
    if (!STOPPING.has(entry.decision) || entry.summary === undefined) continue;
    const key = `${entry.tool ?? ''}\u0000${entry.summary}`;
    const seen = counts.get(key) ?? {
      tool: entry.tool ?? entry.event,
      summary: entry.summary,
      count: 0,
      ...(entry.reason !== undefined ? { reason: entry.reason } : {}),
    };
    seen.count++;
    counts.set(key, seen);
  }
  const rows = [...counts.values()].sort((a, b) => b.count - a.count).slice(0, TOP);
  const most = rows[0]?.count ?? 1;
  const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length)}…` : text);
  return table(
    ['times', 'tool', 'call', 'reason', ''],
    rows.map((row) => [
      String(row.count),
      `<code>${esc(row.tool)}</code>`,
      `<code>${esc(cut(row.summary, 300))}</code>`,
      esc(cut(row.reason?.split('\n')[0] ?? '', 200)),
      bar(row.count, most),
    ]),
    [0],
  );
}

/** A hook's settings file and line, linked (file:// only); the pointer where the line is not known. */
function hookLink(key: string, lines: ReadonlyMap<string, number>): string {
  const at = key.lastIndexOf(' ');
  const file = key.slice(0, at);
  const pointer = key.slice(at + 1);
  const line = lines.get(key);
  const shown = line === undefined ? `${file}#${pointer}` : `${file}:${line}`;
  if (!file.startsWith('/')) return `<code>${esc(shown)}</code>`;
  const href = `${pathToFileURL(file).href}${line === undefined ? '' : `#L${line}`}`;
  return `<a href="${esc(href)}" title="${esc(pointer)}"><code>${esc(shown)}</code></a>`;
}

function decidersTable(summary: Stats, lines: ReadonlyMap<string, number>): string {
  const most = summary.deciders[0]?.count ?? 1;
  return table(
    ['decided', 'settings file:line', 'hook', ''],
    summary.deciders.map((hook) => [
      String(hook.count),
      hookLink(hook.hook, lines),
      `<code>${esc(hook.label)}</code>`,
      bar(hook.count, most),
    ]),
    [0],
  );
}

function slowestTable(summary: Stats, lines: ReadonlyMap<string, number>): string {
  return table(
    ['p50 ms', 'p95 ms', 'runs', 'settings file:line', 'hook'],
    summary.slowest.map((hook) => [
      String(hook.p50Ms),
      String(hook.p95Ms),
      String(hook.runs),
      hookLink(hook.hook, lines),
      `<code>${esc(hook.label)}</code>`,
    ]),
    [0, 1, 2],
  );
}
