// Safe by default: loopback unless a token is set, bearer checks, body limit, overload, long hooks that block
// nobody else, nothing secret in the log, a unix socket, and a graceful stop that kills every hook process.

import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { isAlive } from '../../src/session/lock.ts';
import { cliTarget, makeProject, type Project, runCli } from '../helpers/cli.ts';
import { type Answer, call, type Served, startServe } from '../helpers/serve.ts';
import { until } from '../helpers/wait.ts';

/** A hook that records its pid and that of a child, then waits for `release` (or a minute). */
function slowPolicy(project: Project): object {
  const script = project.write(
    'slow.sh',
    `#!/bin/sh
sleep 60 &
# Written whole, then renamed: the test reads the file as soon as it exists.
echo "$$ $!" > "${join(project.dir, 'pids.part')}" && mv "${join(project.dir, 'pids.part')}" "${join(project.dir, 'pids')}"
while [ ! -e "${join(project.dir, 'release')}" ]; do sleep 0.05; done
echo released >&2
exit 2
`,
  );
  return {
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: script }] }],
      PostToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }],
    },
  };
}

async function serve(
  t: { after: (fn: () => Promise<void> | void) => void },
  project: Project,
  args: string[],
): Promise<Served> {
  const served = await startServe(
    ['--listen', '127.0.0.1:0', '--project-root', project.dir, '--state-dir', join(project.home, 'state'), ...args],
    project.env(),
  );
  t.after(async () => {
    await served.stop();
    writeFileSync(join(project.dir, 'release'), '');
    project.cleanup();
  });
  return served;
}

/** A server whose one in-flight firing runs the slow hook, once that hook has started. */
async function slowFiring(t: { after: (fn: () => Promise<void> | void) => void }, args: string[]) {
  const project = makeProject();
  project.write('.claude/settings.json', slowPolicy(project));
  const served = await serve(t, project, args);
  const inFlight = call(`${served.url}/hooks/PreToolUse`, 'POST', project.input('PreToolUse'));
  await until('the slow hook to start', () => existsSync(join(project.dir, 'pids')));
  return { project, served, inFlight };
}

/** The in-flight firing is answered, the server exits 0, and none of the hook's processes is left. */
async function answeredAndGone(served: Served, inFlight: Promise<Answer>, pids: number[]): Promise<void> {
  const answer = await inFlight;
  assert.ok(answer.status === 200 || answer.status === 500, `answered: ${answer.status} ${answer.text}`);
  assert.equal(await served.exited, 0);
  await until('every hook process to be gone', () => !pids.some(isAlive));
}

function hookPids(project: Project): number[] {
  return readFileSync(join(project.dir, 'pids'), 'utf8').trim().split(' ').map(Number);
}

test('a non-loopback --listen without --token-file is refused before binding', async () => {
  const project = makeProject();
  try {
    const result = await runCli(['serve', '--listen', '0.0.0.0:0'], { env: project.env() });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /reachable from other machines, and no bearer token is set/);
    assert.match(result.stderr, /--token-file/);
  } finally {
    project.cleanup();
  }
});

test('with --token-file every request but /healthz needs the bearer token; the log holds no token, body or query', async (t) => {
  const project = makeProject();
  const tokenFile = project.write('token', 'the-secret-token-123\n');
  const served = await serve(t, project, ['--token-file', tokenFile]);
  const input = project.input('PreToolUse', { tool_input: { command: 'echo body-secret-456' } });
  assert.equal((await call(`${served.url}/healthz`, 'GET')).status, 200);
  const none = await call(`${served.url}/v1/fire/PreToolUse`, 'POST', input);
  assert.equal(none.status, 401);
  assert.equal(none.headers['www-authenticate'], 'Bearer');
  assert.equal(
    (await call(`${served.url}/v1/fire/PreToolUse`, 'POST', input, { authorization: 'Bearer the-secret-token-12' }))
      .status,
    401,
  );
  assert.equal(
    (await call(`${served.url}/v1/fire/PreToolUse`, 'POST', input, { authorization: 'Basic the-secret-token-123' }))
      .status,
    401,
  );
  const right = await call(
    `${served.url}/v1/fire/PreToolUse?project=${encodeURIComponent(project.dir)}&q=query-secret-789`,
    'POST',
    input,
    { authorization: 'Bearer the-secret-token-123' },
  );
  assert.equal(right.status, 200);
  await until('the log lines of the requests', () => served.stderr().split('\n').length > 5);
  assert.match(served.stderr(), /POST \/v1\/fire\/PreToolUse 200/);
  for (const secret of ['the-secret-token', 'body-secret-456', 'query-secret-789'])
    assert.ok(!served.stderr().includes(secret), `the log holds ${secret}`);
});

test('a body over 10 MiB is 413, with or without a content-length', async (t) => {
  const project = makeProject();
  const served = await serve(t, project, []);
  const big = `{"x":"${'a'.repeat(10 * 1024 * 1024)}"}`;
  assert.equal((await call(`${served.url}/hooks/PreToolUse`, 'POST', big)).status, 413);
  const chunked = await new Promise<number>((resolve, reject) => {
    const target = new URL(`${served.url}/hooks/PreToolUse`);
    const req = request(
      { method: 'POST', host: target.hostname, port: target.port, path: target.pathname },
      (response) => {
        response.resume();
        resolve(response.statusCode!);
      },
    );
    req.on('error', reject);
    for (let i = 0; i < 11; i++) req.write('a'.repeat(1024 * 1024));
    req.end();
  });
  assert.equal(chunked, 413);
});

test('a long hook blocks no other request; beyond --max-active and --max-queued a request gets 503 at once', async (t) => {
  const project = makeProject();
  project.write('.claude/settings.json', slowPolicy(project));
  const served = await serve(t, project, ['--max-active', '2', '--max-queued', '1']);
  const slow = call(`${served.url}/hooks/PreToolUse`, 'POST', project.input('PreToolUse'));
  await until('the slow hook to start', () => existsSync(join(project.dir, 'pids')));
  // The slow firing holds one slot: health and another firing are answered meanwhile.
  assert.equal((await call(`${served.url}/healthz`, 'GET')).status, 200);
  assert.equal((await call(`${served.url}/hooks/PostToolUse`, 'POST', project.input('PostToolUse'))).status, 200);
  // A second slow firing takes the other slot, a third waits in the queue, a fourth is refused.
  const second = call(`${served.url}/hooks/PreToolUse`, 'POST', project.input('PreToolUse'));
  const third = call(`${served.url}/hooks/PreToolUse`, 'POST', project.input('PreToolUse'));
  let refused: Answer;
  for (;;) {
    refused = await call(`${served.url}/hooks/PostToolUse`, 'POST', project.input('PostToolUse'));
    if (refused.status === 503) break;
    // The second and third requests may not have reached the server yet.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(refused.headers['retry-after'], '1');
  assert.match(refused.json().error, /overloaded/);
  writeFileSync(join(project.dir, 'release'), '');
  for (const answer of await Promise.all([slow, second, third])) {
    assert.equal(answer.status, 200);
    assert.match(answer.json().hookSpecificOutput.permissionDecisionReason, /released/);
  }
});

// Issue 29 item 8: Claude Code reads a 503 as a non-blocking error and runs the tool.
test('--fail-closed: beyond --max-active and --max-queued, /hooks answers a block (200) where the event can block, 503 elsewhere', async (t) => {
  const project = makeProject();
  project.write('.claude/settings.json', slowPolicy(project));
  const served = await serve(t, project, ['--max-active', '1', '--max-queued', '0', '--fail-closed']);
  const slow = call(`${served.url}/hooks/PreToolUse`, 'POST', project.input('PreToolUse'));
  await until('the slow hook to start', () => existsSync(join(project.dir, 'pids')));
  const denied = await call(`${served.url}/hooks/PreToolUse`, 'POST', project.input('PreToolUse'));
  assert.equal(denied.status, 200);
  assert.equal(denied.json().hookSpecificOutput.permissionDecision, 'deny');
  assert.match(
    denied.json().hookSpecificOutput.permissionDecisionReason,
    /^peri-hooks: overloaded: 1 firings run and 0 wait\nperi-hooks: blocking because of --fail-closed$/,
  );
  const stop = await call(`${served.url}/hooks/Stop`, 'POST', project.input('Stop'));
  assert.deepEqual([stop.status, stop.json().decision], [200, 'block']);
  // An event that cannot block, and the report route, keep the 503.
  assert.equal((await call(`${served.url}/hooks/SessionEnd`, 'POST', project.input('SessionEnd'))).status, 503);
  assert.equal((await call(`${served.url}/v1/fire/PreToolUse`, 'POST', project.input('PreToolUse'))).status, 503);
  writeFileSync(join(project.dir, 'release'), '');
  assert.equal((await slow).status, 200);
});

test('SIGTERM lets an in-flight firing finish within --stop-grace, then exits 0', async (t) => {
  const { project, served, inFlight } = await slowFiring(t, ['--stop-grace', '60']);
  served.child.kill('SIGTERM');
  await until('serve to log that it is stopping', () => served.stderr().includes('stopping'));
  writeFileSync(join(project.dir, 'release'), '');
  const answer = await inFlight;
  assert.match(answer.json().hookSpecificOutput.permissionDecisionReason, /released/);
  assert.equal(await served.exited, 0);
});

test('SIGTERM past --stop-grace kills every hook process tree, answers the request, and exits 0', async (t) => {
  const { project, served, inFlight } = await slowFiring(t, ['--stop-grace', '0']);
  const pids = hookPids(project);
  assert.ok(pids.every(isAlive));
  served.child.kill('SIGTERM');
  await answeredAndGone(served, inFlight, pids);
});

test('a second SIGTERM during the grace kills every hook process tree at once; the server still exits 0', async (t) => {
  const { project, served, inFlight } = await slowFiring(t, ['--stop-grace', '600']);
  const pids = hookPids(project);
  served.child.kill('SIGTERM');
  await until('serve to log that it is stopping', () => served.stderr().includes('stopping'));
  served.child.kill('SIGTERM');
  await answeredAndGone(served, inFlight, pids);
});

test('hooks are spawned by a helper process of the server, which kills them when the server is SIGKILLed', {
  skip: cliTarget() === 'deno' && 'under Deno the server spawns its hooks itself',
}, async (t) => {
  const { project, served, inFlight } = await slowFiring(t, []);
  void inFlight.catch(() => {});
  const pids = hookPids(project);
  const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  // The hook's parent is the helper (a small process forks faster than the grown server), the server the helper's.
  const helper = parentOf(pids[0]!);
  assert.notEqual(helper, served.child.pid);
  assert.equal(parentOf(helper), served.child.pid);
  served.child.kill('SIGKILL');
  await served.exited;
  await until('every hook process and the helper to be gone', () => ![...pids, helper].some(isAlive));
});

test('SIGTERMs sent without pause through the stop and the exit never change the exit code from 0', async (t) => {
  const project = makeProject();
  const served = await serve(t, project, []);
  let exited = false;
  void served.exited.then(() => {
    exited = true;
  });
  // The last moments of the process are the ones at risk: a signal there must not end it with 143.
  while (!exited) {
    served.child.kill('SIGTERM');
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(await served.exited, 0);
  assert.equal(served.child.signalCode, null);
  assert.match(served.stderr(), /stopping\n(.|\n)*stopped\n/);
});

test('--socket serves on a unix socket made 0600, and removes it on stop', async (t) => {
  const project = makeProject();
  const socket = join(project.home, 'peri.sock');
  const served = await startServe(['--socket', socket, '--state-dir', join(project.home, 'state')], project.env());
  t.after(() => project.cleanup());
  try {
    assert.equal(served.url, `unix:${socket}`);
    assert.equal(statSync(socket).mode & 0o777, 0o600);
    const health = await call('http://peri-hooks/healthz', 'GET', undefined, {}, socket);
    assert.equal(health.status, 200);
    const report = await call('http://peri-hooks/v1/fire/PreToolUse', 'POST', project.input('PreToolUse'), {}, socket);
    assert.equal(report.json().blocked, false);
  } finally {
    assert.equal(await served.stop(), 0);
  }
  assert.ok(!existsSync(socket));
});
