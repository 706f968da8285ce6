// The generated checkers (src/generated/checks.ts) against the zod schemas they come from: the file is what the
// generator writes today, and on every fixture of the repo and thousands of variants of them, a checker either
// defers or gives exactly zod's data (same values, same keys, same key order).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type * as z from 'zod';
import { CHECKS_FILE, checksSource } from '../../scripts/generate-checks.ts';
import { hookHandlerSchema, matcherGroupSchema, settingsSchema } from '../../src/config/schema.ts';
import { EVENT_NAMES, EVENTS, isEventName } from '../../src/events.ts';
import {
  type Checker,
  DEFER,
  HOOK_TYPES,
  handlerCheck,
  hookOutputCheck,
  inputChecks,
  matcherCheck,
  permissionDecisionChecks,
  sequentialCheck,
  sessionStateCheck,
  settingChecks,
  specificFieldChecks,
} from '../../src/generated/checks.ts';
import { buildInput } from '../../src/input/build.ts';
import { inputSchema } from '../../src/input/parse.ts';
import { hookOutputSchema, specificFieldSchema } from '../../src/output/schema.ts';
import { sessionStateSchema } from '../../src/session/schema.ts';
import { ROOT } from '../helpers/cli.ts';

test('src/generated/checks.ts is what scripts/generate-checks.ts writes from the schemas today', () => {
  assert.ok(
    readFileSync(CHECKS_FILE, 'utf8') === checksSource(),
    'src/generated/checks.ts is stale: run node scripts/generate-checks.ts',
  );
});

/** Replacements for any one value: every JSON type, empty and huge values, a NUL, nested junk. */
const JUNK: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e300,
  -1e300,
  Infinity,
  Number.NaN,
  2 ** 53,
  '',
  'x',
  '\u0000',
  'a\u0000b',
  true,
  false,
  [],
  {},
  [1, 'a'],
  { nested: [{ junk: null }] },
  'https://example.com/',
  'not a url',
];

/** The value with one place changed: each path to depth `depth` replaced by each junk value, deleted, or given an extra key. */
function* variants(value: unknown, depth: number): Generator<unknown> {
  yield value;
  if (depth === 0 || typeof value !== 'object' || value === null) return;
  const keys = Object.keys(value);
  for (const key of keys) {
    const at = (replacement: unknown) =>
      Array.isArray(value)
        ? value.map((item, i) => (String(i) === key ? replacement : item))
        : { ...value, [key]: replacement };
    for (const junk of JUNK) yield at(junk);
    for (const inner of variants((value as Record<string, unknown>)[key], depth - 1))
      if (inner !== (value as Record<string, unknown>)[key]) yield at(inner);
    if (!Array.isArray(value)) {
      const { [key]: _, ...rest } = value as Record<string, unknown>;
      yield rest;
    }
  }
  if (!Array.isArray(value)) {
    yield { ...value, extra: { nested: [1, { deep: 'x' }] } };
    yield JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(value).slice(1)}`.replace(/, }$/, '}'));
  }
}

interface Tally {
  accepted: number;
  rejected: number;
  deferred: number;
}

/** One checker against its schema on one value; `mayDefer` says whether a value zod accepts may still defer. */
function agree(
  name: string,
  check: Checker,
  schema: z.ZodType,
  value: unknown,
  tally: Tally,
  mayDefer = (_: unknown) => false,
): void {
  const zod = schema.safeParse(value);
  const checked = check(value);
  if (checked === DEFER) {
    if (zod.success)
      assert.ok(mayDefer(value), `${name}: the checker defers what zod accepts: ${JSON.stringify(value)}`);
    if (zod.success) tally.deferred++;
    else tally.rejected++;
    return;
  }
  assert.ok(
    zod.success,
    `${name}: the checker accepts what zod rejects (${zod.error?.issues[0]?.message}): ${JSON.stringify(value)}`,
  );
  assert.deepStrictEqual(checked, zod.data, `${name}: ${JSON.stringify(value)}`);
  assert.equal(
    JSON.stringify(checked),
    JSON.stringify(zod.data),
    `${name}: key order differs for ${JSON.stringify(value)}`,
  );
  tally.accepted++;
}

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;

test("the input checkers give zod's result on every captured input, a synthetic one of each event, and their variants", () => {
  const folder = join(ROOT, 'fixtures/claude-code-2.1.332/inputs');
  const tally: Tally = { accepted: 0, rejected: 0, deferred: 0 };
  const captured = readdirSync(folder).map((file) => ({ event: file.split('.')[0]!, value: json(join(folder, file)) }));
  // Events that have no captured payload get the synthetic input explain and the cases build.
  const synthetic = EVENT_NAMES.map((event) => ({
    event,
    value: buildInput({
      event,
      sessionId: 's',
      transcriptPath: '/t.jsonl',
      cwd: '/',
      tool: { name: 'Bash', input: { command: 'ls' }, useId: 'u' },
    }),
  }));
  for (const { event, value } of [...captured, ...synthetic]) {
    assert.ok(isEventName(event), event);
    for (const variant of variants(value, 2)) agree(event, inputChecks[event], inputSchema(event), variant, tally);
  }
  assert.ok(tally.accepted > 1000 && tally.rejected > 1000, JSON.stringify(tally));
});

/** Every settings file of the fixtures, plus one handler of each type with every field set. */
function settingsDocuments(): Array<Record<string, unknown>> {
  const files = [
    'fixtures/policies/guard/.claude/settings.json',
    'fixtures/example/settings.json',
    'fixtures/hosts/policy.json',
    'fixtures/mistakes/project/.claude/settings.local.json',
    'fixtures/mistakes/project/.claude/settings.json',
    'fixtures/mistakes/home/.claude/settings.json',
    'fixtures/mistakes/plugins/guard/hooks/hooks.json',
  ];
  const common = { if: 'Bash(git push *)', timeout: 30, statusMessage: 'checking', once: true };
  const every = {
    disableAllHooks: false,
    allowManagedHooksOnly: true,
    allowedHttpHookUrls: ['https://example.com/*'],
    httpHookAllowedEnvVars: ['TOKEN'],
    enabledPlugins: { 'guard@local': true },
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash|Edit',
          sequential: true,
          hooks: [
            {
              type: 'command',
              command: 'guard.sh',
              args: ['--strict'],
              shell: 'bash',
              async: false,
              asyncRewake: false,
              onFailure: 'block',
              ...common,
            },
            {
              type: 'http',
              url: 'https://example.com/hook',
              headers: { Authorization: 'Bearer $TOKEN' },
              allowedEnvVars: ['TOKEN'],
              onFailure: 'continue',
              ...common,
            },
            {
              type: 'mcp_tool',
              server: 'guard',
              tool: 'check',
              input: { path: '${tool_input.file_path}' },
              onFailure: 'anything',
              ...common,
            },
            {
              type: 'prompt',
              prompt: 'Is this safe? $ARGUMENTS',
              model: 'claude-haiku',
              continueOnBlock: true,
              ...common,
            },
            { type: 'agent', prompt: 'Check the change', model: 'claude-sonnet', ...common },
          ],
        },
      ],
    },
  };
  return [every, ...files.map((file) => json(join(ROOT, file)) as Record<string, unknown>)];
}

test("the settings checkers give zod's result on every fixture's handlers, groups and settings, and their variants", () => {
  const tally: Tally = { accepted: 0, rejected: 0, deferred: 0 };
  // z.url() is not generated: an http handler always defers.
  const isHttp = (value: unknown) =>
    typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'http';
  for (const document of settingsDocuments()) {
    for (const [key, schema] of Object.entries(settingsSchema.shape)) {
      if (key === 'hooks' || !(key in document)) continue;
      for (const value of variants(document[key], 2)) agree(key, settingChecks[key]!, schema, value, tally);
      for (const junk of JUNK) agree(key, settingChecks[key]!, schema, junk, tally);
    }
    const hooks = (document.hooks ?? document) as Record<string, unknown>;
    for (const groups of Object.values(hooks)) {
      if (!Array.isArray(groups)) continue;
      for (const group of groups as Array<Record<string, unknown>>) {
        for (const junk of [...JUNK, undefined, group.matcher, group.sequential]) {
          agree('matcher', matcherCheck, matcherGroupSchema.shape.matcher, junk, tally);
          agree('sequential', sequentialCheck, matcherGroupSchema.shape.sequential, junk, tally);
        }
        for (const handler of Array.isArray(group.hooks) ? group.hooks : []) {
          for (const value of variants(handler, 2))
            agree('handler', handlerCheck, hookHandlerSchema, value, tally, isHttp);
        }
      }
    }
  }
  assert.deepEqual(
    HOOK_TYPES,
    hookHandlerSchema.options.map((option) => option.shape.type.value),
  );
  assert.ok(tally.accepted > 500 && tally.rejected > 500, JSON.stringify(tally));
});

test("the session state checker gives zod's result on a full state file and its variants", () => {
  const state = {
    version: 1,
    sessionId: 'abc',
    updatedAt: '2026-01-01T00:00:00.000Z',
    once: {
      h1: { status: 'done', label: 'x', at: '2026-01-01T00:00:00.000Z' },
      h2: { status: 'running', pid: 12, host: 'box', label: 'y', at: 't' },
    },
    stopBlocks: { main: 2, 'agent:a': 0 },
    results: [
      {
        jobId: 'j',
        hookId: 'h',
        label: 'l',
        event: 'Stop',
        finishedAt: 't',
        systemMessage: 's',
        additionalContext: 'c',
        rewake: 'r',
      },
    ],
  };
  const tally: Tally = { accepted: 0, rejected: 0, deferred: 0 };
  for (const value of variants(state, 4)) agree('session', sessionStateCheck, sessionStateSchema(), value, tally);
  // The defaults: a fresh {} or [] for each missing collection.
  agree('session', sessionStateCheck, sessionStateSchema(), { version: 1, sessionId: 'a', updatedAt: 't' }, tally);
  assert.ok(tally.accepted > 100 && tally.rejected > 100, JSON.stringify(tally));
});

test("the hook output checkers give zod's result on outputs of every field, and their variants", () => {
  const tally: Tally = { accepted: 0, rejected: 0, deferred: 0 };
  const output = {
    continue: true,
    stopReason: 'r',
    suppressOutput: false,
    systemMessage: 'm',
    decision: 'block',
    reason: 'why',
    terminalSequence: '\u001b]0;x\u0007',
    async: false,
    asyncTimeout: 10,
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'no',
      updatedInput: { command: 'ls' },
      additionalContext: 'c',
    },
  };
  for (const value of variants(output, 3)) agree('output', hookOutputCheck, hookOutputSchema(), value, tally);
  const samples: Record<string, unknown> = {
    updatedInput: { command: 'ls', n: 1 },
    watchPaths: ['/a', '/b'],
    action: 'accept',
    content: { a: [1] },
    updatedToolOutput: { any: 'thing' },
    decision: {
      behavior: 'allow',
      updatedInput: { command: 'ls' },
      updatedPermissions: [{ type: 'addRules', rules: [] }],
    },
  };
  for (const [field, check] of Object.entries(specificFieldChecks)) {
    for (const value of [
      ...variants(samples[field] ?? 'text', 3),
      ...JUNK,
      { behavior: 'deny', message: 'm', interrupt: true },
    ])
      agree(field, check, specificFieldSchema('PreToolUse', field), value, tally);
  }
  for (const [event, check] of Object.entries(permissionDecisionChecks)) {
    for (const value of [...EVENTS[event as keyof typeof EVENTS].permissionDecisions!, 'defer', 'maybe', ...JUNK])
      agree(event, check!, specificFieldSchema(event as keyof typeof EVENTS, 'permissionDecision'), value, tally);
  }
  assert.ok(tally.accepted > 200 && tally.rejected > 200, JSON.stringify(tally));
});

test("the CLI turns on zod's jitless mode without loading zod, through the global zod reads its config from", () => {
  const script =
    "await import('./src/cli/main.ts'); const before = '__zod_globalRegistry' in globalThis; const z = await import('zod'); process.stdout.write(JSON.stringify({ before, jitless: z.config().jitless }));";
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { before: false, jitless: true });
});
