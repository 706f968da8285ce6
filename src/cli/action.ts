// The one place a command's failure becomes a message and an exit code: the commands throw, and only this catches.
import { EXIT, formatError } from '../errors.ts';
import { write } from './io.ts';

/** Runs a command; what it throws is reported by `failed`. */
export async function runAction(action: () => Promise<number>, options: { failClosed: boolean }): Promise<number> {
  try {
    return await action();
  } catch (error) {
    return failed(error, options);
  }
}

/** Writes the error to stderr (message, then fix); under --fail-closed a failure blocks, and says so. */
export async function failed(error: unknown, { failClosed }: { failClosed: boolean }): Promise<number> {
  await write(process.stderr, `${formatError(error)}\n${failClosed ? 'peri-hooks: blocking because of --fail-closed\n' : ''}`);
  return failClosed ? EXIT.block : EXIT.runnerError;
}
