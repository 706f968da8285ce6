// Read and validate case files. A file that cannot be read or parsed is one located error; a case that
// fails validation is one located error; the other cases of the file still run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type * as z from 'zod';
import { createLocator, escapeSegment, type Position, syntaxErrorPosition } from '../config/locate.ts';
import { EVENT_NAMES, EVENTS, type EventName, isToolEvent } from '../events.ts';
import { closest } from '../platform/suggest.ts';
import type { Diagnostic } from '../types.ts';
import { defaultProjectDir } from './discover.ts';
import { CASE_KEYS, type CaseSpec, caseSchema, EXPECTATION_KEYS, fileSchema, type SettingsRef } from './schema.ts';

export interface TestCase {
  name: string;
  event: EventName;
  spec: CaseSpec;
  file: string;
  /** JSON pointer of the case object in its file. */
  pointer: string;
  line: number;
  column: number;
  projectDir: string;
  /** How projectDir was chosen, for messages about the project. */
  projectDirFrom: string;
  /** `--settings` values for fire(): absolute file paths or inline JSON; undefined = the project's own settings. */
  settings?: string[];
  /** The input file's object, when `input` names a file. */
  inputFromFile?: Record<string, unknown>;
  /** Where a pointer inside this file is, for messages about one expectation. */
  locate: (pointer: string) => Position;
}

export interface LoadedFile {
  file: string;
  text: string;
  cases: TestCase[];
  errors: Diagnostic[];
}

export async function loadCaseFile(file: string): Promise<LoadedFile> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const message = `cannot read the case file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    return {
      file,
      text: '',
      cases: [],
      errors: [
        { severity: 'error', code: 'case-file-unreadable', file, message, fix: 'check the path and its permissions' },
      ],
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = `the case file is not valid JSON: ${(error as Error).message}`;
    const at = await syntaxErrorPosition(text, (error as Error).message);
    return {
      file,
      text,
      cases: [],
      errors: [
        {
          severity: 'error',
          code: 'case-file-invalid-json',
          file,
          ...at,
          message,
          fix: 'fix the JSON syntax there (case files are plain JSON: no comments, no trailing commas)',
        },
      ],
    };
  }
  const locator = await createLocator(text);
  const located = (pointer: string, message: string, fix: string): Diagnostic => ({
    severity: 'error',
    code: 'invalid-case',
    file,
    pointer,
    ...locator(pointer),
    message,
    fix,
  });

  const shape = fileSchema.safeParse(value);
  if (!shape.success) {
    return {
      file,
      text,
      cases: [],
      errors: [
        issueDiagnostic(
          shape.error.issues[0]!,
          '',
          located,
          'a case file is an array of cases, or {"projectDir"?, "settings"?, "cases": [...]}',
        ),
      ],
    };
  }
  const shared = Array.isArray(shape.data) ? { cases: shape.data } : shape.data;
  const base = Array.isArray(shape.data) ? '' : '/cases';
  const folder = path.dirname(file);
  const project =
    shared.projectDir !== undefined
      ? {
          dir: path.resolve(folder, shared.projectDir),
          from: `"projectDir": ${JSON.stringify(shared.projectDir)} in the case file`,
        }
      : defaultProjectDir(file);

  const cases: TestCase[] = [];
  const errors: Diagnostic[] = [];
  const names = new Set<string>();
  for (const [index, raw] of shared.cases.entries()) {
    const pointer = `${base}/${index}`;
    const parsed = caseSchema.safeParse(raw);
    if (!parsed.success) {
      // A misspelt key also leaves a required one missing; the misspelling is the cause worth naming.
      const issue = parsed.error.issues.find((item) => item.code === 'unrecognized_keys') ?? parsed.error.issues[0]!;
      errors.push(issueDiagnostic(issue, pointer, located, 'see docs/guide/testing.md#case-files for the case format'));
      continue;
    }
    const spec = parsed.data;
    if (names.has(spec.name)) {
      errors.push(
        located(
          `${pointer}/name`,
          `two cases are named "${spec.name}"`,
          'give every case in a file its own name, so that reports can tell them apart',
        ),
      );
      continue;
    }
    names.add(spec.name);
    const misplaced = shorthandMisplaced(spec);
    if (misplaced) {
      errors.push(located(`${pointer}/${misplaced.key}`, misplaced.message, misplaced.fix));
      continue;
    }
    let inputFromFile: Record<string, unknown> | undefined;
    if (typeof spec.input === 'string') {
      const read = readInputFile(path.resolve(folder, spec.input));
      if (typeof read === 'string') {
        errors.push(
          located(
            `${pointer}/input`,
            `cannot use the input file ${spec.input}: ${read}`,
            'name a JSON file holding one object, relative to the case file',
          ),
        );
        continue;
      }
      inputFromFile = read;
    }
    const settings = spec.settings ?? shared.settings;
    cases.push({
      name: spec.name,
      event: spec.event as EventName,
      spec,
      file,
      pointer,
      ...locator(pointer),
      projectDir: project.dir,
      projectDirFrom: project.from,
      ...(settings !== undefined ? { settings: settingsValues(settings, folder) } : {}),
      ...(inputFromFile ? { inputFromFile } : {}),
      locate: locator,
    });
  }
  return { file, text, cases, errors };
}

function shorthandMisplaced(spec: CaseSpec): { key: string; message: string; fix: string } | undefined {
  const event = spec.event as EventName;
  const key = (['tool', 'toolInput', 'toolResponse'] as const).find((name) => spec[name] !== undefined);
  if (key && !isToolEvent(event)) {
    return {
      key,
      message: `"${key}" applies to tool events only, not to ${event}`,
      fix: 'give the event\'s fields in "input" instead',
    };
  }
  if (spec.toolResponse !== undefined && EVENTS[event].toolResponseField === undefined) {
    const events = EVENT_NAMES.filter((name) => EVENTS[name].toolResponseField !== undefined).join(' and ');
    return {
      key: 'toolResponse',
      message: `"toolResponse" applies to ${events} only, not to ${event}`,
      fix: 'remove it, or change the event',
    };
  }
  return undefined;
}

function readInputFile(file: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : 'it does not hold a JSON object';
}

/** Settings paths are relative to the case file; inline settings travel as JSON text, as --settings takes them. */
function settingsValues(settings: SettingsRef, folder: string): string[] {
  return (Array.isArray(settings) ? settings : [settings]).map((entry) =>
    typeof entry === 'string' ? path.resolve(folder, entry) : JSON.stringify(entry),
  );
}

function issueDiagnostic(
  issue: z.core.$ZodIssue,
  base: string,
  located: (pointer: string, message: string, fix: string) => Diagnostic,
  fallbackFix: string,
): Diagnostic {
  const pointer = `${base}${issue.path.map((segment) => `/${escapeSegment(String(segment))}`).join('')}`;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const known =
      issue.path.at(-1) === 'expect' ? EXPECTATION_KEYS : issue.path.length === 0 && base !== '' ? CASE_KEYS : [];
    const close = closest(key, known);
    const hint = close
      ? `did you mean "${close}"?`
      : known.length > 0
        ? `known fields: ${known.join(', ')}`
        : 'remove it';
    return located(`${pointer}/${key}`, `unknown field "${key}"`, hint);
  }
  const what = issue.path.length > 0 ? `"${String(issue.path.at(-1))}"` : base === '' ? 'the file' : 'the case';
  return located(pointer, `invalid ${what}: ${issue.message}`, fallbackFix);
}
