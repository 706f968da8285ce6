// What a security lead asks of the audit log: the entries that match (search, tail), and counts — decisions per
// event, tool, hook and day, and the slowest hooks with their p50 and p95 (stats).
import type { ChainedEntry } from './log.ts';

export interface Filter {
  session?: string;
  decision?: string;
  tool?: string;
  /** Part of a hook's command (label) or of its settings file. */
  hook?: string;
  /** ISO times or dates, inclusive. */
  since?: string;
  until?: string;
}

export function matches(entry: ChainedEntry, filter: Filter): boolean {
  if (filter.session !== undefined && entry.session !== filter.session) return false;
  if (filter.decision !== undefined && entry.decision !== filter.decision) return false;
  if (filter.tool !== undefined && entry.tool !== filter.tool) return false;
  if (
    filter.hook !== undefined &&
    !entry.hooks.some((hook) => hook.label.includes(filter.hook!) || hook.file.includes(filter.hook!))
  )
    return false;
  if (filter.since !== undefined && entry.time < filter.since) return false;
  // A date alone covers its whole day.
  if (
    filter.until !== undefined &&
    entry.time > (filter.until.length === 10 ? `${filter.until}T23:59:59.999Z` : filter.until)
  )
    return false;
  return true;
}

export interface Stats {
  entries: number;
  decisions: Record<string, number>;
  byEvent: Record<string, Record<string, number>>;
  byTool: Record<string, Record<string, number>>;
  byDay: Record<string, Record<string, number>>;
  /** Hooks that decided a block, deny or ask, most first: `file pointer` and the command. */
  deciders: Array<{ hook: string; label: string; count: number }>;
  slowest: Array<{ hook: string; label: string; runs: number; p50Ms: number; p95Ms: number }>;
}

export function stats(entries: readonly ChainedEntry[], top = 10): Stats {
  const count = (table: Record<string, Record<string, number>>, key: string, decision: string) => {
    const row = (table[key] ??= {});
    row[decision] = (row[decision] ?? 0) + 1;
  };
  const decisions: Record<string, number> = {};
  const byEvent: Stats['byEvent'] = {};
  const byTool: Stats['byTool'] = {};
  const byDay: Stats['byDay'] = {};
  const deciders = new Map<string, { label: string; count: number }>();
  const durations = new Map<string, { label: string; ms: number[] }>();
  for (const entry of entries) {
    decisions[entry.decision] = (decisions[entry.decision] ?? 0) + 1;
    count(byEvent, entry.event, entry.decision);
    if (entry.tool !== undefined) count(byTool, entry.tool, entry.decision);
    count(byDay, entry.time.slice(0, 10), entry.decision);
    for (const hook of entry.hooks) {
      const key = `${hook.file} ${hook.pointer}`;
      if (hook.decided && entry.decision !== 'allow' && entry.decision !== 'none') {
        const seen = deciders.get(key) ?? { label: hook.label, count: 0 };
        seen.count++;
        deciders.set(key, seen);
      }
      if (hook.durationMs !== undefined) {
        const seen = durations.get(key) ?? { label: hook.label, ms: [] };
        seen.ms.push(hook.durationMs);
        durations.set(key, seen);
      }
    }
  }
  const percentile = (values: number[], p: number) =>
    values[Math.min(values.length - 1, Math.ceil((values.length * p) / 100) - 1)] ?? 0;
  const slowest = [...durations]
    .map(([hook, { label, ms }]) => {
      const sorted = [...ms].sort((a, b) => a - b);
      return { hook, label, runs: sorted.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95) };
    })
    .sort((a, b) => b.p95Ms - a.p95Ms || b.p50Ms - a.p50Ms)
    .slice(0, top);
  return {
    entries: entries.length,
    decisions,
    byEvent,
    byTool,
    byDay,
    deciders: [...deciders]
      .map(([hook, { label, count: times }]) => ({ hook, label, count: times }))
      .sort((a, b) => b.count - a.count)
      .slice(0, top),
    slowest,
  };
}

/** One entry as a line for people: time, event and tool, decision, the call, the reason. */
export function entryLine(entry: ChainedEntry): string {
  const what = [entry.event, entry.tool].filter(Boolean).join(' ');
  const call =
    entry.summary === undefined
      ? ''
      : ` ${JSON.stringify(entry.summary.length > 80 ? `${entry.summary.slice(0, 80)}…` : entry.summary)}`;
  const reason = entry.reason === undefined ? '' : ` — ${entry.reason.split('\n')[0]}`;
  return `${entry.time} ${entry.host} ${entry.session.slice(0, 8)} ${what}: ${entry.decision}${call}${reason}`;
}
