// Tools that some tests need from the machine (redis-server, zsh, fish). Elsewhere their tests are skipped with
// a message that says how to run them; where PERI_HOOKS_TEST_REQUIRE names a tool (.ci/run names every one), a
// missing tool fails instead, so that CI cannot pass by skipping. The generic CI variable does not decide this:
// every hosted runner sets it, with or without these tools.

import assert from 'node:assert/strict';
import { test } from 'node:test';

export function requiredTools(env: NodeJS.ProcessEnv = process.env): Set<string> {
  return new Set(
    (env.PERI_HOOKS_TEST_REQUIRE ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
}

/**
 * The skip for tests that need `tool`: false when it is there; else the reason to skip, or (when required) a
 * failing test named after it and the skip for the rest.
 */
export function skipWithout(tool: string, present: boolean, howToInstall: string): false | string {
  if (present) return false;
  const reason = `${tool} is not installed (${howToInstall}); these tests are skipped`;
  if (requiredTools().has(tool))
    test(`${tool} is installed (PERI_HOOKS_TEST_REQUIRE)`, () =>
      assert.fail(`${tool} is missing but PERI_HOOKS_TEST_REQUIRE requires it: ${howToInstall}`));
  return reason;
}
