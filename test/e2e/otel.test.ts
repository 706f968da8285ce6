// OpenTelemetry export of real firings to a receiver on 127.0.0.1 that decodes both OTLP/HTTP encodings with the
// official definitions (test/helpers/otlp-receiver.ts): a span per firing, a child per hook that ran, the
// standard variables honoured; a receiver that is down or stuck changes neither the decision nor, beyond the
// documented bound, the time it takes.

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { OTEL_FLUSH_MS } from '../../src/audit/otel-config.ts';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';
import { type ReceivedRequest, type ReceivedSpan, startReceiver } from '../helpers/otlp-receiver.ts';
import { call, startServe } from '../helpers/serve.ts';

const TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJ';

describe('OpenTelemetry export', () => {
  let project: Project;
  let policy: string;
  before(() => {
    project = makeProject();
    policy = project.write(
      'policy.json',
      `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "echo \\"no push with $GITHUB_TOKEN\\" >&2; exit 2", "if": "Bash(git push*)" },
          { "type": "command", "command": "true" }
        ]
      },
      { "matcher": "Read", "hooks": [{ "type": "command", "command": "exit 2" }] }
    ]
  }
}
`,
    );
  });
  after(() => project.cleanup());

  const fire = (env: Record<string, string> = {}) =>
    runCli(['fire', 'PreToolUse', '--settings', policy, '--setting-sources', '', '--no-state'], {
      stdin: project.input('PreToolUse.tool_name-Bash', { tool_input: { command: `git push ${TOKEN}` } }),
      env: project.env({ GITHUB_TOKEN: TOKEN, ...env }),
      cwd: project.dir,
    });

  /** The firing's spans as one trace: the root, and its children in configuration order. */
  function oneTrace(spans: ReceivedSpan[]): { root: ReceivedSpan; hooks: ReceivedSpan[] } {
    const root = spans.find((span) => span.parentSpanId === '');
    assert.ok(root, `no root span in ${JSON.stringify(spans.map((span) => span.name))}`);
    const hooks = spans.filter((span) => span !== root);
    for (const hook of hooks) {
      assert.equal(hook.parentSpanId, root.spanId, `${hook.name} is a child of the firing`);
      assert.equal(hook.traceId, root.traceId);
    }
    return {
      root,
      hooks: hooks.sort((a, b) => Number(a.attributes['code.line.number']) - Number(b.attributes['code.line.number'])),
    };
  }

  function checkSpans(requests: ReceivedRequest[]): void {
    assert.deepEqual(
      requests.flatMap((request) => (request.problem ? [request.problem] : [])),
      [],
    );
    const spans = requests.flatMap((request) => request.spans);
    assert.ok(!JSON.stringify(spans).includes(TOKEN), 'no secret in a span');
    const { root, hooks } = oneTrace(spans);
    assert.equal(root.name, 'PreToolUse Bash');
    assert.equal(root.scope, 'peri-hooks');
    assert.deepEqual(
      {
        event: root.attributes['peri_hooks.event'],
        tool: root.attributes['gen_ai.tool.name'],
        decision: root.attributes['peri_hooks.decision'],
        reason: root.attributes['peri_hooks.reason'],
        call: root.attributes['peri_hooks.call'],
        host: root.attributes['peri_hooks.host'],
      },
      {
        event: 'PreToolUse',
        tool: 'Bash',
        decision: 'deny',
        reason: 'no push with [redacted]',
        call: 'git push [redacted]',
        host: 'claude',
      },
    );
    assert.deepEqual(
      { ...root.resource, 'service.version': typeof root.resource['service.version'] },
      {
        ...root.resource,
        'service.name': 'guard',
        'deployment.environment.name': 'ci',
        team: 'security',
        'service.version': 'string',
      },
    );
    // Only the hooks that ran: the Read hook did not match.
    assert.deepEqual(
      hooks.map((hook) => hook.name),
      ['hook policy.json:7', 'hook policy.json:8'],
    );
    const [deny, allow] = hooks as [ReceivedSpan, ReceivedSpan];
    assert.deepEqual(
      Object.fromEntries(
        [
          'code.file.path',
          'code.line.number',
          'peri_hooks.hook.pointer',
          'peri_hooks.hook.matcher',
          'peri_hooks.hook.if',
          'peri_hooks.hook.type',
          'peri_hooks.hook.outcome',
          'process.exit.code',
          'peri_hooks.hook.decided',
          'peri_hooks.decision',
          'peri_hooks.event',
          'gen_ai.tool.name',
        ].map((key) => [key, deny.attributes[key]]),
      ),
      {
        'code.file.path': policy,
        'code.line.number': 7,
        'peri_hooks.hook.pointer': '/hooks/PreToolUse/0/hooks/0',
        'peri_hooks.hook.matcher': 'Bash',
        'peri_hooks.hook.if': 'Bash(git push*)',
        'peri_hooks.hook.type': 'command',
        'peri_hooks.hook.outcome': 'blocking',
        'process.exit.code': 2,
        'peri_hooks.hook.decided': true,
        'peri_hooks.decision': 'deny',
        'peri_hooks.event': 'PreToolUse',
        'gen_ai.tool.name': 'Bash',
      },
    );
    assert.equal(allow.attributes['process.exit.code'], 0);
    assert.equal(allow.attributes['peri_hooks.hook.decided'], undefined);
    for (const hook of hooks) assert.ok(hook.startMs >= root.startMs && hook.endMs <= root.endMs, hook.name);
  }

  const standard = {
    OTEL_SERVICE_NAME: 'guard',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=ci,team=security',
    OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20sesame,x-team=security',
  };

  test('http/protobuf (the default): a span per firing, a child per hook, the standard variables honoured', async () => {
    const receiver = await startReceiver();
    try {
      const plain = await fire();
      const result = await fire({ ...standard, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
      assert.equal(result.code, 2, result.stderr);
      assert.deepEqual([result.stdout, result.stderr], [plain.stdout, plain.stderr], 'the decision as without it');
      await receiver.received(1);
      const [request] = receiver.requests;
      assert.equal(request!.path, '/v1/traces');
      assert.equal(request!.encoding, 'protobuf');
      assert.equal(request!.headers.authorization, 'Bearer sesame');
      assert.equal(request!.headers['x-team'], 'security');
      checkSpans(receiver.requests);
    } finally {
      await receiver.close();
    }
  });

  test('http/json at OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, taken as it is', async () => {
    const receiver = await startReceiver();
    try {
      const result = await fire({
        ...standard,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/collect/traces`,
      });
      assert.equal(result.code, 2, result.stderr);
      await receiver.received(1);
      assert.equal(receiver.requests[0]!.path, '/collect/traces');
      assert.equal(receiver.requests[0]!.encoding, 'json');
      checkSpans(receiver.requests);
    } finally {
      await receiver.close();
    }
  });

  test('a receiver that is down or stuck: the same decision, and the firing waits at most the flush bound for it', async () => {
    const plain = await fire();
    const stuck = await startReceiver('hang');
    // A port that refuses: listened on, then closed.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const downPort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      // The exporter's own timeout is set far beyond the bound: only peri-hooks' deadline can end these firings in time.
      const slow = { OTEL_EXPORTER_OTLP_TIMEOUT: '60000' };
      const [hung, down] = await Promise.all([
        fire({ ...slow, OTEL_EXPORTER_OTLP_ENDPOINT: stuck.url }),
        fire({ ...slow, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${downPort}` }),
      ]);
      for (const result of [hung, down]) {
        assert.equal(result.code, 2, result.stderr);
        assert.deepEqual([result.stdout, result.stderr], [plain.stdout, plain.stderr]);
        // Generous: the bound plus twenty seconds of a loaded machine, still far below the exporter's 60 s.
        assert.ok(result.durationMs < plain.durationMs + OTEL_FLUSH_MS + 20_000, `${result.durationMs} ms`);
      }
      assert.ok(stuck.requests.length >= 1, 'the stuck receiver was asked');
    } finally {
      await stuck.close();
    }
  });

  test('serve: a trace per firing, sent in the background, and what is left as it stops', async () => {
    const receiver = await startReceiver();
    const served = await startServe(
      [
        '--listen',
        '127.0.0.1:0',
        '--project-root',
        project.dir,
        '--settings',
        policy,
        '--setting-sources',
        '',
        '--no-state',
      ],
      project.env({ GITHUB_TOKEN: TOKEN, ...standard, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
    );
    try {
      for (const command of [`git push ${TOKEN}`, 'ls']) {
        const answer = await call(
          `${served.url}/hooks/PreToolUse`,
          'POST',
          project.input('PreToolUse.tool_name-Bash', { tool_input: { command } }),
        );
        assert.equal(answer.status, 200, answer.text);
      }
      assert.equal(await served.stop(), 0, served.stderr());
      await receiver.received(1);
      const spans = receiver.requests.flatMap((request) => request.spans);
      const roots = spans.filter((span) => span.parentSpanId === '');
      assert.deepEqual(
        roots.map((root) => root.attributes['peri_hooks.decision']),
        ['deny', 'none'],
      );
      checkSpans([{ ...receiver.requests[0]!, spans: spans.filter((span) => span.traceId === roots[0]!.traceId) }]);
      assert.equal(
        spans.filter((span) => span.traceId === roots[1]!.traceId).length,
        2,
        'ls: the firing and the `true` hook',
      );
    } finally {
      await served.stop();
      await receiver.close();
    }
  });

  test('a protocol it cannot speak (grpc): a warning, the decision unchanged', async () => {
    const result = await fire({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: no spans are exported/);
  });
});
