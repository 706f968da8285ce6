// A new session's state, without zod: a firing that finds no state file never loads the schema (schema.ts).

import { isoTime } from '../platform/clock.ts';
import type { SessionState } from './schema.ts';

export const STATE_VERSION = 1;
/** Sessions untouched for this long are removed. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export function emptyState(sessionId: string): SessionState {
  return { version: STATE_VERSION, sessionId, updatedAt: isoTime(new Date(0)), once: {}, stopBlocks: {}, results: [] };
}
