// The compiled-regex cache has a bound: a resident server that reloads settings with new matchers for as long
// as it runs keeps at most MAX_REMEMBERED of them, the one used longest ago dropped first.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cannotBacktrack, compiledRegexes, MAX_REMEMBERED } from '../../src/match/bounded-regex.ts';
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

test('cannotBacktrack accepts only alternatives of plain characters with at most a trailing .*', () => {
  for (const source of [
    'mcp__.*',
    '.*',
    'Tool0|mcp__server0__.*',
    '^Bash',
    'a\\.b|^c.*|d',
    'Notebook.',
    'a||b',
    'mcp__github__\\-x.*|',
  ]) {
    assert.equal(cannotBacktrack(source), true, source);
  }
  for (const source of [
    '(a+)+$',
    'a.*b',
    '.*.*',
    'a+',
    '[ab]',
    'a$',
    '(?=x)',
    'a{2}',
    'a?',
    'x^',
    '\\d',
    '\\',
    'a.*|b.*c',
    'a\\1',
  ]) {
    assert.equal(cannotBacktrack(source), false, source);
  }
});

test('a regex that cannot backtrack answers as V8 does', () => {
  const values = ['mcp__server0__write', 'Tool0', 'xTool0y', 'mcp__server0_', 'line\nmcp__server0__', ''];
  for (const source of ['Tool0|mcp__server0__.*', '^Tool', 'server0__.', '.*']) {
    assert.equal(cannotBacktrack(source), true, source);
    for (const value of values)
      assert.equal(
        matchesMatcher('PreToolUse', source, value).matches,
        new RegExp(source).test(value),
        `${source} on ${JSON.stringify(value)}`,
      );
  }
});
