// The `peri-hooks serve` request handler on 127.0.0.1, in this process (as the serve command builds it): routes,
// the two answer forms, projects, and settings that change on disk between requests. The process (signals, stop
// grace, socket, exit code) is test/serve/safety.test.ts's.

import assert from 'node:assert/strict';
import { existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeProject, runCli } from '../helpers/cli.ts';
import { call, type InProcessServe, serveInProcess } from '../helpers/serve.ts';
import { until } from '../helpers/wait.ts';

const DENY_BY_EXIT = {
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo R >&2; exit 2' }] }] },
};

async function withServer(
  t: { after: (fn: () => Promise<void> | void) => void },
  options: InProcessServe,
  setup?: (project: ReturnType<typeof makeProject>) => void,
) {
  const project = makeProject();
  setup?.(project);
  const served = await serveInProcess(project, options);
  t.after(async () => {
    await served.stop();
    project.cleanup();
  });
  return { project, served };
}

const noSources = { fire: { settingSources: [] } };

test('GET /healthz answers, and only the documented methods and paths exist', async (t) => {
  const { served } = await withServer(t, noSources);
  const health = await call(`${served.url}/healthz`, 'GET');
  assert.equal(health.status, 200);
  assert.equal(health.json().ok, true);
  const wrongMethod = await call(`${served.url}/hooks/PreToolUse`, 'GET');
  assert.equal(wrongMethod.status, 405);
  assert.equal(wrongMethod.headers.allow, 'POST');
  assert.equal((await call(`${served.url}/healthz`, 'POST', '{}')).status, 405);
  const unknownPath = await call(`${served.url}/settings`, 'GET');
  assert.equal(unknownPath.status, 404);
  assert.match(unknownPath.json().error, /no such path \/settings/);
  assert.equal((await call(`${served.url}/hooks/PreToolUse/more`, 'POST', '{}')).status, 404);
});

test('a client that goes away before its body ends is logged so; a complete request is answered and logs no failure', async (t) => {
  const { project, served } = await withServer(t, noSources);
  const { port } = new URL(served.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  // Headers and a part of the body, then the connection closes.
  await new Promise((resolve) =>
    socket.write('POST /hooks/PreToolUse HTTP/1.1\r\nhost: x\r\ncontent-length: 1000\r\n\r\n{"session_id"', resolve),
  );
  socket.destroy();
  await until('the failure in the log', () =>
    /POST request failed: the client closed the connection before the body ended/.test(served.stderr()),
  );
  assert.equal((await call(`${served.url}/hooks/Stop`, 'POST', project.input('Stop'))).status, 200);
  assert.equal(served.stderr().match(/request failed/g)?.length, 1, served.stderr());
  assert.match(served.stderr(), /POST \/hooks\/Stop 200/);
});

test('an unknown event is 404 with the known names; bad JSON and bad input are 400 naming the JSON path', async (t) => {
  const { served, project } = await withServer(t, noSources);
  const unknown = await call(`${served.url}/hooks/PreToolUze`, 'POST', '{}');
  assert.equal(unknown.status, 404);
  assert.ok(unknown.json().events.includes('PreToolUse'));
  const syntax = await call(`${served.url}/hooks/PreToolUse`, 'POST', '{"session_id":');
  assert.equal(syntax.status, 400);
  assert.equal(syntax.json().code, 'invalid-json');
  const input = JSON.parse(project.input('PreToolUse'));
  delete input.tool_name;
  const invalid = await call(`${served.url}/v1/fire/PreToolUse`, 'POST', JSON.stringify(input));
  assert.equal(invalid.status, 400);
  assert.match(invalid.json().error, /at \$\.tool_name/);
  assert.match(invalid.json().fix, /add \$\.tool_name/);
});

test('POST /hooks/PreToolUse answers an exit-2 block as the JSON deny that renders as the exit code does (§20.5)', async (t) => {
  const { served, project } = await withServer(t, {}, (p) => p.write('.claude/settings.json', DENY_BY_EXIT));
  const answer = await call(`${served.url}/hooks/PreToolUse`, 'POST', project.input('PreToolUse'));
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.json(), {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: '[echo R >&2; exit 2]: R\n',
    },
  });
});

test('POST /hooks answers a Stop or UserPromptSubmit exit 2 as a block with the labelled reason, nothing else as an empty 200', async (t) => {
  const block = { type: 'command', command: 'echo R >&2; exit 2' };
  const { served, project } = await withServer(t, {}, (p) => {
    p.write('.claude/settings.json', {
      hooks: {
        Stop: [{ hooks: [block] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo plain context' }] }],
        SessionEnd: [{ hooks: [{ type: 'command', command: 'true' }] }],
      },
    });
  });
  const stop = await call(`${served.url}/hooks/Stop`, 'POST', project.input('Stop'));
  assert.deepEqual(stop.json(), { decision: 'block', reason: '[echo R >&2; exit 2]: R\n' });
  // Plain stdout cannot go over http: the nearest answer is the same text as additionalContext.
  const prompt = await call(`${served.url}/hooks/UserPromptSubmit`, 'POST', project.input('UserPromptSubmit'));
  assert.deepEqual(prompt.json(), {
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'plain context' },
  });
  const quiet = await call(`${served.url}/hooks/SessionEnd`, 'POST', project.input('SessionEnd'));
  assert.equal(quiet.status, 200);
  assert.equal(quiet.text, '');
});

test('POST /v1/fire answers the report of `fire --output json` for the same input', async (t) => {
  const { served, project } = await withServer(t, {}, (p) => p.write('.claude/settings.json', DENY_BY_EXIT));
  const input = project.input('PreToolUse');
  const answer = await call(`${served.url}/v1/fire/PreToolUse`, 'POST', input);
  const cli = await runCli(['fire', 'PreToolUse', '--output', 'json', '--no-state'], {
    stdin: input,
    env: project.env(),
  });
  const strip = (report: any) => ({ ...report, hooks: report.hooks.map(({ durationMs: _d, ...hook }: any) => hook) });
  assert.equal(answer.status, 200);
  assert.deepEqual(strip(answer.json()), strip(JSON.parse(cli.stdout)));
  assert.equal(answer.json().exitCode, 2);
});

test('the project comes from the header, else the query parameter, else the input cwd; a bad one is 400', async (t) => {
  const other = makeProject();
  t.after(() => other.cleanup());
  other.write('.claude/settings.json', DENY_BY_EXIT);
  const { served, project } = await withServer(t, { roots: [other.dir] });
  const input = project.input('PreToolUse');
  const fromCwd = await call(`${served.url}/v1/fire/PreToolUse`, 'POST', input);
  assert.equal(fromCwd.json().projectDir, project.dir);
  assert.equal(fromCwd.json().blocked, false);
  const fromHeader = await call(`${served.url}/v1/fire/PreToolUse`, 'POST', input, {
    'x-peri-hooks-project-dir': other.dir,
  });
  assert.equal(fromHeader.json().projectDir, other.dir);
  assert.equal(fromHeader.json().projectDirFrom, 'env');
  assert.equal(fromHeader.json().blocked, true);
  const fromQuery = await call(
    `${served.url}/v1/fire/PreToolUse?project=${encodeURIComponent(other.dir)}`,
    'POST',
    input,
  );
  assert.equal(fromQuery.json().blocked, true);
  const relative = await call(`${served.url}/v1/fire/PreToolUse`, 'POST', input, {
    'x-peri-hooks-project-dir': 'project',
  });
  assert.equal(relative.status, 400);
  assert.match(relative.json().error, /not an absolute path of a folder/);
});

test('settings changed, created or broken on disk between requests are seen by the next request, as fire sees them', async (t) => {
  const { served, project } = await withServer(t, {});
  const input = project.input('PreToolUse');
  const fireReport = async () => (await call(`${served.url}/v1/fire/PreToolUse`, 'POST', input)).json();
  assert.equal((await fireReport()).blocked, false);
  // A file that was looked for and absent appears.
  const local = project.write('.claude/settings.local.json', DENY_BY_EXIT);
  assert.equal((await fireReport()).blocked, true);
  // Same size, new content: the command changes from exit 2 to exit 0.
  writeFileSync(local, JSON.stringify(DENY_BY_EXIT, null, 2).replace('exit 2', 'exit 0'));
  assert.equal((await fireReport()).blocked, false);
  // Invalid on a guard event: the whole file is inapplicable, and the warnings say so, as for fire.
  writeFileSync(local, '{"hooks": {"PreToolUse": [{"matcher": 1, "hooks": []}]}}');
  const broken = await fireReport();
  const cli = JSON.parse(
    (await runCli(['fire', 'PreToolUse', '--output', 'json', '--no-state'], { stdin: input, env: project.env() }))
      .stdout,
  );
  assert.deepEqual(broken.warnings, cli.warnings);
  assert.ok(broken.warnings.some((warning: any) => warning.code === 'source-inapplicable'));
});

test('--fail-closed: input the server cannot read blocks over /hooks, and /v1/fire says exit code 2', async (t) => {
  const { served } = await withServer(t, { fire: { failClosed: true } });
  const hooks = await call(`${served.url}/hooks/PreToolUse`, 'POST', '{"session_id":');
  assert.equal(hooks.status, 200);
  assert.equal(hooks.json().hookSpecificOutput.permissionDecision, 'deny');
  assert.match(
    hooks.json().hookSpecificOutput.permissionDecisionReason,
    /not valid JSON[\s\S]*blocking because of --fail-closed/,
  );
  const stop = await call(`${served.url}/hooks/Stop`, 'POST', '');
  assert.equal(stop.json().decision, 'block');
  const report = await call(`${served.url}/v1/fire/PreToolUse`, 'POST', '{"session_id":');
  assert.equal(report.status, 400);
  assert.deepEqual([report.json().exitCode, report.json().failClosed], [2, true]);
  // SessionEnd cannot block: fail-closed changes nothing there.
  assert.equal((await call(`${served.url}/hooks/SessionEnd`, 'POST', '')).status, 400);
});

test('a policy that does not load: /hooks answers a systemMessage saying so, the log says so, --fail-closed blocks', async (t) => {
  const { served, project } = await withServer(t, {});
  const settings = project.write(
    '.claude/settings.json',
    '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}],}}',
  );
  const answer = await call(`${served.url}/hooks/PreToolUse`, 'POST', project.input('PreToolUse.tool_name-Bash'));
  assert.equal(answer.status, 200);
  assert.match(answer.json().systemMessage, /^peri-hooks: policy not enforced, it did not load:\n- .*not valid JSON/);
  assert.ok(answer.json().systemMessage.includes(settings));
  await until('the log line', () =>
    /PreToolUse: policy not enforced, it did not load: .*settings\.json is not valid JSON/.test(served.stderr()),
  );

  const { served: closed, project: other } = await withServer(t, { fire: { failClosed: true } });
  other.write('.claude/settings.json', '{"hooks": []}');
  const blocked = await call(`${closed.url}/hooks/PreToolUse`, 'POST', other.input('PreToolUse.tool_name-Bash'));
  assert.equal(blocked.json().hookSpecificOutput.permissionDecision, 'deny');
  assert.match(blocked.json().hookSpecificOutput.permissionDecisionReason, /blocking because of --fail-closed/);
  await until('the log line', () =>
    /PreToolUse: blocked, policy not enforced, it did not load: /.test(closed.stderr()),
  );
});

// Issue 29 item 12: any local user could name their folder and have the server run its hooks as the server's user.
test('a project a client names brings its own settings and .mcp.json only under a --project-root, or with a token', async (t) => {
  const outside = makeProject();
  t.after(() => outside.cleanup());
  outside.write('.claude/settings.json', DENY_BY_EXIT);
  // Its local settings approve its .mcp.json, whose server would leave a file behind when started.
  const started = join(outside.dir, 'mcp-started');
  outside.write('.mcp.json', { mcpServers: { guard: { command: 'sh', args: ['-c', `touch ${started}`] } } });
  outside.write('.claude/settings.local.json', { enableAllProjectMcpServers: true });
  // The operator's policy calls a server named guard, which only the project defines.
  const policy = [
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'guard', tool: 'deny', input: {} }] }],
      },
    }),
  ];
  const { served, project } = await withServer(t, { fire: { settings: policy } });
  const input = outside.input('PreToolUse.tool_name-Bash');
  for (const headers of [{}, { 'x-peri-hooks-project-dir': outside.dir }] as Record<string, string>[]) {
    const report = (await call(`${served.url}/v1/fire/PreToolUse`, 'POST', input, headers)).json();
    assert.equal(report.projectDir, outside.dir);
    assert.equal(report.blocked, false, JSON.stringify(report));
  }
  await until('the log line', () =>
    served
      .stderr()
      .includes(`the project settings and .mcp.json of ${outside.dir} are not loaded: it is under no --project-root`),
  );
  assert.ok(!existsSync(started), "the project's MCP server never started");
  // A symbolic link inside a root to a folder outside it is outside.
  const link = join(project.dir, 'linked');
  symlinkSync(outside.dir, link);
  const linked = (
    await call(`${served.url}/v1/fire/PreToolUse`, 'POST', input, { 'x-peri-hooks-project-dir': link })
  ).json();
  assert.equal(linked.blocked, false);

  // Listed, or asked with the token: the project's files load.
  const { served: rooted } = await withServer(t, { roots: [join(outside.dir, '..')], fire: { settings: policy } });
  assert.equal((await call(`${rooted.url}/v1/fire/PreToolUse`, 'POST', input)).json().blocked, true);
  assert.ok(existsSync(started), "the project's approved MCP server started");
  // The token as --token-file reads it (test/serve/safety.test.ts reads the file).
  const { served: withToken } = await withServer(t, { token: 'sekrit' });
  assert.equal(
    (await call(`${withToken.url}/v1/fire/PreToolUse`, 'POST', input, { authorization: 'Bearer sekrit' })).json()
      .blocked,
    true,
  );
});
