// `peri-hooks state <session_id>`: what peri-hooks remembers of one session, as JSON on stdout, read from the
// store fire and serve keep it in (the state folder, or Redis with --state / $PERI_HOOKS_STATE_URL).
import { homedir } from 'node:os';
import { EXIT } from '../../errors.ts';
import { stateDocumentSchema } from '../../report/documents.ts';
import { documentText } from '../../report/shape.ts';
import { closeStores, readStoredSession, resolveStateDir, type SessionRef, sessionPlace } from '../../session/store.ts';
import { type StateFlags, stateOptions, write } from '../io.ts';

export async function stateCommand(sessionId: string, flags: StateFlags): Promise<number> {
  const { stateDir, stateUrl } = stateOptions(flags);
  const ref: SessionRef = {
    dir: resolveStateDir(process.env, process.env.HOME ?? homedir(), stateDir),
    sessionId,
    ...(stateUrl ? { store: stateUrl } : {}),
  };
  const [read, place] = await Promise.all([readStoredSession(ref), sessionPlace(ref)]).finally(closeStores);
  const notes = read.warning
    ? `peri-hooks: warning: ${read.warning}\n`
    : read.exists
      ? ''
      : `peri-hooks: no state kept for session "${sessionId}" in ${ref.store ? place : ref.dir} (a new session)\n`;
  await write(process.stdout, documentText(stateDocumentSchema(), { file: place, ...read.state }));
  await write(process.stderr, notes);
  return EXIT.ok;
}
