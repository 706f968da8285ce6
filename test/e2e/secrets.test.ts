// Credentials in an http hook's URL (`http://user:pass@host/`) reach the server, as Claude Code sends them, and
// nothing else: every label, error line and report of fire, list, explain and validate shows `***` instead.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { type CliResult, makeProject, type Project, runCli } from '../helpers/cli.ts';

const USER = 'alice-user';
const PASSWORD = 's3cret-pa55word';

let project: Project;
let server: Server;
let url = '';
let masked = '';
const authorizations: Array<string | undefined> = [];

before(async () => {
  project = makeProject();
  // The failing hook target: every request is answered 500.
  server = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    request.resume().on('end', () => {
      response.statusCode = 500;
      response.end('down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  url = `http://${USER}:${PASSWORD}@127.0.0.1:${port}/hook`;
  masked = `http://***@127.0.0.1:${port}/hook`;
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  project.cleanup();
});

const settings = () => JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url }] }] } });
const sources = () => ['--setting-sources', '', '--settings', settings()];

function assertNoSecret(result: CliResult): void {
  for (const secret of [PASSWORD, USER]) {
    assert.ok(!result.stdout.includes(secret), `stdout shows ${secret}:\n${result.stdout}`);
    assert.ok(!result.stderr.includes(secret), `stderr shows ${secret}:\n${result.stderr}`);
  }
}

test('fire --output json: the label and the error show *** while the server gets the credentials', async () => {
  authorizations.length = 0;
  const result = await runCli(['fire', 'PreToolUse', '--output', 'json', '--no-state', ...sources()], {
    stdin: project.input('PreToolUse.tool_name-Bash'),
    env: project.env(),
  });
  assert.equal(result.code, 0, result.stderr);
  assertNoSecret(result);
  const report = JSON.parse(result.stdout) as { hooks: Array<{ label: string; error?: string }>; errors: string[] };
  assert.equal(report.hooks[0]!.label, masked);
  assert.equal(report.hooks[0]!.error, `HTTP 500 from ${masked}`);
  assert.deepEqual(authorizations, [`Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`]);
});

test('fire: the error line on stderr shows ***; the --fail-closed block message names no hook', async () => {
  const open = await runCli(['fire', 'PreToolUse', '--no-state', ...sources()], {
    stdin: project.input('PreToolUse.tool_name-Bash'),
    env: project.env(),
  });
  assert.equal(open.code, 0, open.stderr);
  assertNoSecret(open);
  assert.ok(open.stderr.includes(`HTTP 500 from ${masked}`), open.stderr);
  const closed = await runCli(
    ['fire', 'PreToolUse', '--no-state', '--fail-closed', '--output', 'claude', ...sources()],
    { stdin: project.input('PreToolUse.tool_name-Bash'), env: project.env() },
  );
  assert.equal(closed.code, 2, closed.stderr);
  assertNoSecret(closed);
  // The block message reaches the model: it names no hook at all, masked or not.
  assert.equal(closed.stderr, 'a policy hook failed (blocking because of --fail-closed)\n');
});

test('list shows ***, as a table and as JSON', async () => {
  for (const output of ['human', 'json']) {
    const result = await runCli(['list', '--output', output, ...sources()], { env: project.env(), cwd: project.dir });
    assert.equal(result.code, 0, result.stderr);
    assertNoSecret(result);
    assert.ok(result.stdout.includes(masked), result.stdout);
  }
});

test('explain shows ***, for people and as JSON', async () => {
  for (const output of ['human', 'json']) {
    const result = await runCli(
      ['explain', 'PreToolUse', '--tool', 'Bash', '--tool-input', '{"command":"ls"}', '--output', output, ...sources()],
      { env: project.env(), cwd: project.dir },
    );
    assert.equal(result.code, 0, result.stderr);
    assertNoSecret(result);
    assert.ok(result.stdout.includes(masked), result.stdout);
  }
});

test('validate names a URL it cannot read with its credentials masked', async () => {
  const broken = JSON.stringify({
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: `http://${USER}:${PASSWORD}@bad host/` }] }],
    },
  });
  for (const output of ['human', 'json']) {
    const result = await runCli(['validate', '--output', output, '--setting-sources', '', '--settings', broken], {
      env: project.env(),
      cwd: project.dir,
    });
    assert.equal(result.code, 1, result.stderr);
    assertNoSecret(result);
    assert.ok(`${result.stdout}${result.stderr}`.includes('http://***@bad host/'), `${result.stdout}${result.stderr}`);
  }
});
