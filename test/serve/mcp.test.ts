// Under serve, mcp_tool hooks share pooled connections across requests: the MCP server starts once, a crashed
// one is started again by the next request, and stopping the server stops the MCP server too.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { isAlive } from '../../src/session/lock.ts';
import { makeProject } from '../helpers/cli.ts';
import { call, startServe } from '../helpers/serve.ts';
import { until } from '../helpers/wait.ts';
import { readLog, stdioGuard } from '../mcp/guard.ts';

test('serve pools MCP connections across firings and reconnects after the MCP server crashed', async (t) => {
  const project = makeProject();
  const log = join(project.home, 'guard.log');
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'mcp_tool', server: 'guard', tool: 'deny', input: { event: '${hook_event_name}' } }],
        },
      ],
    },
  });
  const served = await startServe(
    [
      '--listen',
      '127.0.0.1:0',
      '--project-root',
      project.dir,
      '--no-state',
      '--mcp-config',
      JSON.stringify({ mcpServers: { guard: stdioGuard(log) } }),
    ],
    project.env(),
  );
  let stopped = false;
  t.after(async () => {
    if (!stopped) await served.stop();
    project.cleanup();
  });
  const starts = () => readLog(log).filter((entry) => entry.event === 'start');
  const fire = async () =>
    (await call(`${served.url}/v1/fire/PreToolUse`, 'POST', project.input('PreToolUse'))).json() as {
      blocked: boolean;
    };

  assert.equal((await fire()).blocked, true);
  assert.equal((await fire()).blocked, true);
  assert.equal(starts().length, 1, 'the second firing reused the connection');

  const first = starts()[0]!;
  process.kill(first.pid, 'SIGKILL');
  await until('the crashed server to be gone', () => !isAlive(first.pid), 15_000);
  // The firing that meets the dead connection may fail (a non-blocking error); the pool must not keep it.
  if (!(await fire()).blocked) assert.equal((await fire()).blocked, true);
  assert.equal(starts().length, 2);
  const second = starts()[1]!;
  assert.ok(isAlive(second.pid));

  await served.stop();
  stopped = true;
  await until('stopping serve to stop the MCP server', () => !isAlive(second.pid), 15_000);
});

test('an MCP answer over 10 MiB fails that hook only: serve answers, stays up, and the next firing reaches the server again', async (t) => {
  const project = makeProject();
  const log = join(project.home, 'guard.log');
  const hook = (tool: string) => ({ type: 'mcp_tool', server: 'guard', tool, input: { event: '${hook_event_name}' } });
  project.write('.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook('huge')] }], Stop: [{ hooks: [hook('block')] }] },
  });
  const served = await startServe(
    [
      '--listen',
      '127.0.0.1:0',
      '--project-root',
      project.dir,
      '--no-state',
      '--fail-closed',
      '--mcp-config',
      JSON.stringify({ mcpServers: { guard: stdioGuard(log) } }),
    ],
    project.env(),
  );
  t.after(async () => {
    await served.stop();
    project.cleanup();
  });
  const huge = await call(`${served.url}/hooks/PreToolUse`, 'POST', project.input('PreToolUse'));
  assert.equal(huge.status, 200);
  assert.equal(huge.json().hookSpecificOutput.permissionDecision, 'deny');
  // The reason the model reads names no hook output (reduce.ts); the failure itself is in the report.
  assert.equal(
    huge.json().hookSpecificOutput.permissionDecisionReason,
    'a policy hook failed (blocking because of --fail-closed)\n',
  );
  const stop = await call(`${served.url}/hooks/Stop`, 'POST', project.input('Stop'));
  assert.deepEqual(stop.json(), { decision: 'block', reason: 'blocked by guard' });
  assert.equal(served.child.exitCode, null);
  assert.equal(
    readLog(log).filter((entry) => entry.event === 'start').length,
    2,
    'the stopped server was started again',
  );
  const report = await call(`${served.url}/v1/fire/PreToolUse`, 'POST', project.input('PreToolUse'));
  assert.match(JSON.stringify(report.json().errors), /answer is over 10 MiB/);
});
