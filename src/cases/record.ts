// `peri-hooks record`: append one real hook input to a case file as a case without expectations, so that a
// suite grows from real sessions (`test --update` then fills in the decisions). Concurrent firings append
// under a lock and replace the file atomically, so none loses another's case. Secrets are redacted by the
// rules of src/redact.ts: URL credentials become `***`, credentials and token shapes `[redacted]`.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { applyEdits, modify, type ParseError, parse } from 'jsonc-parser';
import { isEventName, isToolEvent } from '../events.ts';
import { redactStrings, secretsOf } from '../redact.ts';
import { acquireLock } from '../session/lock.ts';
import { writeAtomic } from '../session/store.ts';

/** How long concurrent recordings wait for each other; a recording is a few milliseconds of work. */
const LOCK_WAIT_MS = 10_000;

export type RecordOutcome = { recorded: string } | { warning: string };

export async function recordCase(
  file: string,
  inputText: string,
  env: Record<string, string | undefined>,
): Promise<RecordOutcome> {
  let input: unknown;
  try {
    input = JSON.parse(inputText);
  } catch (error) {
    return { warning: `the hook input on stdin is not JSON (${(error as Error).message}); nothing recorded` };
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { warning: 'the hook input on stdin is not a JSON object; nothing recorded' };
  const payload = input as Record<string, unknown>;
  const event = payload.hook_event_name;
  if (typeof event !== 'string' || !isEventName(event))
    return { warning: `the hook input has no known hook_event_name (${JSON.stringify(event)}); nothing recorded` };

  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch (error) {
    return {
      warning: `cannot create the folder of ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; this input was not recorded`,
    };
  }
  const release = await acquireLock(`${file}.lock`, { deadline: Date.now() + LOCK_WAIT_MS });
  if (!release)
    return {
      warning: `cannot lock ${file} (${file}.lock stayed taken for ${LOCK_WAIT_MS / 1000} s, or cannot be created); this input was not recorded`,
    };
  try {
    const existing = readCaseFile(file);
    if ('warning' in existing) return existing;
    const tool = isToolEvent(event) && typeof payload.tool_name === 'string' ? ` ${payload.tool_name}` : '';
    let number = existing.count + 1;
    while (existing.names.has(`${event}${tool} #${number}`)) number++;
    const name = `${event}${tool} #${number}`;
    const testCase = { name, event, input: redactStrings(payload, secretsOf(env)) };
    writeAtomic(file, appendCase(existing, testCase));
    return { recorded: name };
  } catch (error) {
    return {
      warning: `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; this input was not recorded`,
    };
  } finally {
    release();
  }
}

interface CaseFileText {
  text: string;
  /** Where the cases array is: the file itself, or its `cases` field. */
  path: Array<string | number>;
  count: number;
  /** Case names must stay unique in a file. */
  names: Set<string>;
}

function readCaseFile(file: string): CaseFileText | { warning: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { text: '[]\n', path: [], count: 0, names: new Set() };
    return {
      warning: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; nothing recorded`,
    };
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  const cases = Array.isArray(value) ? value : (value as { cases?: unknown } | null)?.cases;
  if (errors.length > 0 || !Array.isArray(cases)) {
    return {
      warning: `${file} is not a case file (an array of cases, or an object with "cases"); nothing recorded. Fix or move it, then record again`,
    };
  }
  const names = new Set(
    cases
      .map((item) => (item as { name?: unknown } | null)?.name)
      .filter((name): name is string => typeof name === 'string'),
  );
  return { text, path: Array.isArray(value) ? [] : ['cases'], count: cases.length, names };
}

/** Appends with jsonc-parser, so that the cases already there keep their text and formatting. */
function appendCase(file: CaseFileText, testCase: object): string {
  const edits = modify(file.text, [...file.path, file.count], testCase, {
    isArrayInsertion: true,
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
  });
  return applyEdits(file.text, edits);
}
