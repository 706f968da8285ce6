// A session's stored text read back into its state, shared by the file and the Redis store; zod loads only for
// a file the generated check cannot vouch for.
import { DEFER, sessionStateCheck } from '../generated/checks.ts';
import type { SessionState } from './schema.ts';
import { emptyState } from './state.ts';
import type { ReadResult, SessionRef } from './store.ts';

/**
 * A session's stored text, validated: a corrupt one is a warning and a new session. `where` names it in the warning.
 * The generated check accepts a valid file without zod; zod's schema words what is wrong with any other.
 */
export async function parseSession(text: string, ref: SessionRef, where: string): Promise<ReadResult> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      state: emptyState(ref.sessionId),
      exists: false,
      warning: `the session state ${where} is corrupt (not JSON); this firing goes on as if the session were new`,
    };
  }
  const checked = sessionStateCheck(value);
  const parsed =
    checked !== DEFER
      ? { success: true as const, data: checked as SessionState }
      : (await import('./schema.ts')).sessionStateSchema().safeParse(value);
  if (!parsed.success || parsed.data.sessionId !== ref.sessionId) {
    const why = parsed.success
      ? 'it belongs to another session'
      : `${parsed.error.issues[0]!.path.join('.') || 'state'}: ${parsed.error.issues[0]!.message}`;
    return {
      state: emptyState(ref.sessionId),
      exists: false,
      warning: `the session state ${where} is corrupt (${why}); this firing goes on as if the session were new`,
    };
  }
  return { state: parsed.data, exists: true };
}
