// `npm run test:claude` (not part of `npm test`: it needs Claude Code, a download of a few hundred MB): every
// case of cases.ts against the real Claude Code 2.1.332, hooks registered directly, through peri-hooks' command
// registration and through `install --via mcp`; each run must agree with the direct one, except in cases
// marked knownDifference (the command run) or mcpDifference (the mcp run, docs/agents/mcp.md).

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { installClaudeCode } from '../../scripts/install-claude-code.ts';
import { CASES } from './cases.ts';
import { type RunOutput, runCase, unmet, unseen } from './harness.ts';

let claude = '';
before(() => {
  claude = installClaudeCode((text) => console.error(text));
});

// Two cases at a time, each running its two Claude Code sessions one after the other: two cores.
describe('the real Claude Code, hooks direct and through peri-hooks', { concurrency: 2 }, () => {
  // PERI_HOOKS_CLAUDE_CASES=<text>[|<text>…] runs only the cases whose name contains one of them.
  const only = (process.env.PERI_HOOKS_CLAUDE_CASES ?? '').split('|');
  for (const testCase of CASES.filter((candidate) => only.some((text) => candidate.name.includes(text)))) {
    test(testCase.name, { timeout: 600_000 }, async (t) => {
      const debug = Boolean(process.env.PERI_HOOKS_CLAUDE_DUMP);
      const direct = await runCase(claude, testCase, 'direct', debug);
      const viaPeriHooks = await runCase(claude, testCase, 'peri-hooks', debug);
      const viaMcp = await runCase(claude, testCase, 'mcp', debug);
      for (const [mode, run] of [
        ['direct', direct],
        ['peri-hooks', viaPeriHooks],
        ['mcp', viaMcp],
      ] as const) {
        if (run.sideRequests.length > 0)
          t.diagnostic(`${mode}: requests outside the main loop: ${run.sideRequests.join(', ')}`);
        if (process.env.PERI_HOOKS_CLAUDE_DUMP)
          dump(process.env.PERI_HOOKS_CLAUDE_DUMP, `${testCase.name}.${mode}`, run);
      }
      assert.deepEqual(
        unmet(testCase.expect, direct.observed),
        [],
        'the direct run does not show what the case is about',
      );
      assert.deepEqual(
        unseen(testCase.periHooksExpect, viaPeriHooks.userNotices),
        [],
        `the run through peri-hooks does not show what the case is about; notices: ${JSON.stringify(viaPeriHooks.userNotices)}`,
      );
      await t.test('through install --via mcp', () => compareMcp(t, testCase, direct, viaPeriHooks, viaMcp));
      if (testCase.knownDifference === undefined) {
        const report = [
          ...differences(direct.observed, viaPeriHooks.observed),
          `claude stderr: direct ${JSON.stringify(direct.stderr)} | peri-hooks ${JSON.stringify(viaPeriHooks.stderr)}`,
        ];
        assert.deepEqual(
          viaPeriHooks.observed,
          direct.observed,
          `through peri-hooks (actual) vs direct (expected):\n${report.join('\n')}`,
        );
        return;
      }
      assert.ok(
        !isDeepStrictEqual(viaPeriHooks.observed, direct.observed),
        `known difference no longer seen, remove the marker: ${testCase.knownDifference}`,
      );
      t.diagnostic(`known difference (${testCase.knownDifference}):`);
      for (const line of differences(direct.observed, viaPeriHooks.observed)) t.diagnostic(line);
    });
  }
});

/**
 * The mcp run agrees with the direct run, or where the command run has a known difference, with the command run
 * (the same peri-hooks behind another registration); a case marked mcpDifference must still differ.
 */
function compareMcp(
  t: { diagnostic(message: string): void },
  testCase: (typeof CASES)[number],
  direct: RunOutput,
  viaPeriHooks: RunOutput,
  viaMcp: RunOutput,
): void {
  const [reference, name] =
    testCase.knownDifference === undefined ? [direct, 'direct'] : [viaPeriHooks, 'the command registration'];
  if (testCase.mcpDifference === undefined) {
    const report = [
      ...differences(reference.observed, viaMcp.observed),
      `claude stderr: ${name} ${JSON.stringify(reference.stderr)} | mcp ${JSON.stringify(viaMcp.stderr)}`,
    ];
    assert.deepEqual(
      viaMcp.observed,
      reference.observed,
      `through install --via mcp (actual) vs ${name} (expected):\n${report.join('\n')}`,
    );
    return;
  }
  assert.ok(
    !isDeepStrictEqual(viaMcp.observed, reference.observed),
    `mcp difference no longer seen, remove the marker: ${testCase.mcpDifference}`,
  );
  t.diagnostic(`mcp difference (${testCase.mcpDifference}):`);
  for (const line of differences(reference.observed, viaMcp.observed)) t.diagnostic(line);
}

/** The paths where the two runs differ, with both values, for the report of a known difference. */
function differences(direct: unknown, viaPeriHooks: unknown, path = ''): string[] {
  if (isDeepStrictEqual(direct, viaPeriHooks)) return [];
  const bothObjects = direct && viaPeriHooks && typeof direct === 'object' && typeof viaPeriHooks === 'object';
  if (typeof direct === 'string' && typeof viaPeriHooks === 'string')
    return [`${path}: ${textDifference(direct, viaPeriHooks)}`];
  if (!bothObjects)
    return [`${path || '/'}: direct ${JSON.stringify(direct)} | peri-hooks ${JSON.stringify(viaPeriHooks)}`];
  const keys = [...new Set([...Object.keys(direct), ...Object.keys(viaPeriHooks)])];
  return keys.flatMap((key) =>
    differences(
      (direct as Record<string, unknown>)[key],
      (viaPeriHooks as Record<string, unknown>)[key],
      `${path}/${key}`,
    ),
  );
}

/** Two long texts from shortly before where they part to a little after. */
function textDifference(direct: string, viaPeriHooks: string): string {
  let start = 0;
  while (start < direct.length && direct[start] === viaPeriHooks[start]) start++;
  const from = Math.max(0, start - 60);
  const excerpt = (value: string) =>
    JSON.stringify(`${from > 0 ? '…' : ''}${value.slice(from, start + 240)}${value.length > start + 240 ? '…' : ''}`);
  return `direct ${excerpt(direct)} | peri-hooks ${excerpt(viaPeriHooks)}`;
}

/** PERI_HOOKS_CLAUDE_DUMP=<folder> keeps each run's observations and hook debug log, to read what a case does. */
function dump(folder: string, name: string, run: RunOutput): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${name.replace(/[^\w.-]+/g, '_')}.json`), JSON.stringify(run, null, 2));
}
