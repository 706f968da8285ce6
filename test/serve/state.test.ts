// Session state through the server: concurrent requests of one session lose no update, and the state folder
// is the one `fire` reads and writes.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSession, updateSession } from '../../src/session/store.ts';
import { makeProject, runCli } from '../helpers/cli.ts';
import { call, startServe } from '../helpers/serve.ts';

const FIRINGS = 50;

test(`${FIRINGS} concurrent Stop blocks of one session count ${FIRINGS}, and fire on the same folder counts on`, async (t) => {
  const project = makeProject();
  const stateDir = join(project.home, 'state');
  project.write('.claude/settings.json', {
    hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo again >&2; exit 2' }] }] },
  });
  // No cap: every block counts, so the count is the number of updates that landed.
  const env = project.env({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '0' });
  const served = await startServe(
    ['--listen', '127.0.0.1:0', '--project-root', project.dir, '--state-dir', stateDir],
    env,
  );
  t.after(async () => {
    await served.stop();
    project.cleanup();
  });
  const input = project.input('Stop', { session_id: 'shared-session' });
  const answers = await Promise.all(
    Array.from({ length: FIRINGS }, () => call(`${served.url}/v1/fire/Stop`, 'POST', input)),
  );
  assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
  const counts = answers.map((answer) => answer.json().stopGuard.count).sort((a: number, b: number) => a - b);
  assert.deepEqual(
    counts,
    Array.from({ length: FIRINGS }, (_, i) => i + 1),
    'each firing saw the count of the one before',
  );

  const fired = await runCli(['fire', 'Stop', '--output', 'json', '--state-dir', stateDir], { stdin: input, env });
  assert.equal(JSON.parse(fired.stdout).stopGuard.count, FIRINGS + 1);
  const again = await call(`${served.url}/v1/fire/Stop`, 'POST', input);
  assert.equal(again.json().stopGuard.count, FIRINGS + 2, 'the server reads what fire wrote');
  const state = JSON.parse((await runCli(['state', 'shared-session', '--state-dir', stateDir], { env })).stdout);
  assert.equal(state.stopBlocks.main, FIRINGS + 2);
});

test('a once hook runs once across concurrent requests and a later fire of the same session', async (t) => {
  const project = makeProject();
  const stateDir = join(project.home, 'state');
  const ran = join(project.dir, 'ran');
  project.write('.claude/settings.json', {
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `echo x >> ${ran}`, once: true }] }] },
  });
  const served = await startServe(
    ['--listen', '127.0.0.1:0', '--project-root', project.dir, '--state-dir', stateDir],
    project.env(),
  );
  t.after(async () => {
    await served.stop();
    project.cleanup();
  });
  const input = project.input('PreToolUse', { session_id: 'once-session' });
  await Promise.all(Array.from({ length: 20 }, () => call(`${served.url}/hooks/PreToolUse`, 'POST', input)));
  await runCli(['fire', 'PreToolUse', '--state-dir', stateDir], { stdin: input, env: project.env() });
  assert.equal(readFileSync(ran, 'utf8'), 'x\n');
});

test("updateSession is safe across concurrent callers inside one process (the server's case)", async (t) => {
  const project = makeProject();
  t.after(() => project.cleanup());
  const ref = { dir: join(project.home, 'state'), sessionId: 'in-process' };
  const deadline = Date.now() + 120_000;
  const updates = await Promise.all(
    Array.from({ length: 100 }, () =>
      updateSession(
        ref,
        (state) => {
          state.stopBlocks.main = (state.stopBlocks.main ?? 0) + 1;
        },
        { deadline },
      ),
    ),
  );
  assert.ok(updates.every((update) => update.ok));
  assert.equal((await readSession(ref)).state.stopBlocks.main, 100);
});
