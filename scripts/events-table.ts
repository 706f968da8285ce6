// The README's events table, derived from the catalogue so that the docs cannot drift from the code.
// `node scripts/events-table.ts` prints it; test/readme.test.ts checks that the README holds it.
import { EVENT_NAMES, EVENTS } from '../src/events.ts';

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

if (import.meta.filename === process.argv[1]) console.log(eventsTable());
