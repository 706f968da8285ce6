import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMessage } from '../../src/llm/client.ts';
import { type ModelConfig, resolveModelConfig } from '../../src/llm/config.ts';
import { API_KEY, apiError, message, type Step, startMessagesApi, text } from '../helpers/messages-api-server.ts';

const body = { model: 'm', max_tokens: 10, system: 's', messages: [{ role: 'user' as const, content: 'hi' }] };

async function send(steps: Step[], timeoutMs = 10_000) {
  const api = await startMessagesApi(steps);
  try {
    const config = resolveModelConfig(
      { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: API_KEY },
      undefined,
    ) as ModelConfig;
    const result = await createMessage(config, body, {
      signal: AbortSignal.timeout(timeoutMs),
      deadline: Date.now() + timeoutMs,
    });
    assert.ok(!JSON.stringify(result).includes(API_KEY));
    return { result, requests: api.requests };
  } finally {
    await api.close();
  }
}

test('a message comes back as sent by the server', async () => {
  const { result, requests } = await send([message([text('hello')])]);
  assert.ok(result.ok);
  assert.deepEqual(result.message.content, [{ type: 'text', text: 'hello' }]);
  assert.equal(requests[0]!.body.model, 'm');
  assert.equal(requests[0]!.headers['content-type'], 'application/json');
});

test('retry-after-ms and an HTTP-date retry-after are honoured; 5xx without a body is retried', async () => {
  const past = new Date(Date.now() - 1000).toUTCString();
  const started = performance.now();
  const { result, requests } = await send([
    apiError(429, 'rate_limit_error', 'x', { 'retry-after-ms': '900' }),
    apiError(503, 'api_error', 'x', { 'retry-after': past }),
    { status: 502, raw: '<html>bad gateway</html>', headers: { 'retry-after': '0' } },
    message([text('ok')]),
  ]);
  const elapsed = performance.now() - started;
  assert.ok(result.ok);
  assert.equal(requests.length, 4);
  // Honoured: 900 ms, then 0, then 0. Ignored, the backoff would wait at least 750 + 1500 ms after the first 900 (3,150 ms in all).
  assert.ok(elapsed >= 895 && elapsed < 3000, `took ${Math.round(elapsed)} ms`);
});

test('x-should-retry: false stops retries', async () => {
  const { result, requests } = await send([
    apiError(429, 'rate_limit_error', 'spend limit reached', { 'x-should-retry': 'false' }),
    message([]),
  ]);
  assert.deepEqual(result, { ok: false, error: '429 rate_limit_error: spend limit reached' });
  assert.equal(requests.length, 1);
});

test('without retry-after, exponential backoff still retries', async () => {
  const { result, requests } = await send([apiError(500, 'api_error', 'oops'), message([])]);
  assert.ok(result.ok);
  assert.equal(requests.length, 2);
});

test('a non-JSON error body and a 200 that is not a message are described', async () => {
  const html = await send([{ status: 418, raw: '<h1>teapot</h1>' }]);
  assert.deepEqual(html.result, { ok: false, error: '418 http_error: <h1>teapot</h1>' });
  const weird = await send([{ status: 200, body: { hello: 1 } }]);
  assert.deepEqual(weird.result, { ok: false, error: 'the response is not a Messages API message: {"hello":1}' });
});

test('a timeout during the request reports aborted', async () => {
  const { result } = await send(['hang'], 100);
  assert.deepEqual(result, { ok: false, error: 'aborted' });
});

test('a key the server echoes back is redacted, every copy, before the message is cut: no part of it is left at the cut', async () => {
  // Unredacted, the third copy would straddle the 300-character cut.
  const echo = `${API_KEY} ${API_KEY} ${'x'.repeat(200)} ${API_KEY} end`;
  for (const step of [{ status: 400, raw: echo }, apiError(400, 'invalid_request_error', echo)]) {
    const { result } = await send([step]);
    assert.ok(!result.ok);
    assert.ok(!result.error.includes(API_KEY.slice(0, 8)), result.error);
    assert.match(result.error, /: \[redacted\] \[redacted\] x{200} \[redacted\] end$/);
  }
});
