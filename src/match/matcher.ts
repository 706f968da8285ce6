// The group `matcher` (spec §8.1, confirmed by §20.2): exact lists, else an unanchored case-sensitive regex.
import { EVENTS, type EventName } from '../events.ts';
import { canonicalToolName, legacyNamesOf } from './aliases.ts';
import { RUN_BUDGET_MS, testRegex } from './bounded-regex.ts';

export interface MatcherCheck {
  matches: boolean;
  /** Set when the matcher is an invalid regex, or one too slow to answer: it matches nothing, and peri-hooks says so. */
  invalid?: string;
}

const WIDE_LIST = /^[A-Za-z0-9_|, -]+$/;
const NARROW_LIST = /^[A-Za-z0-9_|]+$/;
const MODEL_SUFFIX = /\[[12]m\]$/i;

/** The value an event's matcher is tested against, or undefined when the event has no matcher field. */
export function matcherValue(event: EventName, input: Record<string, unknown>): string | undefined {
  const field = EVENTS[event].matcherField;
  if (field === undefined) return undefined;
  const value = input[field];
  if (typeof value !== 'string') return undefined;
  return EVENTS[event].matcherTestsBasename ? value.slice(value.lastIndexOf('/') + 1) : value;
}

export function matchesMatcher(event: EventName, matcher: string | undefined, value: string | undefined): MatcherCheck {
  if (value === undefined || matcher === undefined || matcher === '' || matcher === '*') return { matches: true };
  const def = EVENTS[event];
  const isTool = def.matcherField === 'tool_name';
  const pattern = def.matcherStripsContextSuffix
    ? matcher
        .split('|')
        .map((alternative) => alternative.replace(MODEL_SUFFIX, ''))
        .join('|')
    : matcher;
  const narrow = def.matcherPipeListOnly === true;
  if ((narrow ? NARROW_LIST : WIDE_LIST).test(pattern)) {
    const names = pattern
      .split(narrow ? /\|/ : /[|,]/)
      .map((name) => name.trim())
      .filter((name) => name !== '');
    return { matches: names.some((name) => (isTool ? canonicalToolName(name) : name) === value) };
  }
  const candidates = isTool ? [value, ...legacyNamesOf(value)] : [value];
  const result = testRegex(pattern, candidates);
  if ('matches' in result) return { matches: result.matches.includes(true) };
  const shown = `"${clipped(matcher)}"${matcher.length > SHOWN_CHARACTERS ? ` (${matcher.length} characters)` : ''}`;
  if ('tooSlow' in result) {
    return {
      matches: false,
      invalid: `Regex matcher ${shown} did not finish within ${RUN_BUDGET_MS / 1000} s on "${result.tooSlow}"; it matches nothing`,
    };
  }
  // V8's message quotes the regex again.
  return {
    matches: false,
    invalid: `Invalid regex pattern in hook matcher ${shown}: ${result.invalid.replace(pattern, () => clipped(pattern))}`,
  };
}

const SHOWN_CHARACTERS = 60;

function clipped(text: string): string {
  return text.length <= SHOWN_CHARACTERS ? text : `${text.slice(0, SHOWN_CHARACTERS)}…`;
}
