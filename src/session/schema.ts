// The shape of one session's state file, validated with zod when read (a file on disk is an edge).
import * as z from 'zod';
import { STATE_VERSION } from './state.ts';

export { emptyState, STATE_VERSION } from './state.ts';

// Built on first use: most firings never read an existing state file.
function buildSessionStateSchema() {
  const onceEntrySchema = z.object({
    /** `done` after a successful run; `running` while a firing (or an async supervisor, by pid) runs it. */
    status: z.enum(['done', 'running']),
    pid: z.number().int().optional(),
    /** The machine of `pid`: a pid says nothing on another replica sharing the store. */
    host: z.string().optional(),
    label: z.string(),
    at: z.string(),
  });

  const asyncResultSchema = z.object({
    jobId: z.string(),
    hookId: z.string(),
    label: z.string(),
    event: z.string(),
    finishedAt: z.string(),
    systemMessage: z.string().optional(),
    additionalContext: z.string().optional(),
    /** asyncRewake: the exit-2 message, delivered as Claude Code's "Stop hook blocking error" reminder. */
    rewake: z.string().optional(),
  });

  return z.object({
    version: z.literal(STATE_VERSION),
    sessionId: z.string(),
    updatedAt: z.string(),
    /** By hook identity hash: `once` hooks that ran (or are running) in this session. */
    once: z.record(z.string(), onceEntrySchema).default({}),
    /** Consecutive blocking Stop results (`main`) and SubagentStop results (`agent:<agent_id>`). */
    stopBlocks: z.record(z.string(), z.number().int().nonnegative()).default({}),
    /** Finished async hooks whose messages no firing has delivered yet. */
    results: z.array(asyncResultSchema).default([]),
  });
}

let stateSchema: ReturnType<typeof buildSessionStateSchema> | undefined;
/** The schema of a session state file (cached). */
export function sessionStateSchema(): ReturnType<typeof buildSessionStateSchema> {
  return (stateSchema ??= buildSessionStateSchema());
}

export type SessionState = z.infer<ReturnType<typeof buildSessionStateSchema>>;
export type AsyncResult = SessionState['results'][number];
export type OnceEntry = SessionState['once'][string];
