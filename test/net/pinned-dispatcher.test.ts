// The pinned lookup and the guarded connector, alone and through the http runner. No real DNS (only
// `localhost` elsewhere), no traffic beyond 127.0.0.1: a loopback-only connector wraps undici's in the
// runner tests, so even a broken guard could not reach another address (it would show as a violation).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { buildConnector } from 'undici';
import * as undici from 'undici';
import {
  createPinnedLookup,
  type Resolver,
  resolveChecked,
  type SocketOptions,
} from '../../src/net/pinned-dispatcher.ts';
import { SsrfBlockedError } from '../../src/net/ssrf.ts';
import { createHttpRunner } from '../../src/runners/http.ts';
import type { LoadedHook, RunContext } from '../../src/types.ts';

function fakeResolver(answers: Record<string, string[] | (() => string[])>) {
  const calls: string[] = [];
  const resolve: Resolver = async (hostname) => {
    calls.push(hostname);
    const entry = answers[hostname];
    if (entry === undefined)
      throw Object.assign(new Error(`test resolver: no answer for ${hostname}`), { code: 'ENOTFOUND' });
    const list = typeof entry === 'function' ? entry() : entry;
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

function lookupOnce(
  lookup: LookupFunction,
  hostname: string,
  all = true,
): Promise<{ error: Error | null; addresses: unknown }> {
  return new Promise((resolve) => {
    lookup(hostname, { all }, (error, addresses) => resolve({ error, addresses }));
  });
}

const isLoopback = (address: string) => /^127\./.test(address) || address === '::1' || /^::ffff:127\./.test(address);

/** undici's connector, refusing (and recording) any address that is not loopback. */
function loopbackOnly() {
  const violations: string[] = [];
  const opened: string[] = [];
  const build = (options: SocketOptions): buildConnector.connector => {
    const guarded = options.lookup;
    const lookup: LookupFunction = (hostname, lookupOptions, callback) =>
      guarded(hostname, lookupOptions, (error, address, family) => {
        const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
        const bad = error ? [] : list.filter((a) => !isLoopback(a));
        violations.push(...bad);
        if (bad.length > 0) callback(new Error('test: non-loopback address reached the socket'), []);
        else callback(error, address, family);
      });
    const connect = undici.buildConnector({ ...options, lookup });
    return (connectOptions, callback) => {
      if (/^[\d.]+$|:/.test(connectOptions.hostname) && !isLoopback(connectOptions.hostname)) {
        violations.push(connectOptions.hostname);
        callback(new Error('test: non-loopback literal reached the socket'), null);
        return;
      }
      opened.push(connectOptions.hostname);
      connect(connectOptions, callback);
    };
  };
  return { build, violations, opened };
}

const requests: string[] = [];
const server = http.createServer((request, response) => {
  requests.push(`${request.method} ${request.url} ${request.headers.host}`);
  request.resume();
  response.setHeader('content-type', 'application/json');
  response.end('{"decision":"approve"}');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function context(): RunContext {
  return {
    event: 'PreToolUse',
    input: {},
    inputJson: '{"hook_event_name":"PreToolUse"}',
    projectDir: '/tmp',
    cwd: '/tmp',
    env: {},
    timeoutMs: 10_000,
    settings: { disableAllHooks: false, allowManagedHooksOnly: false },
    signal: new AbortController().signal,
    warn: () => undefined,
  };
}

function hookFor(url: string): LoadedHook {
  return {
    id: 'user:/tmp/settings.json#/hooks/PreToolUse/0/hooks/0',
    event: 'PreToolUse',
    handler: { type: 'http', url },
    provenance: { layer: 'user', file: '/tmp/settings.json', pointer: '/hooks/PreToolUse/0/hooks/0' },
  };
}

test('pinned lookup: a private answer is refused', async () => {
  const { resolve } = fakeResolver({ 'evil.test': ['10.0.0.1'] });
  const { error, addresses } = await lookupOnce(createPinnedLookup(resolve), 'evil.test');
  assert.ok(error instanceof SsrfBlockedError);
  assert.equal(
    error.message,
    'HTTP hook blocked: evil.test resolves to 10.0.0.1 (private). Loopback (127.0.0.1, ::1) is allowed for local dev.',
  );
  assert.deepEqual(addresses, []);
});

test('pinned lookup: every answer is checked (loopback first, private second is refused)', async () => {
  const { resolve } = fakeResolver({
    'mixed.test': ['127.0.0.1', '10.0.0.1'],
    'public-and-private.test': ['93.184.216.34', '192.168.1.1'],
  });
  const lookup = createPinnedLookup(resolve);
  for (const [name, address] of [
    ['mixed.test', '10.0.0.1'],
    ['public-and-private.test', '192.168.1.1'],
  ] as const) {
    for (const all of [true, false]) {
      const { error } = await lookupOnce(lookup, name, all);
      assert.ok(error instanceof SsrfBlockedError, `${name} all=${all}`);
      assert.equal(error.address, address);
    }
  }
});

test('pinned lookup: answers with checked addresses only, in both callback forms', async () => {
  const { resolve } = fakeResolver({ 'policy.test': ['127.0.0.1', '::1'] });
  const lookup = createPinnedLookup(resolve);
  assert.deepEqual((await lookupOnce(lookup, 'policy.test')).addresses, [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ]);
  const single = await new Promise<unknown[]>((done) => lookup('policy.test', { family: 6 }, (...args) => done(args)));
  assert.deepEqual(single, [null, '::1', 6]);
});

test('pinned lookup: no answer is an ENOTFOUND error, not a connection', async () => {
  const { resolve } = fakeResolver({ 'empty.test': [] });
  const { error } = await lookupOnce(createPinnedLookup(resolve), 'empty.test');
  assert.equal((error as NodeJS.ErrnoException).code, 'ENOTFOUND');
});

test('resolveChecked: literal addresses and metadata names are judged without asking the resolver', async () => {
  const { resolve, calls } = fakeResolver({});
  assert.deepEqual(await resolveChecked('127.0.0.1', resolve), [{ address: '127.0.0.1', family: 4 }]);
  await assert.rejects(resolveChecked('metadata.google.internal', resolve), SsrfBlockedError);
  await assert.rejects(resolveChecked('169.254.169.254', resolve), SsrfBlockedError);
  assert.deepEqual(calls, []);
});

test('runner: a name resolving to 127.0.0.1 reaches the loopback server, resolved once', async () => {
  const { resolve, calls } = fakeResolver({ 'policy.test': ['127.0.0.1'] });
  const guard = loopbackOnly();
  const before = requests.length;
  const outcome = await createHttpRunner({ resolve, buildConnector: guard.build })(
    hookFor(`http://policy.test:${port}/pre`),
    context(),
  );
  assert.equal(outcome.exitCode, 0, outcome.error);
  assert.equal(outcome.stdout, '{"decision":"approve"}');
  assert.deepEqual(calls, ['policy.test']);
  assert.deepEqual(requests.slice(before), [`POST /pre policy.test:${port}`]);
  assert.deepEqual(guard.violations, []);
});

test('runner: DNS rebinding after the check cannot get through (one query per connection, pinned)', async () => {
  // Every query after the first answers a private address: a second query at connect time would be refused.
  let answer = '127.0.0.1';
  const { resolve, calls } = fakeResolver({
    'rebind.test': () => {
      const now = answer;
      answer = '10.0.0.1';
      return [now];
    },
  });
  const guard = loopbackOnly();
  const run = createHttpRunner({ resolve, buildConnector: guard.build });
  const first = await run(hookFor(`http://rebind.test:${port}/`), context());
  assert.equal(first.exitCode, 0, first.error);
  assert.deepEqual(calls, ['rebind.test']);
  const second = await run(hookFor(`http://rebind.test:${port}/`), context());
  assert.match(second.error ?? '', /^HTTP hook blocked: rebind\.test resolves to 10\.0\.0\.1 \(private\)/);
  assert.deepEqual(guard.violations, []);
});

test('runner: localhost through the system resolver is allowed', async () => {
  const guard = loopbackOnly();
  const outcome = await createHttpRunner({ buildConnector: guard.build })(
    hookFor(`http://localhost:${port}/`),
    context(),
  );
  assert.equal(outcome.exitCode, 0, outcome.error);
  assert.deepEqual(guard.violations, []);
});

function selfSignedCertificate(name: string): { key: Buffer; cert: Buffer } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'peri-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${name}`,
        '-addext',
        `subjectAltName=DNS:${name}`,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tls = selfSignedCertificate('policy.test');
test('https: the pinned lookup serves TLS too; the certificate is still checked against the host name', {
  skip: tls ? false : 'no openssl',
}, async () => {
  assert.ok(tls);
  const tlsServer = https.createServer(tls, (request, response) => {
    request.resume();
    response.end(JSON.stringify({ sni: (request.socket as import('node:tls').TLSSocket).servername }));
  });
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  const tlsPort = (tlsServer.address() as AddressInfo).port;
  try {
    const { resolve } = fakeResolver({
      'policy.test': ['127.0.0.1'],
      'other.test': ['127.0.0.1'],
      'private.test': ['10.0.0.1'],
    });
    const trustTestCa = (options: SocketOptions) => undici.buildConnector({ ...options, ca: tls.cert });
    const run = createHttpRunner({ resolve, buildConnector: trustTestCa });
    const ok = await run(hookFor(`https://policy.test:${tlsPort}/`), context());
    assert.deepEqual([ok.exitCode, ok.stdout], [0, '{"sni":"policy.test"}'], ok.error);
    const wrongName = await run(hookFor(`https://other.test:${tlsPort}/`), context());
    assert.match(wrongName.error ?? '', /failed: .*(altnames|ERR_TLS_CERT_ALTNAME_INVALID)/);
    const blocked = await run(hookFor('https://private.test/'), context());
    assert.match(blocked.error ?? '', /^HTTP hook blocked: private\.test resolves to 10\.0\.0\.1 \(private\)/);
  } finally {
    tlsServer.closeAllConnections();
    await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
  }
});

// Hostile URLs: every one refused, no socket opened, the resolver never asked.
const HOSTILE_URLS = [
  'http://10.0.0.1/',
  'https://10.0.0.1:8443/',
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://192.168.1.1/',
  'http://0.0.0.0/',
  'http://0/',
  'http://0.1.2.3/',
  'http://100.64.0.1/',
  'http://100.127.255.254/',
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.0.1/',
  'http://2852039166/',
  'http://0xa9fea9fe/',
  'http://0251.0376.0251.0376/',
  'http://0xa9.0xfe.0xa9.0xfe/',
  'http://012.0.0.1/',
  'http://167772161/',
  'http://10.1/',
  'http://192.168.257/',
  'http://0x0a000001/',
  'http://[::]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[::ffff:0:10.0.0.1]/',
  'http://[::10.0.0.1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[64:ff9b::10.0.0.1]/',
  'http://[2002:a9fe:a9fe::1]/',
  'http://[2002:0a00:0001::]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[fd00::1]/',
  'http://[fd00:ec2::254]/',
  'http://[fd00:a9fe:a9fe::1]/',
  'http://[2001:db8::1]/',
  'http://[2001:470::5efe:a00:1]/',
  'http://[ff02::1]/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://240.0.0.1/',
  'http://100.100.100.200/',
  'http://168.63.129.16/',
  'http://192.0.0.192/',
  'http://192.0.2.1/',
  'http://[2001::1]/',
  'http://[fec0::1]/',
  'http://[::ffff:0.0.0.0]/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://METADATA.GOOGLE.INTERNAL./',
  'http://metadata.goog/',
  'http://metadata/',
  'http://instance-data/',
  'http://instance-data.ec2.internal/',
  'http://instance-data.us-west-2.compute.internal/',
  'http://ｍｅｔａｄａｔａ.google.internal/',
];

// Names whose resolver answers are hostile: [name, answers, the address the refusal must name].
const HOSTILE_ANSWERS: [string, string[], string][] = [
  ['private.test', ['10.0.0.1'], '10.0.0.1'],
  ['public-then-private.test', ['93.184.216.34', '10.0.0.1'], '10.0.0.1'],
  ['loopback-then-private.test', ['127.0.0.1', '192.168.0.10'], '192.168.0.10'],
  ['v6-loopback-then-link-local.test', ['::1', 'fe80::1'], 'fe80::1'],
  ['imds.test', ['169.254.169.254'], '169.254.169.254'],
  ['mapped-imds.test', ['::ffff:169.254.169.254'], '::ffff:169.254.169.254'],
  ['nat64-private.test', ['64:ff9b::a00:1'], '64:ff9b::a00:1'],
  ['6to4-private.test', ['2002:c0a8:101::1'], '2002:c0a8:101::1'],
  ['zero.test', ['0.0.0.0'], '0.0.0.0'],
  ['unspecified.test', ['::'], '::'],
  ['ula.test', ['fd12::1'], 'fd12::1'],
  ['aws-v6.test', ['fd00:ec2::254'], 'fd00:ec2::254'],
  ['cgnat.test', ['100.64.1.1'], '100.64.1.1'],
  ['azure.test', ['168.63.129.16'], '168.63.129.16'],
  ['garbage.test', ['0x7f.1'], '0x7f.1'],
];

test(`hostile corpus: ${HOSTILE_URLS.length + HOSTILE_ANSWERS.length} URLs and resolver answers, all refused without a connection`, async (t) => {
  assert.ok(HOSTILE_URLS.length + HOSTILE_ANSWERS.length >= 50);
  const before = requests.length;
  for (const url of HOSTILE_URLS) {
    await t.test(url, async () => {
      const { resolve, calls } = fakeResolver({});
      const guard = loopbackOnly();
      const outcome = await createHttpRunner({ resolve, buildConnector: guard.build })(hookFor(url), context());
      assert.match(
        outcome.error ?? '',
        /^HTTP hook blocked: .+ Loopback \(127\.0\.0\.1, ::1\) is allowed for local dev\.$/,
      );
      assert.equal(outcome.exitCode, null);
      assert.deepEqual(calls, []);
      assert.deepEqual(guard.opened, []);
      assert.deepEqual(guard.violations, []);
    });
  }
  for (const [name, answers, address] of HOSTILE_ANSWERS) {
    await t.test(`${name} -> ${answers.join(', ')}`, async () => {
      const { resolve } = fakeResolver({ [name]: answers });
      const guard = loopbackOnly();
      const outcome = await createHttpRunner({ resolve, buildConnector: guard.build })(
        hookFor(`http://${name}:${port}/`),
        context(),
      );
      assert.ok(outcome.error?.startsWith(`HTTP hook blocked: ${name} resolves to ${address} (`), outcome.error);
      assert.deepEqual(guard.violations, []);
    });
  }
  assert.equal(requests.length, before, 'the loopback server saw none of them');
});
