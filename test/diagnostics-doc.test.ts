// docs/reference/diagnostics.md has a row with an anchor for every diagnostic code, which the `fix:` line of each
// diagnostic links to: the loader's codes, the lint codes, and every other code the sources emit.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { LINT_CODES, LOADER_CODES } from '../src/config/codes.ts';
import { STATE_UNREACHABLE } from '../src/fire.ts';
import { ROOT } from './helpers/cli.ts';

const page = readFileSync(join(ROOT, 'docs/reference/diagnostics.md'), 'utf8');
const anchors = new Set([...page.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]!));

/** The codes written as `code: '…'` in the sources: diagnostics built outside the two lists. */
function emitted(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return emitted(path);
    if (!entry.name.endsWith('.ts')) return [];
    return [...readFileSync(path, 'utf8').matchAll(/\bcode: '([a-z0-9-]+)'/g)].map((match) => match[1]!);
  });
}

test('every diagnostic code has an anchor in docs/reference/diagnostics.md', () => {
  const codes = new Set([
    ...Object.keys(LOADER_CODES),
    ...LINT_CODES,
    STATE_UNREACHABLE,
    ...emitted(join(ROOT, 'src')),
  ]);
  assert.ok(codes.size > 50, `${codes.size} codes found`);
  assert.deepEqual(
    [...codes].filter((code) => !anchors.has(code)),
    [],
  );
});

test('each anchor is given once', () => {
  const all = [...page.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]!);
  assert.deepEqual(
    all.filter((id, index) => all.indexOf(id) !== index),
    [],
  );
});
