// Seeded fuzzing of hook inputs (issue 13): mutated real Claude Code payloads either parse or are refused with
// a PeriHooksError; none crashes the parser, and a firing never blocks without a blocking hook.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { PeriHooksError } from '../../src/errors.ts';
import { EVENTS, isEventName } from '../../src/events.ts';
import { fire } from '../../src/fire.ts';
import { parseInput } from '../../src/input/parse.ts';
import { ROOT } from '../helpers/cli.ts';
import { prng } from '../helpers/prng.ts';

const SEED = Number(process.env.PERI_HOOKS_FUZZ_SEED ?? 20261201);
const INPUTS = 1500;
const FIRINGS = 300;

const dir = path.join(ROOT, 'fixtures/claude-code-2.1.332/inputs');
const payloads = readdirSync(dir)
  .map((name) => ({
    event: name.split('.')[0]!,
    text: JSON.stringify(JSON.parse(readFileSync(path.join(dir, name), 'utf8'))),
  }))
  .filter((payload) => isEventName(payload.event));

function nested(depth: number, open: string, close: string): string {
  return `${open.repeat(depth)}${close.repeat(depth)}`;
}

/** One mutation family per shape the issue names, and a few more. */
const FAMILIES: Array<(text: string, pick: () => number) => string> = [
  (text) => text,
  (text, pick) => text.replace(/"session_id":"/, `"session_id":"${pick() < 0.5 ? '\\u0000' : 'x\\u0000'}`),
  (text) => text.replace(/"cwd":"/, '"cwd":"\\u0000'),
  (text) => text.replace(/\{/, `{"effort":{"level":"lo\\u0000w"},`),
  (text, pick) => text.replace(/\{/, `{"deep":${nested(Math.floor(900 + pick() * 6000), '[', ']')},`),
  (text, pick) =>
    text.replace(
      /\{/,
      `{"deep":${nested(Math.floor(900 + pick() * 6000), '{"a":', '}')
        .replace(/\{"a":\}/, '{}')
        .replace(/:}/g, ':1}')},`,
    ),
  (text, pick) => text.slice(0, Math.floor(pick() * text.length)),
  (text, pick) => text.replace(/"[a-z_]+":/, pick() < 0.5 ? '"__proto__":' : '"constructor":'),
  (text, pick) => text.replace(/"([a-z_]+)":"[^"]*"/, pick() < 0.5 ? '"$1":42' : '"$1":null'),
  (text, pick) =>
    text.replace(/"tool_input":\{/, `"tool_input":{"command":"${'*a'.repeat(Math.floor(pick() * 5000))}",`),
  (text) => text.replace(/"hook_event_name":"[A-Za-z]+"/, '"hook_event_name":"PreToolUse"'),
  (text, pick) => `${text}${pick() < 0.5 ? '{}' : ' garbage'}`,
  (text, pick) => text.replace(/"/g, (quote) => (pick() < 0.01 ? '\\u' : quote)),
  () => '[]',
  () => 'null',
  (text) => text.replace(/"cwd":"[^"]*"/, `"cwd":"${'\\ud800'}"`),
];

test(`fuzzed inputs (${INPUTS}, seed ${SEED}) parse or are refused with a clear error, never a crash`, () => {
  const pick = prng(SEED).next;
  const counts = new Map<number, number>();
  for (let i = 0; i < INPUTS; i++) {
    const payload = payloads[Math.floor(pick() * payloads.length)]!;
    const family = Math.floor(pick() * FAMILIES.length);
    counts.set(family, (counts.get(family) ?? 0) + 1);
    const text = FAMILIES[family]!(payload.text, pick);
    try {
      const input = parseInput(payload.event as never, text);
      assert.equal(typeof input.session_id, 'string');
      assert.ok(!input.session_id.includes('\u0000') && !input.cwd.includes('\u0000'), 'a NUL never reaches a hook');
    } catch (error) {
      if (!(error instanceof PeriHooksError))
        assert.fail(`seed ${SEED}, input ${i}, family ${family}: ${String(error)}`);
    }
  }
  assert.equal(counts.size, FAMILIES.length, 'every family is represented');
});

test(`fuzzed firings (${FIRINGS}, seed ${SEED}): no internal error, no block without a blocking hook`, async () => {
  const pick = prng(SEED + 1).next;
  // WorktreeCreate with no hook that prints a path fails the creation, as Claude Code does: that block is meant.
  const firable = payloads.filter((payload) => EVENTS[payload.event as keyof typeof EVENTS].family !== 'worktree');
  const folder = mkdtempSync(path.join(tmpdir(), 'peri-hooks-fuzz-'));
  try {
    const allow = {
      hooks: Object.fromEntries(
        ['PreToolUse', 'Stop', 'UserPromptSubmit', 'PermissionRequest', 'PreModelSwitch'].map((event) => [
          event,
          [{ hooks: [{ type: 'command', command: 'cat >/dev/null; exit 0' }] }],
        ]),
      ),
    };
    for (let i = 0; i < FIRINGS; i++) {
      const payload = firable[Math.floor(pick() * firable.length)]!;
      const family = Math.floor(pick() * FAMILIES.length);
      const text = FAMILIES[family]!(payload.text, pick);
      try {
        const report = await fire(payload.event, text, {
          settingSources: [],
          settings: [JSON.stringify(allow)],
          noState: true,
          home: folder,
          managedDir: folder,
          projectDir: folder,
          env: { PATH: process.env.PATH },
        });
        assert.equal(
          report.exitCode,
          0,
          `seed ${SEED + 1}, firing ${i}, family ${family}: ${payload.event} blocked without a blocking hook: ${report.reason}`,
        );
      } catch (error) {
        if (!(error instanceof PeriHooksError))
          assert.fail(`seed ${SEED + 1}, firing ${i}, family ${family}: ${String(error)}`);
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
