// The one bound of the long-running caches: at most `capacity` entries, the one used longest ago dropped first.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedMap } from '../../src/platform/bounded-map.ts';

test('a bounded map drops the entry used longest ago, where a read counts as a use', () => {
  const map = new BoundedMap<string, number>(2);
  map.set('a', 1);
  map.set('b', 2);
  assert.equal(map.get('a'), 1);
  map.set('c', 3);
  assert.equal(map.size, 2);
  assert.equal(map.get('b'), undefined, 'b, used before a, went first');
  assert.equal(map.get('a'), 1);
  assert.equal(map.get('c'), 3);
});

test('a bounded map overwrites a key in place, as its newest entry, without dropping another', () => {
  const map = new BoundedMap<string, number>(2);
  map.set('a', 1);
  map.set('b', 2);
  map.set('a', 10);
  assert.equal(map.size, 2);
  map.set('c', 3);
  assert.equal(map.get('b'), undefined, 'the rewrite made a newer than b');
  assert.equal(map.get('a'), 10);
  map.delete('a');
  assert.equal(map.size, 1);
  assert.equal(map.get('a'), undefined);
});

test('a bounded map keeps an undefined value apart from an absent key', () => {
  const map = new BoundedMap<string, number | undefined>(2);
  map.set('a', undefined);
  map.set('b', 2);
  map.get('a');
  map.set('c', 3);
  assert.equal(map.get('b'), undefined, 'reading the undefined value of a counted as a use');
  assert.equal(map.size, 2);
});
