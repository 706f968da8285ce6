import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MODEL, redact, resolveModelConfig } from '../../src/llm/config.ts';

test('defaults: public API, default model, x-api-key', () => {
  const config = resolveModelConfig({ ANTHROPIC_API_KEY: 'sk-1234' }, undefined);
  assert.ok(!('error' in config));
  assert.equal(config.endpoint, 'https://api.anthropic.com/v1/messages');
  assert.equal(config.model, DEFAULT_MODEL);
  assert.deepEqual(config.headers, { 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-1234' });
  assert.deepEqual(config.credentialVars, ['ANTHROPIC_API_KEY']);
});

test('a base URL with a path prefix keeps it; no credentials are needed for a gateway', () => {
  const config = resolveModelConfig({ ANTHROPIC_BASE_URL: 'http://user:pw@gw.local:8080/anthropic/' }, ' hook-model ');
  assert.ok(!('error' in config));
  assert.equal(config.endpoint, 'http://gw.local:8080/anthropic/v1/messages');
  assert.equal(config.origin, 'http://gw.local:8080');
  assert.equal(config.model, 'hook-model');
  assert.deepEqual(config.credentialVars, []);
});

test('both credentials are sent when both are set', () => {
  const config = resolveModelConfig({ ANTHROPIC_API_KEY: 'k-1234', ANTHROPIC_AUTH_TOKEN: 't-1234' }, undefined);
  assert.ok(!('error' in config));
  assert.equal(config.headers.authorization, 'Bearer t-1234');
  assert.deepEqual(config.secrets, ['k-1234', 't-1234']);
});

test('bad settings are errors that name the variable', () => {
  assert.deepEqual(resolveModelConfig({}, undefined), {
    error: 'no credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token)',
  });
  assert.match(
    (resolveModelConfig({ ANTHROPIC_BASE_URL: 'not a url' }, undefined) as { error: string }).error,
    /^ANTHROPIC_BASE_URL is not a valid URL/,
  );
  assert.match(
    (resolveModelConfig({ ANTHROPIC_BASE_URL: 'ftp://x' }, undefined) as { error: string }).error,
    /http\(s\)/,
  );
});

test('redact replaces every occurrence of every secret', () => {
  assert.equal(redact('a KEY b KEY c TOK', ['KEY', 'TOK']), 'a [redacted] b [redacted] c [redacted]');
  // One secret inside another: the longer goes first, so none of it is left.
  assert.equal(redact('x tok-123456 y', ['tok-1', 'tok-123456']), 'x [redacted] y');
});
