// One error type with stable codes, and the one exit-code table. Hooks that fail are results, not errors:
// a PeriHooksError is for the runner's own inputs (usage, stdin, files it was told to read).

export const EXIT = {
  /** Go on: nothing blocked. */
  ok: 0,
  /** peri-hooks itself could not do its job: bad usage, bad input, a file it was told to read. */
  runnerError: 1,
  /** The reduced decision blocks (or fail-closed turned a failure into a block). */
  block: 2,
} as const;

export type ErrorCode =
  | 'usage'
  | 'unknown-event'
  | 'empty-input'
  | 'invalid-json'
  | 'invalid-input'
  | 'event-mismatch'
  | 'settings-unreadable'
  | 'settings-unwritable'
  | 'state-unreachable'
  | 'recursion'
  | 'interrupted'
  | 'permission'
  | 'internal';

/** One problem of an input or file, where it is (a JSON Pointer) and how to mend it. */
export interface Problem {
  pointer: string;
  message: string;
  fix: string;
}

/** Where an error is, for machines: the file (or stdin) and the JSON Pointer; every problem when there are several. */
export interface ErrorPlace {
  file?: string;
  pointer?: string;
  problems?: Problem[];
}

export class PeriHooksError extends Error {
  readonly code: ErrorCode;
  readonly fix: string | undefined;
  readonly place: ErrorPlace;

  constructor(code: ErrorCode, message: string, fix?: string, place: ErrorPlace = {}) {
    super(message);
    this.name = 'PeriHooksError';
    this.code = code;
    this.fix = fix;
    this.place = place;
  }
}

/**
 * The flag a runtime permission refusal asks for (Deno: "Requires run access to ..., run again with the
 * --allow-run flag"), or undefined for any other error. A refusal must never pass for an allow.
 */
export function deniedPermissionFlag(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /run again with the (--allow-[a-z-]+) flag/.exec(message)?.[1];
}

export function permissionError(what: string, flag: string): PeriHooksError {
  return new PeriHooksError(
    'permission',
    `the runtime refused ${what}`,
    `run it with ${flag} (see docs/reference/artefacts.md#deno-permissions)`,
  );
}

/** The version of every JSON document peri-hooks prints; docs/reference/json-contract.md says what bumps it. */
export const SCHEMA_VERSION = 1;

/** A JSON document as every command prints it: schemaVersion first, then its own keys. */
export function jsonDocument(value: object): string {
  return `${JSON.stringify({ schemaVersion: SCHEMA_VERSION, ...value }, null, 2)}\n`;
}

/** An error as JSON mode prints it: every key present (null when unknown), in this order. */
export function errorDocument(error: unknown, failClosed: boolean) {
  const known = knownError(error);
  return {
    schemaVersion: SCHEMA_VERSION,
    error: {
      code: known?.code ?? 'internal',
      message: known?.message ?? `internal error: ${error instanceof Error ? error.message : String(error)}`,
      fix: known?.fix ?? (known ? null : 'this is a bug in peri-hooks; please report it with the command you ran'),
      file: known?.place.file ?? null,
      pointer: known?.place.pointer ?? null,
      problems: known?.place.problems ?? [],
      failClosed,
    },
  };
}

/** The error as peri-hooks explains it (a runtime's permission refusal becomes one), or undefined for a bug. */
function knownError(error: unknown): PeriHooksError | undefined {
  if (error instanceof PeriHooksError) return error;
  const flag = deniedPermissionFlag(error);
  return flag ? permissionError(`access (${(error as Error).message})`, flag) : undefined;
}

/** One line for the user: the message, then the fix. Never a stack trace. */
export function formatError(error: unknown): string {
  const known = knownError(error);
  if (known) return `peri-hooks: ${known.message}${known.fix ? `\n  fix: ${known.fix}` : ''}`;
  const message = error instanceof Error ? error.message : String(error);
  return `peri-hooks: internal error: ${message}\n  This is a bug in peri-hooks; please report it with the command you ran.`;
}
