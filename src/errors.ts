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
  | 'recursion'
  | 'permission'
  | 'internal';

export class PeriHooksError extends Error {
  readonly code: ErrorCode;
  readonly fix: string | undefined;

  constructor(code: ErrorCode, message: string, fix?: string) {
    super(message);
    this.name = 'PeriHooksError';
    this.code = code;
    this.fix = fix;
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
  return new PeriHooksError('permission', `the runtime refused ${what}`, `run it with ${flag} (see the README, "Deno permissions")`);
}

/** One line for the user: the message, then the fix. Never a stack trace. */
export function formatError(error: unknown): string {
  const flag = error instanceof PeriHooksError ? undefined : deniedPermissionFlag(error);
  if (flag) return formatError(permissionError(`access (${(error as Error).message})`, flag));
  if (error instanceof PeriHooksError) return `peri-hooks: ${error.message}${error.fix ? `\n  fix: ${error.fix}` : ''}`;
  const message = error instanceof Error ? error.message : String(error);
  return `peri-hooks: internal error: ${message}\n  This is a bug in peri-hooks; please report it with the command you ran.`;
}
