// The compiled-regex cache has a bound: a resident server that reloads settings with new matchers for as long
// as it runs keeps at most MAX_REMEMBERED of them, the one used longest ago dropped first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_REMEMBERED, compiledRegexes } from '../../src/match/bounded-regex.ts';
import { matchesMatcher } from '../../src/match/matcher.ts';

test('the compiled-regex cache holds at most MAX_REMEMBERED matchers, keeping the ones still in use', () => {
  const hot = '^Hot(Bash)?$';
  const cold = (index: number) => `^Cold${index}$`;
  for (let index = 0; index < MAX_REMEMBERED * 2; index++) {
    assert.equal(matchesMatcher('PreToolUse', cold(index), `Cold${index}`).matches, true);
    assert.equal(matchesMatcher('PreToolUse', hot, 'HotBash').matches, true);
  }
  assert.equal(compiledRegexes.size, MAX_REMEMBERED);
  assert.notEqual(compiledRegexes.get(hot), undefined, 'the matcher tested on every firing stays compiled');
  assert.equal(compiledRegexes.get(cold(0)), undefined, 'the first matcher, unused since, was dropped');
  assert.notEqual(compiledRegexes.get(cold(MAX_REMEMBERED * 2 - 1)), undefined);
  assert.equal(matchesMatcher('PreToolUse', cold(0), 'Cold0').matches, true, 'a dropped matcher compiles again');
});
