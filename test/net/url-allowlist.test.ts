import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isUrlAllowed, urlMatchesPattern } from '../../src/net/url-allowlist.ts';

// [pattern, hook URL, matches]
const ROWS: [string, string, boolean][] = [
  ['*', 'https://anything.example/x?y=1', true],
  ['*', 'http://127.0.0.1:9/', true],
  // empty path, no trailing slash: any path
  ['https://policy.example.com', 'https://policy.example.com/hooks/pre?x=1', true],
  ['https://policy.example.com', 'https://policy.example.com', true],
  // scheme must match
  ['https://policy.example.com', 'http://policy.example.com/', false],
  ['HTTPS://policy.example.com', 'https://policy.example.com/a', true],
  ['http*://policy.example.com', 'https://policy.example.com/a', true],
  // host: case-insensitive, trailing dot ignored on both sides
  ['https://Policy.Example.COM', 'https://policy.example.com/a', true],
  ['https://policy.example.com.', 'https://policy.example.com/a', true],
  ['https://policy.example.com', 'https://policy.example.com./a', true],
  ['https://policy.example.com', 'https://evil.example.com/a', false],
  ['https://policy.example.com', 'https://policy.example.com.evil.test/a', false],
  ['https://*.example.com', 'https://a.b.example.com/x', true],
  ['https://*.example.com', 'https://example.com/x', false],
  ['https://*.example.com', 'https://example.com.evil.test/x', false],
  ['https://bücher.example', 'https://xn--bcher-kva.example/', true],
  ['https://*.bücher.example', 'https://shop.bücher.example/', true],
  // port must match unless wildcarded; default ports are the same as no port
  ['http://localhost:*', 'http://localhost:8080/hook', true],
  ['http://localhost:*', 'http://localhost/hook', true],
  ['http://localhost', 'http://localhost:8080/hook', false],
  ['http://localhost:8080', 'http://localhost:8080/hook', true],
  ['http://localhost:8080', 'http://localhost:8081/hook', false],
  ['https://policy.example.com:443', 'https://policy.example.com/a', true],
  ['https://policy.example.com', 'https://policy.example.com:443/a', true],
  ['http://localhost:08080', 'http://localhost:8080/a', true],
  // IP literals in canonical form
  ['http://127.0.0.1:*', 'http://127.0.0.1:3000/', true],
  ['http://[::1]:*', 'http://[::1]:3000/', true],
  ['http://[0:0::1]:3000', 'http://[::1]:3000/', true],
  ['http://127.1:3000', 'http://127.0.0.1:3000/', true],
  // a path (or a trailing slash) makes path + query a glob
  ['https://policy.example.com/', 'https://policy.example.com/', true],
  ['https://policy.example.com/', 'https://policy.example.com/hooks', false],
  ['https://policy.example.com/hooks/*', 'https://policy.example.com/hooks/pre?tool=Bash', true],
  ['https://policy.example.com/hooks/*', 'https://policy.example.com/other/pre', false],
  ['https://policy.example.com/hooks', 'https://policy.example.com/hooks?x=1', false],
  ['https://policy.example.com/hooks?team=*', 'https://policy.example.com/hooks?team=infra', true],
  ['https://policy.example.com/Hooks', 'https://policy.example.com/hooks', false],
  ['https://policy.example.com/a.b', 'https://policy.example.com/aXb', false],
  ['https://policy.example.com/hooks#frag', 'https://policy.example.com/hooks#other', true],
  // unparsable patterns: plain glob over scheme://host/path?query (no port)
  ['*.example.com/*', 'https://a.example.com/x', true],
  ['https://*.example.com:abc/*', 'https://a.example.com/x', false],
  ['*://policy.example.com/hooks', 'https://policy.example.com:8443/hooks', false],
  ['*policy.example.com/*', 'https://policy.example.com:8443/hooks', true],
  ['https://user@policy.example.com/*', 'https://policy.example.com/x', false],
  ['policy.example.com', 'https://policy.example.com/', false],
];

test(`urlMatchesPattern: ${ROWS.length} rows`, async (t) => {
  assert.ok(ROWS.length >= 20);
  for (const [pattern, url, expected] of ROWS) {
    await t.test(`${pattern} ${expected ? 'matches' : 'does not match'} ${url}`, () => {
      assert.equal(urlMatchesPattern(new URL(url), pattern), expected);
    });
  }
});

test('isUrlAllowed: undefined allows all, [] refuses all, otherwise any pattern', () => {
  const url = new URL('https://policy.example.com/hooks');
  assert.equal(isUrlAllowed(url, undefined), true);
  assert.equal(isUrlAllowed(url, []), false);
  assert.equal(isUrlAllowed(url, ['https://other.example.com', 'https://policy.example.com/hooks']), true);
  assert.equal(isUrlAllowed(url, ['https://other.example.com']), false);
});

test("globs match in linear time: *a*a*a*b against 2,000 a's, 100,000 stars", () => {
  const as = 'a'.repeat(2000);
  assert.equal(
    urlMatchesPattern(new URL(`https://policy.example.com/${as}`), 'https://policy.example.com/*a*a*a*b'),
    false,
  );
  assert.equal(
    urlMatchesPattern(new URL(`https://policy.example.com/${as}b`), 'https://policy.example.com/*a*a*a*b'),
    true,
  );
  assert.equal(
    urlMatchesPattern(new URL(`https://${'a.'.repeat(100)}example.com/`), `https://*a*a*a*a*a*a*a*a*b.example.com`),
    false,
  );
  assert.equal(urlMatchesPattern(new URL(`https://policy.example.com/${as}`), `*a*a*a*a*a*a*a*a*b`), false);
  assert.equal(
    urlMatchesPattern(new URL('https://policy.example.com/x'), `https://policy.example.com/${'*'.repeat(100_000)}x`),
    true,
  );
  assert.equal(urlMatchesPattern(new URL('https://policy.example.com/x'), `${'*'.repeat(100_000)}y`), false);
});
