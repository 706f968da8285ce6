// The case-file schema takes its skip reasons from the one list in plan.ts.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectationSchema } from '../../src/cases/schema.ts';
import { SKIP_REASONS } from '../../src/plan.ts';

const skipped = (reason: string) => expectationSchema.safeParse({ skipped: [{ hook: 'a.sh', reason }] }).success;

for (const reason of SKIP_REASONS) {
  test(`a case may expect a hook skipped by "${reason}"`, () => assert.equal(skipped(reason), true));
}

test('a skip reason outside the list is an error', () => {
  assert.equal(skipped('unknown'), false);
  assert.equal(skipped('Matcher'), false);
});
