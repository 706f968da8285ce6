// `serve --state redis://…` against a real redis-server: two replicas share sessions with no lost update, once
// hooks run once across them, async results travel through Redis, and a store that is down costs a warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from 'redis';
import { sessionKey } from '../../src/session/redis-store.ts';
import { makeProject, type Project } from '../helpers/cli.ts';
import { freePort, redisServerPath, startRedis, type RedisServer } from '../helpers/redis.ts';
import { call, startServe, type Served } from '../helpers/serve.ts';

const binary = redisServerPath();
const FIRINGS = 50;

if (!binary && process.env.CI === 'true') {
  test('redis-server is installed in CI', () => assert.fail('redis-server is missing: .ci/run installs it (apt-get install -y redis-server)'));
}
const skip = binary ? false : 'redis-server is not installed (apt-get install -y redis-server); the Redis store tests are skipped';

interface Setup {
  project: Project;
  redis: RedisServer;
  replicas: Served[];
}

async function setup(t: { after: (fn: () => Promise<void>) => void }, settings: object, replicas = 2, env: Record<string, string> = {}): Promise<Setup> {
  const project = makeProject();
  project.write('.claude/settings.json', settings);
  const redis = await startRedis(binary!);
  const served: Served[] = [];
  t.after(async () => {
    await Promise.all(served.map((replica) => replica.stop()));
    await redis.stop();
    project.cleanup();
  });
  for (let i = 0; i < replicas; i++) {
    // Each replica has its own state folder: only Redis is shared.
    served.push(await startServe(['--listen', '127.0.0.1:0', '--state', redis.url, '--state-dir', join(project.home, `state-${i}`)], project.env(env)));
  }
  return { project, redis, replicas: served };
}

async function stored(url: string, sessionId: string): Promise<any> {
  const client = createClient({ url });
  await client.connect();
  try {
    const text = await client.get(sessionKey(sessionId));
    return text === null ? undefined : JSON.parse(text);
  } finally {
    await client.close();
  }
}

test(`${FIRINGS} concurrent Stop blocks of one session over two replicas count ${FIRINGS} in Redis`, { skip }, async (t) => {
  const { project, redis, replicas } = await setup(t, { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo again >&2; exit 2' }] }] } }, 2, { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' });
  const input = project.input('Stop', { session_id: 'replicated' });
  const answers = await Promise.all(Array.from({ length: FIRINGS }, (_, i) => call(`${replicas[i % 2]!.url}/v1/fire/Stop`, 'POST', input)));
  const counts = answers.map((answer) => answer.json().stopGuard.count).sort((a: number, b: number) => a - b);
  assert.deepEqual(counts, Array.from({ length: FIRINGS }, (_, i) => i + 1), 'every firing saw the count of the one before it, on either replica');
  assert.equal((await stored(redis.url, 'replicated')).stopBlocks.main, FIRINGS);
  assert.deepEqual(answers.flatMap((answer) => answer.json().warnings), []);
});

test('a once hook runs once across concurrent requests to two replicas', { skip }, async (t) => {
  const { project: shared, replicas } = await setup(t, { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `echo x >> "$CLAUDE_PROJECT_DIR/ran"`, once: true }] }] } });
  const input = shared.input('PreToolUse', { session_id: 'once-replicated' });
  await Promise.all(Array.from({ length: 20 }, (_, i) => call(`${replicas[i % 2]!.url}/hooks/PreToolUse`, 'POST', input)));
  assert.equal(readFileSync(join(shared.dir, 'ran'), 'utf8'), 'x\n');
});

test('an async hook\'s result lands in Redis and the other replica delivers it', { skip }, async (t) => {
  const hook = { type: 'command', command: 'cat > /dev/null; echo \'{"systemMessage":"lint finished"}\'', async: true };
  const { project, redis, replicas } = await setup(t, { hooks: { PostToolUse: [{ hooks: [hook] }], PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
  const input = (event: string) => project.input(event, { session_id: 'async-replicated' });
  const first = await call(`${replicas[0]!.url}/v1/fire/PostToolUse`, 'POST', input('PostToolUse'));
  assert.equal(first.json().hooks[0].skipReason, 'background');
  while (((await stored(redis.url, 'async-replicated'))?.results ?? []).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  const next = await call(`${replicas[1]!.url}/hooks/PreToolUse`, 'POST', input('PreToolUse'));
  assert.deepEqual(next.json(), { systemMessage: 'lint finished' });
});

test('a Redis store that is down costs a warning, and the firing goes on as in a new session', { skip }, async (t) => {
  const project = makeProject();
  project.write('.claude/settings.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'exit 2' }] }] } });
  const port = await freePort();
  const served = await startServe(['--listen', '127.0.0.1:0', '--state', `redis://user:hunter2@127.0.0.1:${port}`], project.env());
  t.after(async () => {
    await served.stop();
    project.cleanup();
  });
  const answer = await call(`${served.url}/v1/fire/Stop`, 'POST', project.input('Stop'));
  assert.equal(answer.status, 200);
  assert.equal(answer.json().blocked, true);
  const warnings = answer.json().warnings.map((warning: { message: string }) => warning.message).join('\n');
  assert.match(warnings, /cannot use the session store redis:\/\/user:\*\*\*@127\.0\.0\.1/);
  assert.ok(!warnings.includes('hunter2'));
});
