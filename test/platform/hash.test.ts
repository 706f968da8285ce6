// The hand-written SHA-256 against node:crypto's, on the lengths where the padding changes shape (55, 56, 63,
// 64 bytes), on multi-byte text and on seeded random strings (lone surrogates included).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { preferNodeCrypto, sha256Hex, writtenSha256Hex } from '../../src/platform/hash.ts';
import { prng } from '../helpers/prng.ts';

const nodeSha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('the written SHA-256 is SHA-256: the FIPS 180-4 example and the empty string', () => {
  assert.equal(writtenSha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(writtenSha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

test('the written SHA-256 agrees with node:crypto at every padding boundary and on multi-byte text', () => {
  for (let length = 0; length <= 200; length++)
    assert.equal(writtenSha256Hex('x'.repeat(length)), nodeSha256('x'.repeat(length)), `length ${length}`);
  for (const text of [
    '"ee83d1f3-7cf3-4507-a0c5-d5b6f4c1e9a7"',
    'é'.repeat(40),
    '日本語'.repeat(30),
    '🙂'.repeat(17),
    '"\\ud800"',
    'a\u0000b',
    'y'.repeat(100_000),
  ]) {
    assert.equal(writtenSha256Hex(text), nodeSha256(text), text.slice(0, 40));
  }
});

test('the written SHA-256 agrees with node:crypto on seeded random strings', () => {
  const random = prng(16);
  for (let i = 0; i < 300; i++) {
    const text = Array.from({ length: random.int(300) }, () => String.fromCodePoint(random.int(0xe000))).join('');
    assert.equal(writtenSha256Hex(text), nodeSha256(text), JSON.stringify(text));
  }
});

test('sha256Hex gives the same digests before and after a long-lived process prefers node:crypto', () => {
  const texts = ['', 'abc', '"ee83d1f3-7cf3-4507-a0c5-d5b6f4c1e9a7"', 'é'.repeat(40), '"\\ud800"'];
  const before = texts.map(sha256Hex);
  preferNodeCrypto();
  assert.deepEqual(texts.map(sha256Hex), before);
  assert.deepEqual(before, texts.map(nodeSha256));
});
