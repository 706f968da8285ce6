// `--state redis://…` against a real redis-server: two serve replicas and fire processes share sessions with no
// lost update, once hooks run once across them, async results travel through Redis, and a store that is down
// is a clear error (its password never shown).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createClient } from 'redis';
import { sessionKey } from '../../src/session/redis-store.ts';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';
import { freePort, type RedisServer, redisServerPath, startRedis } from '../helpers/redis.ts';
import { skipWithout } from '../helpers/required.ts';
import { call, type Served, startServe } from '../helpers/serve.ts';

const binary = redisServerPath();
const FIRINGS = 50;

const skip = skipWithout('redis-server', binary !== undefined, 'apt-get install -y redis-server');

interface Setup {
  project: Project;
  redis: RedisServer;
  replicas: Served[];
}

async function setup(
  t: { after: (fn: () => Promise<void>) => void },
  settings: object,
  replicas = 2,
  env: Record<string, string> = {},
): Promise<Setup> {
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
    served.push(
      await startServe(
        [
          '--listen',
          '127.0.0.1:0',
          '--project-root',
          project.dir,
          '--state',
          redis.url,
          '--state-dir',
          join(project.home, `state-${i}`),
        ],
        project.env(env),
      ),
    );
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

/** `fire --output json` of one input on the Redis store, in a state folder of its own. */
async function fireOn(
  redis: RedisServer,
  project: Project,
  event: string,
  input: string,
  env: Record<string, string> = {},
) {
  const result = await runCli(
    ['fire', event, '--output', 'json', '--state', redis.url, '--state-dir', join(project.home, 'state-fire')],
    { stdin: input, env: project.env(env) },
  );
  assert.notEqual(result.code, 1, result.stderr);
  return JSON.parse(result.stdout);
}

test(`${FIRINGS} concurrent Stop blocks of one session over two replicas and fire processes count ${FIRINGS} in Redis`, {
  skip,
}, async (t) => {
  const env = { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' };
  const { project, redis, replicas } = await setup(
    t,
    { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo again >&2; exit 2' }] }] } },
    2,
    env,
  );
  const input = project.input('Stop', { session_id: 'replicated' });
  // Every fifth firing is a fire process (each with a state folder of its own: only Redis is shared).
  const reports = await Promise.all(
    Array.from({ length: FIRINGS }, async (_, i) =>
      i % 5 === 4
        ? fireOn(redis, project, 'Stop', input, env)
        : (await call(`${replicas[i % 2]!.url}/v1/fire/Stop`, 'POST', input)).json(),
    ),
  );
  const counts = reports.map((report) => report.stopGuard.count).sort((a: number, b: number) => a - b);
  assert.deepEqual(
    counts,
    Array.from({ length: FIRINGS }, (_, i) => i + 1),
    'every firing saw the count of the one before it, in either replica or a fire',
  );
  assert.equal((await stored(redis.url, 'replicated')).stopBlocks.main, FIRINGS);
  assert.deepEqual(
    reports.flatMap((report) => report.warnings),
    [],
  );
});

test('fire and serve on one Redis see one session: the Stop guard counts on, a once hook runs once', {
  skip,
}, async (t) => {
  const env = { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' };
  const once = { type: 'command', command: `echo x >> "$CLAUDE_PROJECT_DIR/ran"`, once: true };
  const { project, redis, replicas } = await setup(
    t,
    { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'exit 2' }] }], PreToolUse: [{ hooks: [once] }] } },
    1,
    env,
  );
  const served = replicas[0]!;
  const stop = project.input('Stop', { session_id: 'fire-and-serve' });
  assert.equal((await call(`${served.url}/v1/fire/Stop`, 'POST', stop)).json().stopGuard.count, 1);
  assert.equal(
    (await fireOn(redis, project, 'Stop', stop, env)).stopGuard.count,
    2,
    "fire counts on from the server's block",
  );
  assert.equal(
    (await call(`${served.url}/v1/fire/Stop`, 'POST', stop)).json().stopGuard.count,
    3,
    "the server counts on from fire's block",
  );

  const preToolUse = project.input('PreToolUse', { session_id: 'fire-and-serve' });
  const fired = await fireOn(redis, project, 'PreToolUse', preToolUse);
  assert.equal(fired.hooks[0].status, 'ran');
  const skipped = await call(`${served.url}/v1/fire/PreToolUse`, 'POST', preToolUse);
  assert.equal(skipped.json().hooks[0].skipReason, 'once');
  const explained = await runCli(['explain', 'PreToolUse', '--output', 'json', '--state', redis.url], {
    stdin: preToolUse,
    env: project.env(),
  });
  assert.equal(JSON.parse(explained.stdout).hooks[0].skipReason, 'once', explained.stderr);
  assert.equal(readFileSync(join(project.dir, 'ran'), 'utf8'), 'x\n');
});

test('state reads a session from Redis as fire and serve keep it there, named by --state or $PERI_HOOKS_STATE_URL', {
  skip,
}, async (t) => {
  const env = { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' };
  const { project, redis, replicas } = await setup(
    t,
    { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'exit 2' }] }] } },
    1,
    env,
  );
  const stop = project.input('Stop', { session_id: 'state-from-redis' });
  for (let i = 0; i < 2; i++) await call(`${replicas[0]!.url}/v1/fire/Stop`, 'POST', stop);
  const place = `${redis.url} ${sessionKey('state-from-redis')}`;
  for (const [args, extra] of [
    [['--state', redis.url], {}],
    [[], { PERI_HOOKS_STATE_URL: redis.url }],
  ] as const) {
    const shown = await runCli(['state', 'state-from-redis', ...args], { env: project.env(extra) });
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(JSON.parse(shown.stdout).stopBlocks.main, 2);
    assert.equal(JSON.parse(shown.stdout).file, place);
    assert.equal(shown.stderr, '');
  }
  const folder = await runCli(['state', 'state-from-redis'], { env: project.env() });
  assert.deepEqual(JSON.parse(folder.stdout).stopBlocks, {}, 'without a store URL the state folder is read');
  const unknown = await runCli(['state', 'never-fired', '--state', redis.url], { env: project.env() });
  assert.equal(unknown.code, 0, unknown.stderr);
  assert.equal(
    unknown.stderr,
    `peri-hooks: no state kept for session "never-fired" in ${redis.url} ${sessionKey('never-fired')} (a new session)\n`,
  );
});

test('a once hook runs once across concurrent requests to two replicas', { skip }, async (t) => {
  const { project: shared, replicas } = await setup(t, {
    hooks: {
      PreToolUse: [{ hooks: [{ type: 'command', command: `echo x >> "$CLAUDE_PROJECT_DIR/ran"`, once: true }] }],
    },
  });
  const input = shared.input('PreToolUse', { session_id: 'once-replicated' });
  await Promise.all(
    Array.from({ length: 20 }, (_, i) => call(`${replicas[i % 2]!.url}/hooks/PreToolUse`, 'POST', input)),
  );
  assert.equal(readFileSync(join(shared.dir, 'ran'), 'utf8'), 'x\n');
});

test("an async hook's result lands in Redis and the other replica delivers it", { skip }, async (t) => {
  const hook = { type: 'command', command: 'cat > /dev/null; echo \'{"systemMessage":"lint finished"}\'', async: true };
  const { project, redis, replicas } = await setup(t, {
    hooks: { PostToolUse: [{ hooks: [hook] }], PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] },
  });
  const input = (event: string) => project.input(event, { session_id: 'async-replicated' });
  const first = await call(`${replicas[0]!.url}/v1/fire/PostToolUse`, 'POST', input('PostToolUse'));
  assert.equal(first.json().hooks[0].skipReason, 'background');
  while (((await stored(redis.url, 'async-replicated'))?.results ?? []).length === 0)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const next = await call(`${replicas[1]!.url}/hooks/PreToolUse`, 'POST', input('PreToolUse'));
  assert.deepEqual(next.json(), { systemMessage: 'lint finished' });
});

test('a Redis store that is down: fire goes on without the session and says so naming the store without its credentials, 2 with --fail-closed; state exits 1', {
  skip,
}, async (t) => {
  const project = makeProject();
  t.after(() => project.cleanup());
  project.write('.claude/settings.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
  const url = `redis://user:hunter2@127.0.0.1:${await freePort()}`;
  const input = project.input('Stop');
  for (const [flags, code] of [
    [[], 0],
    [['--fail-closed'], 2],
  ] as const) {
    const fired = await runCli(['fire', 'Stop', '--state', url, ...flags], { stdin: input, env: project.env() });
    assert.equal(fired.code, code, fired.stderr);
    assert.match(
      fired.stderr,
      /cannot reach the session store redis:\/\/\*\*\*@127\.0\.0\.1:\d+.*; the hooks that keep session state run without it/,
    );
    if (code === 2) assert.match(fired.stderr, /blocking because of --fail-closed/);
    assert.ok(!fired.stderr.includes('hunter2') && !fired.stderr.includes('user:'), fired.stderr);
  }
  const state = await runCli(['state', 'any', '--state', url], { env: project.env() });
  assert.equal(state.code, 1, state.stderr);
  assert.match(state.stderr, /cannot reach the session store redis:\/\/\*\*\*@127\.0\.0\.1:\d+/);
  assert.match(state.stderr, /fix: start Redis there/);
  assert.ok(!state.stderr.includes('hunter2'), state.stderr);
  const fromEnv = await runCli(['fire', 'Stop', '--output', 'json'], {
    stdin: input,
    env: project.env({ PERI_HOOKS_STATE_URL: url }),
  });
  assert.equal(fromEnv.code, 0);
  assert.ok(
    JSON.parse(fromEnv.stdout).warnings.some((warning: { code: string }) => warning.code === 'state-unreachable'),
  );
  assert.ok(!fromEnv.stdout.includes('hunter2'));
});

test("a Redis store that is down: the server goes on without the session, saying so without the store's credentials; with --fail-closed, a block", {
  skip,
}, async (t) => {
  const project = makeProject();
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: 'true', once: true },
            { type: 'command', command: 'echo "no Bash" >&2; exit 2' },
          ],
        },
      ],
    },
  });
  const url = `redis://user:hunter2@127.0.0.1:${await freePort()}`;
  const open = await startServe(
    ['--listen', '127.0.0.1:0', '--project-root', project.dir, '--state', url],
    project.env(),
  );
  const closed = await startServe(
    ['--listen', '127.0.0.1:0', '--project-root', project.dir, '--state', url, '--fail-closed'],
    project.env(),
  );
  t.after(async () => {
    await Promise.all([open.stop(), closed.stop()]);
    project.cleanup();
  });
  const input = project.input('PreToolUse');
  const report = await call(`${open.url}/v1/fire/PreToolUse`, 'POST', input);
  assert.equal(report.status, 200);
  assert.equal(report.json().blocked, true, 'the deny beside the once hook still decides');
  assert.ok(
    report
      .json()
      .warnings.some((warning: { message: string }) =>
        /cannot reach the session store redis:\/\/\*\*\*@127\.0\.0\.1/.test(warning.message),
      ),
  );
  const hooks = await call(`${open.url}/hooks/PreToolUse`, 'POST', input);
  assert.equal(hooks.json().hookSpecificOutput.permissionDecision, 'deny');
  assert.match(hooks.json().systemMessage, /cannot reach the session store/);
  const blocked = await call(`${closed.url}/v1/fire/PreToolUse`, 'POST', input);
  assert.deepEqual([blocked.json().blocked, blocked.json().failClosed], [true, true]);
  assert.match(blocked.json().reason, /cannot reach the session store[\s\S]*blocking because of --fail-closed/);
  for (const text of [report.text, hooks.text, blocked.text, open.stderr(), closed.stderr()])
    assert.ok(!text.includes('hunter2'));
});

// Issue 29 item 7: a Redis that hangs held every firing of serve forever, also under --fail-closed.
test('a Redis that hangs: every answer comes within the bound; a policy that keeps no state still decides, one that does runs without it and says so (blocks under --fail-closed)', {
  skip,
  timeout: 120_000,
}, async (t) => {
  const project = makeProject();
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no Bash" >&2; exit 2' }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true', once: true }] }],
    },
  });
  const redis = await startRedis(binary!);
  const open = await startServe(
    [
      '--listen',
      '127.0.0.1:0',
      '--project-root',
      project.dir,
      '--state',
      redis.url,
      '--state-dir',
      join(project.home, 'state-0'),
    ],
    project.env(),
  );
  const closed = await startServe(
    [
      '--listen',
      '127.0.0.1:0',
      '--project-root',
      project.dir,
      '--state',
      redis.url,
      '--state-dir',
      join(project.home, 'state-1'),
      '--fail-closed',
    ],
    project.env(),
  );
  t.after(async () => {
    process.kill(redis.pid, 'SIGCONT');
    await Promise.all([open.stop(), closed.stop()]);
    await redis.stop();
    project.cleanup();
  });
  const pre = project.input('PreToolUse.tool_name-Bash');
  const prompt = project.input('UserPromptSubmit');
  // Both servers hold a connection to the store before it hangs.
  for (const served of [open, closed])
    assert.equal((await call(`${served.url}/hooks/UserPromptSubmit`, 'POST', prompt)).status, 200);
  process.kill(redis.pid, 'SIGSTOP');

  const denied = await call(`${open.url}/hooks/PreToolUse`, 'POST', pre);
  assert.equal(denied.status, 200);
  assert.equal(denied.json().hookSpecificOutput.permissionDecision, 'deny');
  const report = (await call(`${open.url}/v1/fire/PreToolUse`, 'POST', pre)).json();
  assert.equal(report.blocked, true);
  assert.ok(
    report.warnings.some((warning: { message: string }) =>
      /cannot reach the session store .*no (answer|connection) within/.test(warning.message),
    ),
    JSON.stringify(report.warnings),
  );
  const once = await call(`${open.url}/hooks/UserPromptSubmit`, 'POST', prompt);
  assert.equal(once.status, 200);
  assert.match(once.json().systemMessage, /cannot reach the session store/);
  const blocked = await call(`${closed.url}/hooks/UserPromptSubmit`, 'POST', prompt);
  assert.equal(blocked.status, 200);
  assert.equal(blocked.json().decision, 'block');
  assert.match(blocked.json().reason, /cannot reach the session store[\s\S]*blocking because of --fail-closed/);
});
