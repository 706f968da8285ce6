// The one place a command's failure becomes a message and an exit code: the commands throw, and only this catches.
import { EXIT, errorDocument, formatError } from '../errors.ts';
import { write } from './io.ts';

export interface FailureOptions {
  failClosed: boolean;
  /** JSON mode (`--output json`, `--reporter json`): the error as a JSON document on stdout, for scripts. */
  json: boolean;
}

/** Runs a command; what it throws is reported by `failed`. */
export async function runAction(action: () => Promise<number>, options: FailureOptions): Promise<number> {
  try {
    return await action();
  } catch (error) {
    return failed(error, options);
  }
}

/** Writes the error to stderr (message, then fix), and in JSON mode to stdout as JSON too; under --fail-closed a failure blocks, and says so. */
export async function failed(error: unknown, { failClosed, json }: FailureOptions): Promise<number> {
  if (json) await write(process.stdout, `${JSON.stringify(errorDocument(error, failClosed), null, 2)}\n`);
  await write(
    process.stderr,
    `${formatError(error)}\n${failClosed ? 'peri-hooks: blocking because of --fail-closed\n' : ''}`,
  );
  return failClosed ? EXIT.block : EXIT.runnerError;
}
