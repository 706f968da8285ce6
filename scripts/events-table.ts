// The events table of docs/reference/events.md, derived from the catalogue so that the docs cannot drift from the
// code. `node scripts/events-table.ts` prints it; `--write` puts it into that page in place of the table there;
// test/readme.test.ts checks that the page holds it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENT_NAMES, EVENTS } from '../src/events.ts';

/** The page that holds the table. */
export const EVENTS_DOC = fileURLToPath(new URL('../docs/reference/events.md', import.meta.url));

const TYPE_LETTERS: Record<string, string> = { command: 'C', http: 'H', mcp_tool: 'M', prompt: 'P', agent: 'A' };

export function eventsTable(): string {
  const rows = EVENT_NAMES.map((name) => {
    const def = EVENTS[name];
    const types = def.hookTypes.map((type) => TYPE_LETTERS[type]).join('');
    const matcher = def.matcherField ? `\`${def.matcherField}\`${def.matcherTestsBasename ? ' (basename)' : ''}` : '—';
    const fields = def.specificFields.length > 0 ? def.specificFields.map((field) => `\`${field}\``).join(', ') : '—';
    return `| ${name} | ${matcher} | ${types} | ${def.timeoutS} | ${def.family} | ${def.exit2} | ${fields} | ${def.ifApplies ? 'yes' : '—'} |`;
  });
  return [
    '| Event | Matcher field | Types | Timeout (s) | Family | Exit 2 | `hookSpecificOutput` fields | `if` |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The page with its table (the lines from the table's header to the first line that is no row) replaced. */
export function withEventsTable(page: string): string {
  const start = page.indexOf('| Event | Matcher field |');
  if (start < 0) throw new Error(`${EVENTS_DOC} has no events table`);
  const end = page.indexOf('\n\n', start);
  return `${page.slice(0, start)}${eventsTable()}${end < 0 ? '\n' : page.slice(end)}`;
}

if (import.meta.filename === process.argv[1]) {
  if (process.argv.includes('--write')) writeFileSync(EVENTS_DOC, withEventsTable(readFileSync(EVENTS_DOC, 'utf8')));
  else console.log(eventsTable());
}
