// "Did you mean": close names are suggested, unrelated short words are not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { suggestEvent } from '../../src/events.ts';
import { closest, editDistance } from '../../src/platform/suggest.ts';

const ROWS: Array<[typed: string, suggested: string | undefined]> = [
  ['stop', 'Stop'],
  ['PRETOOLUSE', 'PreToolUse'],
  ['PreTolUse', 'PreToolUse'],
  ['Notifcation', 'Notification'],
  ['SessonEnd', 'SessionEnd'],
  ['Stpo', 'Stop'],
  // Three letters, three edits from Stop: unrelated, so nothing.
  ['Foo', undefined],
  ['Bar', undefined],
  ['x', undefined],
  ['Deploy', undefined],
];

for (const [typed, suggested] of ROWS) {
  test(`suggestEvent: "${typed}" → ${suggested ?? 'nothing'}`, () => {
    assert.equal(suggestEvent(typed), suggested);
  });
}

test('closest: commands and options, and nothing for far names', () => {
  assert.equal(closest('frie', ['fire', 'test', 'list']), 'fire');
  assert.equal(closest('outptu', ['output', 'input']), 'output');
  assert.equal(closest('zzz', ['fire', 'test']), undefined);
  assert.equal(closest('', ['fire']), undefined);
});

test('editDistance: Levenshtein', () => {
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('same', 'same'), 0);
});
