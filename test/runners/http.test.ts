// The http runner against a real node:http server on 127.0.0.1, one route per case.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { HttpHook } from '../../src/config/schema.ts';
import { MAX_BODY_BYTES, runHttpHook } from '../../src/runners/http.ts';
import type { EffectiveSettings, Layer, LoadedHook, RawOutcome, RunContext } from '../../src/types.ts';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
}
const seen: Seen[] = [];
const pending = new Set<http.ServerResponse>();

const ROUTES: Record<string, (response: http.ServerResponse) => void> = {
  '/allow': (r) => json(r, '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'),
  '/deny': (r) =>
    json(
      r,
      '  {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy"}}\n',
    ),
  '/empty': (r) => r.end(),
  '/blank': (r) => r.end(' \n'),
  '/no-content': (r) => {
    r.statusCode = 204;
    r.end();
  },
  '/text': (r) => {
    r.setHeader('content-type', 'text/plain; charset=utf-8');
    r.end('all good');
  },
  '/array': (r) => json(r, '[{"decision":"block"}]'),
  '/invalid-json': (r) => json(r, '{"decision": '),
  '/created': (r) => {
    r.statusCode = 201;
    json(r, '{"systemMessage":"ok"}');
  },
  '/error': (r) => {
    r.statusCode = 500;
    json(r, '{"decision":"block","reason":"server says no"}');
  },
  '/redirect': (r) => {
    r.statusCode = 302;
    r.setHeader('location', 'http://10.0.0.1/steal');
    r.end();
  },
  '/redirect-local': (r) => {
    r.statusCode = 307;
    r.setHeader('location', '/allow');
    r.end();
  },
  '/never': (r) => {
    pending.add(r);
  },
  '/huge': (r) => {
    r.setHeader('content-type', 'application/json');
    const chunk = Buffer.alloc(64 * 1024, ' ');
    let sent = 0;
    r.write('{"padding":"');
    const pump = () => {
      while (sent <= MAX_BODY_BYTES + chunk.length && !r.destroyed) {
        sent += chunk.length;
        if (!r.write(chunk)) return void r.once('drain', pump);
      }
      r.end('"}');
    };
    r.on('error', () => undefined);
    pump();
  },
};

function json(response: http.ServerResponse, body: string): void {
  response.setHeader('content-type', 'application/json');
  response.end(body);
}

const server = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => {
    body += chunk;
  });
  request.on('end', () => {
    seen.push({ url: request.url ?? '', headers: request.headers, rawHeaders: request.rawHeaders, body });
    (
      ROUTES[request.url ?? ''] ??
      ((r) => {
        r.statusCode = 404;
        r.end();
      })
    )(response);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(async () => {
  for (const response of pending) response.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const INPUT_JSON = '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}';

function context(
  overrides: Partial<RunContext> = {},
  settings: Partial<EffectiveSettings> = {},
): RunContext & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    event: 'PreToolUse',
    input: JSON.parse(INPUT_JSON) as Record<string, unknown>,
    inputJson: INPUT_JSON,
    projectDir: '/tmp',
    cwd: '/tmp',
    env: {},
    timeoutMs: 10_000,
    settings: { disableAllHooks: false, allowManagedHooksOnly: false, ...settings },
    signal: new AbortController().signal,
    warn: (message) => {
      warnings.push(message);
    },
    warnings,
    ...overrides,
  };
}

function hook(url: string, extra: Partial<HttpHook> = {}, layer: Layer = 'project'): LoadedHook {
  return {
    id: `${layer}:/repo/.claude/settings.json#/hooks/PreToolUse/0/hooks/0`,
    event: 'PreToolUse',
    handler: { type: 'http', url, ...extra },
    provenance: { layer, file: '/repo/.claude/settings.json', pointer: '/hooks/PreToolUse/0/hooks/0' },
  };
}

function assertShape(outcome: RawOutcome): void {
  assert.equal(typeof outcome.durationMs, 'number');
  assert.ok(outcome.durationMs >= 0);
  if (outcome.exitCode === null) assert.equal(outcome.stdout, '');
}

async function run(path: string, extra: Partial<HttpHook> = {}, ctx = context()): Promise<RawOutcome> {
  const outcome = await runHttpHook(hook(`${base}${path}`, extra), ctx);
  assertShape(outcome);
  return outcome;
}

test('POSTs the input JSON with Content-Type application/json', async () => {
  const before = seen.length;
  await run('/allow');
  const request = seen[before];
  assert.ok(request);
  assert.equal(request.body, INPUT_JSON);
  assert.equal(request.headers['content-type'], 'application/json');
  assert.equal(request.headers['content-length'], String(Buffer.byteLength(INPUT_JSON)));
});

test('2xx JSON: the body becomes stdout with exit 0, for the shared stdout parser', async () => {
  assert.deepEqual(
    { ...(await run('/allow')), durationMs: 0 },
    {
      exitCode: 0,
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}',
      stderr: '',
      timedOut: false,
      durationMs: 0,
    },
  );
  const deny = await run('/deny');
  assert.equal(deny.exitCode, 0);
  assert.match(deny.stdout, /"permissionDecision":"deny"/);
  assert.equal((await run('/created')).stdout, '{"systemMessage":"ok"}');
  // Invalid JSON that starts with `{` is the parser's to reject, as for a command hook.
  assert.deepEqual([(await run('/invalid-json')).exitCode, (await run('/invalid-json')).stdout], [0, '{"decision": ']);
});

test('2xx with an empty (or blank) body is {}', async () => {
  for (const path of ['/empty', '/blank', '/no-content']) {
    const outcome = await run(path);
    assert.deepEqual([outcome.exitCode, outcome.stdout, outcome.error], [0, '{}', undefined], path);
  }
});

test('2xx that is not a JSON object is an error, and its text goes nowhere', async () => {
  const text = await run('/text');
  assert.equal(text.error, `HTTP hook must return JSON: ${base}/text answered 200 with text/plain; charset=utf-8`);
  assert.equal(text.exitCode, null);
  assert.ok(!JSON.stringify(text).includes('all good'));
  assert.equal(
    (await run('/array')).error,
    `HTTP hook must return JSON: ${base}/array answered 200 with application/json`,
  );
});

test('non-2xx is an error naming the status and URL; its body never decides', async () => {
  const outcome = await run('/error');
  assert.deepEqual(outcome.error, `HTTP 500 from ${base}/error`);
  assert.equal(outcome.exitCode, null);
  assert.ok(!JSON.stringify(outcome).includes('server says no'));
  assert.equal((await run('/missing')).error, `HTTP 404 from ${base}/missing`);
});

test('redirects are never followed', async () => {
  for (const [path, status] of [
    ['/redirect', 302],
    ['/redirect-local', 307],
  ] as const) {
    const before = seen.length;
    const outcome = await run(path);
    assert.equal(outcome.error, `HTTP ${status} from ${base}${path}`);
    assert.equal(outcome.exitCode, null);
    assert.deepEqual(
      seen.slice(before).map((s) => s.url),
      [path],
    );
  }
});

test('timeout: a server that never answers gives timedOut, no decision', async () => {
  const outcome = await run('/never', {}, context({ timeoutMs: 500 }));
  assert.equal(outcome.timedOut, true);
  assert.equal(outcome.exitCode, null);
  assert.equal(outcome.error, undefined);
  assert.ok(outcome.durationMs >= 400, `took ${outcome.durationMs} ms`);
});

test('abort: peri-hooks being interrupted cancels the request like a timeout', async () => {
  const controller = new AbortController();
  const started = seen.length;
  const promise = run('/never', {}, context({ signal: controller.signal }));
  while (seen.length === started) await new Promise((resolve) => setTimeout(resolve, 10));
  controller.abort();
  const outcome = await promise;
  assert.deepEqual(
    [outcome.timedOut, outcome.exitCode, outcome.error],
    [true, null, `HTTP hook ${base}/never cancelled: peri-hooks was interrupted`],
  );
  const already = await run('/allow', {}, context({ signal: AbortSignal.abort() }));
  assert.deepEqual(
    [already.timedOut, already.exitCode, already.error],
    [true, null, `HTTP hook ${base}/allow cancelled: peri-hooks was interrupted`],
  );
});

test(`a body beyond ${MAX_BODY_BYTES} bytes is not read further and fails`, async () => {
  const outcome = await run('/huge');
  assert.equal(
    outcome.error,
    `HTTP hook response from ${base}/huge exceeded ${MAX_BODY_BYTES} bytes; reading stopped there`,
  );
  assert.equal(outcome.exitCode, null);
});

test('headers: allowed variables interpolated, others emptied with a warning that never shows the value', async () => {
  const ctx = context({ env: { API_TOKEN: 'tok-allowed-1234', SECRET_KEY: 'forbidden-value-5678', LOWER: 'x' } });
  const before = seen.length;
  const outcome = await run(
    '/allow',
    {
      headers: {
        Authorization: 'Bearer $API_TOKEN',
        'X-Braced': '${API_TOKEN}!',
        'X-Forbidden': 'k=${SECRET_KEY};k2=$SECRET_KEY',
        'X-Unset': '[$UNSET_BUT_ALLOWED]',
        'X-Lower': '$lower ${lower} ${Api_Token} cost: $5',
      },
      allowedEnvVars: ['API_TOKEN', 'UNSET_BUT_ALLOWED'],
    },
    ctx,
  );
  assert.equal(outcome.exitCode, 0);
  const request = seen[before];
  assert.ok(request);
  assert.equal(request.headers.authorization, 'Bearer tok-allowed-1234');
  assert.equal(request.headers['x-braced'], 'tok-allowed-1234!');
  assert.equal(request.headers['x-forbidden'], 'k=;k2=');
  assert.equal(request.headers['x-unset'], '[]');
  assert.equal(request.headers['x-lower'], '$lower ${lower} ${Api_Token} cost: $5');
  assert.deepEqual(ctx.warnings, [
    `HTTP hook ${base}/allow: header variable $SECRET_KEY is not listed in allowedEnvVars; it was replaced by an empty string`,
  ]);
  const everything = JSON.stringify([request.rawHeaders, request.body, outcome, ctx.warnings]);
  assert.ok(!everything.includes('forbidden-value-5678'), 'the forbidden value appears nowhere');
});

test('headers: the settings list httpHookAllowedEnvVars intersects the hook list', async () => {
  const ctx = context(
    { env: { A_TOKEN: 'value-a', B_TOKEN: 'value-b' } },
    { httpHookAllowedEnvVars: ['A_TOKEN', 'C_TOKEN'] },
  );
  const before = seen.length;
  await run(
    '/allow',
    { headers: { 'X-A': '$A_TOKEN', 'X-B': '$B_TOKEN' }, allowedEnvVars: ['A_TOKEN', 'B_TOKEN'] },
    ctx,
  );
  assert.deepEqual([seen[before]?.headers['x-a'], seen[before]?.headers['x-b']], ['value-a', '']);
  assert.equal(ctx.warnings.length, 1);
  assert.match(ctx.warnings[0] ?? '', /\$B_TOKEN is not listed in both allowedEnvVars and httpHookAllowedEnvVars/);
  assert.ok(!ctx.warnings[0]?.includes('value-b'));
});

test('headers: a managed hook gets the settings list only where managed settings set one', async () => {
  const env = { TOK: 'value-tok', OTHER: 'value-other' };
  const handler = { headers: { 'X-Tok': '$TOK', 'X-Other': '$OTHER' }, allowedEnvVars: ['TOK', 'OTHER'] };
  const sent = async (layer: Layer, settings: Partial<EffectiveSettings>) => {
    const before = seen.length;
    const outcome = await runHttpHook(hook(`${base}/allow`, handler, layer), context({ env }, settings));
    assert.equal(outcome.exitCode, 0, outcome.error);
    return [seen[before]?.headers['x-tok'], seen[before]?.headers['x-other']];
  };
  assert.deepEqual(await sent('managed', { httpHookAllowedEnvVars: ['OTHER'] }), ['value-tok', 'value-other']);
  assert.deepEqual(await sent('project', { httpHookAllowedEnvVars: ['OTHER'] }), ['', 'value-other']);
  assert.deepEqual(
    await sent('managed', { httpHookAllowedEnvVars: ['OTHER'], managedHttpHookAllowedEnvVars: ['TOK'] }),
    ['value-tok', ''],
  );
});

test('headers: CR, LF and NUL stripped; Content-Length, Transfer-Encoding, Content-Type from the config dropped', async () => {
  const ctx = context({ env: { INJECT: 'a\r\nX-Injected: yes' } });
  const before = seen.length;
  const outcome = await run(
    '/allow',
    {
      headers: {
        'X-Split': 'one\r\nX-Smuggled: 1\0two',
        'X-Env': '$INJECT',
        'content-LENGTH': '999',
        'Transfer-Encoding': 'chunked',
        'Content-Type': 'text/plain',
      },
      allowedEnvVars: ['INJECT'],
    },
    ctx,
  );
  assert.equal(outcome.exitCode, 0, outcome.error);
  const request = seen[before];
  assert.ok(request);
  assert.equal(request.headers['x-split'], 'oneX-Smuggled: 1two');
  assert.equal(request.headers['x-env'], 'aX-Injected: yes');
  assert.equal(request.headers['x-smuggled'], undefined);
  assert.equal(request.headers['x-injected'], undefined);
  assert.equal(request.headers['content-length'], String(Buffer.byteLength(INPUT_JSON)));
  assert.equal(request.headers['transfer-encoding'], undefined);
  assert.equal(request.headers['content-type'], 'application/json');
  assert.equal(request.body, INPUT_JSON);
});

test('allowedHttpHookUrls: refused URLs never leave, managed hooks use the list that applies to them', async () => {
  const url = `${base}/allow`;
  const refusal = `HTTP hook blocked: ${url} does not match any pattern in allowedHttpHookUrls`;
  const cases: [Partial<EffectiveSettings>, Layer, string | undefined][] = [
    [{ allowedHttpHookUrls: [] }, 'user', refusal],
    [{ allowedHttpHookUrls: ['https://policy.example.com'] }, 'project', refusal],
    [{ allowedHttpHookUrls: ['http://127.0.0.1:*/allow'] }, 'local', undefined],
    // managed hooks: none where managed settings set no list, else the merged one (managedAllowedHttpHookUrls)
    [{ allowedHttpHookUrls: [] }, 'managed', undefined],
    [{ allowedHttpHookUrls: ['*'], managedAllowedHttpHookUrls: [] }, 'managed', refusal],
    [{ managedAllowedHttpHookUrls: ['http://127.0.0.1:*'] }, 'managed', undefined],
  ];
  for (const [settings, layer, error] of cases) {
    const before = seen.length;
    const outcome = await runHttpHook(hook(url, {}, layer), context({}, settings));
    assertShape(outcome);
    assert.equal(outcome.error, error, `${layer} ${JSON.stringify(settings)}`);
    assert.equal(seen.length - before, error ? 0 : 1);
  }
});

test('failures are outcomes: bad scheme, refused connection, an SSRF refusal, a throwing warn', async () => {
  for (const url of ['ftp://127.0.0.1/x', 'file:///etc/passwd', 'ws://127.0.0.1/']) {
    const outcome = await runHttpHook(hook(url), context());
    assert.equal(outcome.error, `HTTP hook URL must use http or https: ${url}`);
    assert.equal(outcome.exitCode, null);
  }
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const deadPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const refused = await runHttpHook(hook(`http://127.0.0.1:${deadPort}/`), context());
  assert.match(
    refused.error ?? '',
    new RegExp(`^HTTP hook request to http://127\\.0\\.0\\.1:${deadPort}/ failed: .*ECONNREFUSED`),
  );
  assert.equal(refused.exitCode, null);
  const blocked = await runHttpHook(hook('http://[::ffff:192.168.0.1]:9/'), context());
  assert.equal(
    blocked.error,
    'HTTP hook blocked: ::ffff:c0a8:1 resolves to ::ffff:c0a8:1 (private: IPv4 192.168.0.1 in ipv4_mapped). Loopback (127.0.0.1, ::1) is allowed for local dev.',
  );
  const throwingWarn = context({
    warn: () => {
      throw new Error('logger broke');
    },
  });
  const thrown = await runHttpHook(hook(`${base}/allow`, { headers: { X: '$NOPE' } }), throwingWarn);
  assert.match(thrown.error ?? '', /failed: logger broke$/);
  const notHttp = await runHttpHook({ ...hook(base), handler: { type: 'command', command: 'true' } }, context());
  assert.match(notHttp.error ?? '', /^not an http hook/);
});

test('user name and password in the URL never appear in messages', async () => {
  const outcome = await runHttpHook(
    hook(`http://alice:hunter2@127.0.0.1:1/x`),
    context({}, { allowedHttpHookUrls: [] }),
  );
  assert.equal(
    outcome.error,
    'HTTP hook blocked: http://***@127.0.0.1:1/x does not match any pattern in allowedHttpHookUrls',
  );
});

test('a user name in the URL is sent as Basic credentials, as written, in place of a configured Authorization', async () => {
  const withUser = base.replace('http://', 'http://us%40er:p%3Ass@');
  const before = seen.length;
  await runHttpHook(hook(`${withUser}/allow`, { headers: { Authorization: 'Bearer configured' } }), context());
  // Only a password: Claude Code's client (axios) sends nothing then.
  await runHttpHook(hook(`${base.replace('http://', 'http://:pass@')}/allow`), context());
  assert.deepEqual(
    seen.slice(before).map((request) => request.headers.authorization),
    [`Basic ${Buffer.from('us%40er:p%3Ass').toString('base64')}`, undefined],
  );
  assert.equal(seen[before]!.rawHeaders.filter((name) => name.toLowerCase() === 'authorization').length, 1);
});

test('undici and the SSRF guard load only when an http hook runs', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const script = `
    import { createRequire } from 'node:module';
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((k) => /[\\\\/](undici|ipaddr\\.js)[\\\\/]/.test(k)).length;
    const { runHttpHook } = await import('./src/runners/http.ts');
    const before = loaded();
    await runHttpHook({ id: 'x', event: 'PreToolUse', handler: { type: 'http', url: 'http://127.0.0.1:1/' }, provenance: { layer: 'user', file: 'x', pointer: '' } },
      { event: 'PreToolUse', input: {}, inputJson: '{}', projectDir: '.', cwd: '.', env: {}, timeoutMs: 2000, settings: {}, signal: new AbortController().signal, warn() {} });
    console.log(JSON.stringify([before, loaded() > 0]));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(output), [0, true]);
});
