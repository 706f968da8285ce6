// The Redis session store (`--state redis://…` of fire and serve), for replicas that share sessions: the same state as a
// session file, one key per session, changed by compare-and-set (a Lua script writes only if the value is
// still the one read), retried until the firing's deadline, so no update is ever lost. A store that cannot be
// reached when a firing starts is an error here (fire then runs without the session and says so; state and
// explain exit 1); one lost later is a warning, as the file store's problems are. The client is loaded only here.
import type { RedisClientType } from 'redis';
import { PeriHooksError } from '../errors.ts';
import { isoTime } from '../platform/clock.ts';
import { sha256Hex } from '../platform/hash.ts';
import { shownUrl } from '../text.ts';
import { parseSession } from './read.ts';
import { emptyState, type SessionState } from './schema.ts';
import { SESSION_MAX_AGE_MS } from './state.ts';
import type { ReadResult, SessionRef, Update } from './store.ts';

/** Sets KEYS[1] to ARGV[2] (expiring after ARGV[3] ms) only while it still holds ARGV[1] ('' = absent). */
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if (current == false and ARGV[1] == '') or current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

/** Connecting waits this long at most: a store that is down must not hold a firing for its whole budget. */
const CONNECT_TIMEOUT_MS = 5000;
const RECONNECTS = 3;
/** A command waits this long at most (less when the firing's deadline is nearer). */
const COMMAND_TIMEOUT_MS = 5000;
/** ...but never less than this, even at or past the deadline (explain reads with a deadline of now). */
const COMMAND_FLOOR_MS = 1000;

const clients = new Map<string, Promise<RedisClientType>>();

export function sessionKey(sessionId: string): string {
  return `peri-hooks:session:${sha256Hex(JSON.stringify(sessionId))}`;
}

/** The store (its password hidden) and the session's key. */
export function redisSessionPlace(ref: SessionRef & { store: string }): string {
  return `${shownUrl(ref.store)} ${sessionKey(ref.sessionId)}`;
}

/**
 * The read at the start of a firing. A store that cannot be reached is an error, as a file peri-hooks was told
 * to read is: the firing cannot keep the session it was pointed at. A corrupt value is a warning, as a corrupt file.
 */
export async function readRedisSession(ref: SessionRef & { store: string; deadline?: number }): Promise<ReadResult> {
  const where = redisSessionPlace(ref);
  let text: string | null;
  try {
    text = await bounded(ref.store, ref.deadline, async (redis) => redis.get(sessionKey(ref.sessionId)));
  } catch (error) {
    throw new PeriHooksError(
      'state-unreachable',
      `cannot reach the session store ${shownUrl(ref.store)}: ${reason(error)}`,
      'start Redis there, or point --state (or $PERI_HOOKS_STATE_URL) at one that runs; --no-state fires without session state',
    );
  }
  return text === null ? { state: emptyState(ref.sessionId), exists: false } : await parseSession(text, ref, where);
}

export async function updateRedisSession<T>(
  ref: SessionRef & { store: string },
  change: (state: SessionState) => T,
  deadline: number,
): Promise<Update<T>> {
  const key = sessionKey(ref.sessionId);
  const where = redisSessionPlace(ref);
  try {
    for (let attempt = 0; ; attempt++) {
      const before = await bounded(ref.store, deadline, (redis) => redis.get(key));
      const read =
        before === null
          ? { state: emptyState(ref.sessionId), warning: undefined }
          : await parseSession(before, ref, where);
      const value = change(read.state);
      read.state.updatedAt = isoTime();
      const written = await bounded(ref.store, deadline, (redis) =>
        redis.eval(COMPARE_AND_SET, {
          keys: [key],
          arguments: [before ?? '', JSON.stringify(read.state), String(SESSION_MAX_AGE_MS)],
        }),
      );
      if (written === 1) return { ok: true, value, warnings: read.warning ? [read.warning] : [] };
      if (Date.now() >= deadline)
        return {
          ok: false,
          warnings: [
            `the session state ${where} kept changing under this firing until its deadline; this firing goes on as if the session were new`,
          ],
        };
      // Another firing wrote between our read and our write: read again, after a short jittered pause.
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, 1 + attempt) * Math.random()));
    }
  } catch (error) {
    return { ok: false, warnings: [unreachable(ref.store, error)] };
  }
}

/**
 * One command, bounded: a Redis that hangs (stopped, partitioned) holds no firing much past
 * its deadline, nor more than COMMAND_TIMEOUT_MS, which a healthy store never nears. A command that times out drops
 * the connection, so that the next one connects afresh instead of queueing behind it.
 */
async function bounded<T>(
  url: string,
  deadline: number | undefined,
  command: (redis: RedisClientType) => Promise<T>,
): Promise<T> {
  // Connecting has its own bound (CONNECT_TIMEOUT_MS).
  const client = connect(url);
  const redis = await client;
  const limitMs = Math.max(COMMAND_FLOOR_MS, Math.min(COMMAND_TIMEOUT_MS, (deadline ?? Infinity) - Date.now()));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${(limitMs / 1000).toFixed(1)} s`)), limitMs);
  });
  try {
    return await Promise.race([command(redis), timeout]);
  } catch (error) {
    if (clients.get(url) === client) clients.delete(url);
    redis.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** One connection per URL for the process, until closeRedisClients. */
function connect(url: string): Promise<RedisClientType> {
  let client = clients.get(url);
  if (!client) {
    client = open(url);
    clients.set(url, client);
    client.catch(() => clients.delete(url));
  }
  return client;
}

async function open(url: string): Promise<RedisClientType> {
  const { createClient } = await import('redis');
  // No offline queue: while the store is unreachable a command fails at once instead of waiting.
  // A few quick reconnects, then the client ends and the next firing opens a new one.
  const reconnectStrategy = (retries: number, cause: Error) => (retries >= RECONNECTS ? cause : 100 * 2 ** retries);
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy },
  }) as RedisClientType;
  // Errors reach the caller through each command; the client's own 'error' event would otherwise crash the process.
  client.on('error', () => {});
  client.on('end', () => clients.delete(url));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000} s`)),
      CONNECT_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([client.connect(), timeout]);
  } catch (error) {
    client.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return client;
}

export async function closeRedisClients(): Promise<void> {
  const open = [...clients.values()];
  clients.clear();
  await Promise.all(
    open.map((client) =>
      client.then(
        (connected) => connected.close(),
        () => undefined,
      ),
    ),
  );
}

function unreachable(url: string, error: unknown): string {
  return `cannot use the session store ${shownUrl(url)} (${reason(error)}); this firing's changes to the session are lost`;
}

/** What went wrong, without the URL: the client's messages may quote it, password and all. */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/rediss?:\/\/\S+/g, (url) => shownUrl(url));
}
