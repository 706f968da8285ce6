// `peri-hooks state <session_id>`: what peri-hooks remembers of one session, as JSON on stdout.
import { homedir } from 'node:os';
import { EXIT } from '../../errors.ts';
import { stateDocumentSchema } from '../../report/documents.ts';
import { documentText } from '../../report/shape.ts';
import { readSession, resolveStateDir, sessionFile } from '../../session/store.ts';
import { write } from '../io.ts';

export async function stateCommand(sessionId: string, flags: { stateDir?: unknown }): Promise<number> {
  const ref = { dir: resolveStateDir(process.env, process.env.HOME ?? homedir(), flags.stateDir === undefined ? undefined : String(flags.stateDir)), sessionId };
  const read = await readSession(ref);
  const notes = read.warning ? `peri-hooks: warning: ${read.warning}\n` : read.exists ? '' : `peri-hooks: no state kept for session "${sessionId}" in ${ref.dir} (a new session)\n`;
  await write(process.stdout, documentText(stateDocumentSchema(), { file: sessionFile(ref), ...read.state }));
  await write(process.stderr, notes);
  return EXIT.ok;
}
