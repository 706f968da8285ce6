import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nestedQuantifier } from '../../src/validate/regex.ts';

test('nested unbounded quantifiers are found; bounded, escaped and class forms are not', () => {
  const rows: Array<[string, string | undefined]> = [
    ['(a+)+', '(a+)+'],
    ['(a*)*', '(a*)*'],
    ['(\\w+)+$', '(\\w+)+'],
    ['^(?:x+y?)+$', '(?:x+y?)+'],
    ['((ab)*c)+', '((ab)*c)+'],
    ['(a+){2,}', '(a+){2,}'],
    ['(a{1,5})*', '(a{1,5})*'],
    ['(a+)+?', '(a+)+?'],
    ['Edit.*', undefined],
    ['(Edit|Write)+', undefined],
    ['(a+)?', undefined],
    ['(a+){1}', undefined],
    ['(a+){0,1}', undefined],
    ['\\(a+\\)+', undefined],
    ['[(a+)]+', undefined],
    ['(a+)b+', undefined],
    ['^mcp__.*__(read|write)$', undefined],
  ];
  for (const [source, expected] of rows) assert.equal(nestedQuantifier(source), expected, source);
});
