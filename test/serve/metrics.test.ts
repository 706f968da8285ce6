// Prometheus metrics of the resident servers, scraped over 127.0.0.1 from real processes and parsed as the text
// format: serve's GET /metrics (behind the token, as every request but /healthz) and mcp's --metrics listener.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cliCommand, makeProject, type Project, runCli } from '../helpers/cli.ts';
import { call, startServe } from '../helpers/serve.ts';
import { until } from '../helpers/wait.ts';

/** Samples of the Prometheus text format, keyed `name{a="x",b="y"}` with the labels sorted; comments checked. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      assert.match(line, /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/, line);
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `not a sample line: ${line}`);
    const labels = [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)]
      .map(([, name, value]) => `${name}="${value}"`)
      .sort();
    const value = Number(match[3]);
    // prom-client writes NaN as `Nan` (an event-loop lag scraped before its first sample); Prometheus reads any case.
    assert.ok(!Number.isNaN(value) || /^nan$/i.test(match[3]!), line);
    samples.set(`${match[1]}${labels.length ? `{${labels.join(',')}}` : ''}`, value);
  }
  return samples;
}

/** A policy that denies `rm` by exit 2, fails (exit 1) on `fail`, and lets the rest through. */
function policy(project: Project): string {
  const script = project.write(
    'guard.sh',
    `#!/bin/sh
input=$(cat)
case "$input" in *'"rm '*) echo "no rm" >&2; exit 2;; *'"fail'*) echo broken >&2; exit 1;; esac
exit 0
`,
  );
  return project.write('policy.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: script }] }] },
  });
}

test('serve: GET /metrics counts firings by event and decision, hook durations and errors; it needs the token', {
  timeout: 120_000,
}, async (t) => {
  const project = makeProject();
  const token = 'metrics-token-1234567890';
  const tokenFile = project.write('token', `${token}\n`);
  const served = await startServe(
    [
      '--listen',
      '127.0.0.1:0',
      '--settings',
      policy(project),
      '--setting-sources',
      '',
      '--token-file',
      tokenFile,
      '--no-state',
    ],
    project.env(),
  );
  t.after(async () => {
    await served.stop();
    project.cleanup();
  });
  const auth = { authorization: `Bearer ${token}` };
  const fire = (command: string) =>
    call(
      `${served.url}/hooks/PreToolUse`,
      'POST',
      project.input('PreToolUse', { tool_name: 'Bash', tool_input: { command } }),
      auth,
    );
  const scrape = async () => {
    const answer = await call(`${served.url}/metrics`, 'GET', undefined, auth);
    assert.equal(answer.status, 200, answer.text);
    assert.match(String(answer.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return parseExposition(answer.text);
  };

  const refused = await call(`${served.url}/metrics`, 'GET');
  assert.equal(refused.status, 401);
  const before = await scrape();
  assert.equal(before.get('peri_hooks_firings_total{decision="deny",event="PreToolUse"}'), undefined);

  assert.equal((await fire('ls')).status, 200);
  assert.equal((await fire('ls -l')).status, 200);
  assert.equal((await fire('rm -rf /tmp/x')).json().hookSpecificOutput.permissionDecision, 'deny');
  // Only a non-blocking error: HTTP 500, which Claude Code reads as a non-blocking hook error.
  assert.equal((await fire('fail now')).status, 500);
  assert.equal((await call(`${served.url}/hooks/PreToolUse`, 'POST', '{not json', auth)).status, 400);

  const after = await scrape();
  assert.equal(after.get('peri_hooks_firings_total{decision="none",event="PreToolUse"}'), 3);
  assert.equal(after.get('peri_hooks_firings_total{decision="deny",event="PreToolUse"}'), 1);
  assert.equal(after.get('peri_hooks_firing_errors_total{event="PreToolUse",reason="input"}'), 1);
  assert.equal(after.get('peri_hooks_hook_errors_total{event="PreToolUse",type="command"}'), 1);
  assert.equal(after.get('peri_hooks_firing_duration_seconds_count{event="PreToolUse"}'), 4);
  const hooks = (outcome: string) =>
    after.get(`peri_hooks_hook_duration_seconds_count{event="PreToolUse",outcome="${outcome}",type="command"}`);
  assert.deepEqual([hooks('success'), hooks('blocking'), hooks('non_blocking_error')], [2, 1, 1]);
  // Buckets are cumulative and end with +Inf, which holds every observation.
  assert.equal(
    after.get('peri_hooks_hook_duration_seconds_bucket{event="PreToolUse",le="+Inf",outcome="success",type="command"}'),
    2,
  );
  assert.ok(
    (after.get('peri_hooks_hook_duration_seconds_sum{event="PreToolUse",outcome="success",type="command"}') ?? 0) > 0,
  );
  assert.ok((after.get('peri_hooks_process_resident_memory_bytes') ?? 0) > 0);

  // The counters move with the next firing.
  await fire('rm x');
  assert.equal((await scrape()).get('peri_hooks_firings_total{decision="deny",event="PreToolUse"}'), 2);
  assert.doesNotMatch(served.stderr(), new RegExp(token));
});

test('mcp --metrics: a loopback listener with the counts of the fire tool; another address is refused', {
  timeout: 120_000,
}, async (t) => {
  const project = makeProject();
  t.after(() => project.cleanup());
  const refused = await runCli(['mcp', '--metrics', '0.0.0.0:0', '--settings', policy(project)], {
    env: project.env(),
  });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /--metrics 0\.0\.0\.0 is reachable from other machines/);

  const [command, prefix] = cliCommand('mcp');
  const transport = new StdioClientTransport({
    command,
    args: [...prefix, 'mcp', '--settings', policy(project), '--setting-sources', '', '--metrics', '127.0.0.1:0'],
    env: project.env(),
    cwd: project.dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const url = await until('the metrics URL on stderr', () => /metrics on (\S+)/.exec(stderr)?.[1]);
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  const fire = (toolCommand: string) =>
    client.callTool({
      name: 'fire',
      arguments: {
        hook_event_name: 'PreToolUse',
        session_id: 'metrics',
        transcript_path: '',
        cwd: project.dir,
        permission_mode: 'default',
        tool_name: 'Bash',
        tool_input: JSON.stringify({ command: toolCommand }),
        tool_use_id: 'toolu_1',
      },
    });
  await fire('rm -rf /');
  await fire('ls');
  await client.callTool({ name: 'fire', arguments: { hook_event_name: 'NoSuchEvent' } });
  const scraped = await call(url, 'GET');
  assert.equal(scraped.status, 200);
  const samples = parseExposition(scraped.text);
  assert.equal(samples.get('peri_hooks_firings_total{decision="deny",event="PreToolUse"}'), 1);
  assert.equal(samples.get('peri_hooks_firings_total{decision="none",event="PreToolUse"}'), 1);
  assert.equal(samples.get('peri_hooks_firing_errors_total{event="unknown",reason="input"}'), 1);
  assert.equal((await call(url.replace('/metrics', '/other'), 'GET')).status, 404);
});
