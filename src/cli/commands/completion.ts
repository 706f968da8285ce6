// `peri-hooks completion <shell>`: prints the completion script for bash, zsh or fish.
import { EXIT, PeriHooksError } from '../../errors.ts';
import { completionScript, type Shell } from '../completion.ts';
import { write } from '../io.ts';
import { SHELLS } from '../options.ts';

export async function completionCommand(shell: string): Promise<number> {
  if (!SHELLS.includes(shell as Shell))
    throw new PeriHooksError('usage', `no completion for the shell "${shell}"`, `use one of: ${SHELLS.join(', ')}`);
  await write(process.stdout, completionScript(shell as Shell));
  return EXIT.ok;
}
