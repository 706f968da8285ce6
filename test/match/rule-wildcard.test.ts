// The `if` wildcard (spec §20.1 items 1, 14, 16): the same answers as the regex reading it replaced, and in
// linear time, so a model-written command or a hostile rule cannot stall a firing.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchesIf } from '../../src/match/permission-rule.ts';
import { wildcardMatches } from '../../src/match/rule-wildcard.ts';
import { prng } from '../helpers/prng.ts';

/** The backtracking regex reading that peri-hooks used before, kept as the oracle of the semantics. */
function regexReading(pattern: string, text: string, ignoreCase: boolean): boolean {
  let source = '';
  let stars = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    const next = pattern[i + 1];
    if (char === '\\' && (next === '*' || next === '\\')) {
      source += `\\${next}`;
      i++;
    } else if (char === '*') {
      source += '.*';
      stars++;
    } else {
      source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  if (stars === 1 && source.endsWith(' .*')) source = `${source.slice(0, -3)}(?: .*)?`;
  return new RegExp(`^${source}$`, ignoreCase ? 'si' : 's').test(text);
}

// Stars, escapes, spaces (the optional-tail rule), regex metacharacters, newlines and case pairs, including
// characters whose case folding is not one-to-one (ß, İ, ı, K and the Kelvin sign).
const ALPHABET = [
  'a',
  'A',
  'b',
  ' ',
  '*',
  '*',
  '\\',
  '.',
  '(',
  '\n',
  'ß',
  'SS',
  'İ',
  'i',
  'ı',
  'I',
  'k',
  '\u212a',
  'é',
  'É',
];

test("wildcardMatches gives the regex reading's answer on 20,000 seeded random rows, both case modes", () => {
  const seed = 0x5eed;
  const random = prng(seed);
  const word = (max: number) => Array.from({ length: random.int(max) }, () => random.pick(ALPHABET)).join('');
  for (let row = 0; row < 20_000; row++) {
    const pattern = word(7);
    // Half the texts are built from the pattern, so that matches are common, not just misses.
    const text = random.chance(0.5) ? pattern.replaceAll('\\', '').replaceAll('*', () => word(3)) : word(8);
    const ignoreCase = random.chance(0.5);
    assert.equal(
      wildcardMatches(pattern, text, ignoreCase),
      regexReading(pattern, text, ignoreCase),
      `seed ${seed} row ${row}: ${JSON.stringify(pattern)} vs ${JSON.stringify(text)}${ignoreCase ? ' ignoring case' : ''}`,
    );
  }
});

const bash = (rule: string, command: string) =>
  matchesIf(rule, { toolName: 'Bash', toolInput: { command }, cwd: '/w', home: '/h' }).matches;
const grep = (rule: string, pattern: string) =>
  matchesIf(rule, { toolName: 'Grep', toolInput: { pattern }, cwd: '/w', home: '/h' }).matches;

test('Bash(*git*push*--force*) against a 13.5 KB model-written command', () => {
  const message = 'git push: fix the git hook that pushed twice; '.repeat(300);
  assert.ok(message.length > 13_500);
  assert.equal(bash('Bash(*git*push*--force*)', `git commit -m "${message}"`), false);
  assert.equal(bash('Bash(*git*push*--force*)', `git commit -m "${message}" && git push --force`), true);
  assert.equal(bash('Bash(*git*push*--force*)', `git commit -m "${message} --force"`), true);
});

test("*a*a*a*b against 2,000 a's", () => {
  const as = 'a'.repeat(2000);
  assert.equal(grep('Grep(*a*a*a*b)', as), false);
  assert.equal(grep('Grep(*a*a*a*b)', `${as}b`), true);
  assert.equal(wildcardMatches('*a*a*a*a*a*a*a*a*a*a*a*a*b', as, true), false);
});

test('an `if` rule with 100,000 stars matches like one star', () => {
  const stars = '*'.repeat(100_000);
  assert.equal(bash(`Bash(${stars})`, 'rm -rf /'), true);
  assert.equal(bash(`Bash(rm${stars}/)`, 'rm -rf /'), true);
  assert.equal(bash(`Bash(rm${stars}x)`, 'rm -rf /'), false);
  assert.equal(grep(`Grep(${'a*'.repeat(50_000)}b)`, `${'a'.repeat(60_000)}b`), true);
  assert.equal(grep(`Grep(${'a*'.repeat(50_000)}b)`, `${'a'.repeat(40_000)}b`), false);
});
