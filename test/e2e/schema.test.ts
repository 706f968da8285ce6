// The committed schema/ files: in step with the zod schemas, printed by `peri-hooks schema`, and right about
// real payloads. The emitted JSON Schema is checked with zod's own reader (z.fromJSONSchema), not by eye.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as z from 'zod';
import { outputJsonSchema, schemaFiles, serialise } from '../../src/cli/schema-export.ts';
import { EVENT_NAMES, type EventName, isEventName } from '../../src/events.ts';
import { inputSchema } from '../../src/input/parse.ts';
import { loadOutputSchemas, parseStdout } from '../../src/outcome.ts';
import { ROOT, runCli } from '../helpers/cli.ts';

// classify words a bad hook output with zod's schemas, which a caller loads first (the fire path on demand).
await loadOutputSchemas();

const SCHEMA = join(ROOT, 'schema');
const INPUTS = join(ROOT, 'fixtures/claude-code-2.1.332/inputs');
const committed = (name: string) => JSON.parse(readFileSync(join(SCHEMA, name), 'utf8'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

test('schema/ is up to date (regenerate with: node scripts/write-schemas.ts)', () => {
  const files = schemaFiles();
  const onDisk = readdirSync(SCHEMA, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(SCHEMA.length + 1))
    .sort();
  assert.deepEqual(onDisk, Object.keys(files).sort(), 'schema/ holds exactly the generated files');
  for (const [name, schema] of Object.entries(files)) {
    assert.equal(
      readFileSync(join(SCHEMA, name), 'utf8'),
      serialise(schema),
      `schema/${name} is stale: run node scripts/write-schemas.ts`,
    );
  }
});

test('peri-hooks schema prints the committed files', async () => {
  const cases: Array<[string[], string]> = [
    [[], 'settings.schema.json'],
    [['output'], 'output.schema.json'],
    [['input', '--event', 'Stop'], 'input/Stop.schema.json'],
    [['input'], 'input.schema.json'],
  ];
  for (const [args, file] of cases) {
    const result = await runCli(['schema', ...args], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, readFileSync(join(SCHEMA, file), 'utf8'), args.join(' '));
  }
  const perEvent = await runCli(['schema', 'output', '--event', 'PermissionRequest'], { env });
  assert.deepEqual(Object.keys(JSON.parse(perEvent.stdout).properties.hookSpecificOutput.properties), [
    'hookEventName',
    'decision',
  ]);
  for (const [args, message] of [
    [['inputs'], /unknown schema "inputs"/],
    [['settings', '--event', 'Stop'], /--event applies to the input and output schemas/],
  ] as const) {
    const result = await runCli(['schema', ...args], { env });
    assert.equal(result.code, 1);
    assert.match(result.stderr, message);
  }
});

test('every real Claude Code 2.1.332 input validates, with zod and with the emitted JSON Schema; broken ones do not', () => {
  const names = readdirSync(INPUTS).filter((name) => name.endsWith('.json'));
  assert.ok(names.length >= 90);
  for (const name of names) {
    const event = name.split('.')[0]!;
    assert.ok(isEventName(event), name);
    const payload = JSON.parse(readFileSync(join(INPUTS, name), 'utf8'));
    const fromJson = z.fromJSONSchema(committed(`input/${event}.schema.json`));
    assert.ok(inputSchema(event).safeParse(payload).success, `zod: ${name}`);
    assert.ok(fromJson.safeParse(payload).success, `JSON Schema: ${name}`);
    const { session_id: _, ...withoutSession } = payload;
    for (const broken of [
      withoutSession,
      { ...payload, cwd: 42 },
      { ...payload, hook_event_name: event === 'Stop' ? 'SubagentStop' : 'Stop' },
    ]) {
      assert.ok(!fromJson.safeParse(broken).success, `JSON Schema rejects a broken ${name}`);
    }
  }
  const tool = z.fromJSONSchema(committed('input/PreToolUse.schema.json'));
  const payload = JSON.parse(readFileSync(join(INPUTS, 'PreToolUse.tool_name-Bash.json'), 'utf8'));
  assert.ok(!tool.safeParse({ ...payload, tool_input: 'ls' }).success);
  assert.ok(!inputSchema('PreToolUse').safeParse({ ...payload, tool_input: 'ls' }).success);
});

test('the settings schema takes what users write and flags what validate flags', () => {
  const settings = z.fromJSONSchema(committed('settings.schema.json'));
  const accepts = (value: unknown) => settings.safeParse(value).success;
  assert.ok(accepts(JSON.parse(readFileSync(join(ROOT, 'fixtures/example/settings.json'), 'utf8'))));
  assert.ok(
    accepts({
      $schema: './schema/settings.schema.json',
      model: 'opus',
      permissions: { allow: ['Bash(ls)'] },
      hooks: {},
    }),
  );
  assert.ok(
    accepts({
      hooks: Object.fromEntries(
        EVENT_NAMES.map((event) => [event, [{ hooks: [{ type: 'command', command: 'true', timeout: 1.5 }] }]]),
      ),
    }),
  );
  assert.ok(
    accepts({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'http', url: 'https://example.com/h' },
              { type: 'agent', prompt: 'ok?' },
            ],
          },
        ],
      },
    }),
  );
  assert.ok(!accepts({ hooks: { preToolUse: [] } }), 'mis-cased event');
  assert.ok(!accepts({ hooks: { Stop: [{ type: 'command', command: 'true' }] } }), 'flat entry without hooks');
  assert.ok(
    !accepts({ hooks: { SessionStart: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }] } }),
    'prompt on SessionStart',
  );
  assert.ok(!accepts({ hooks: { Stop: [{ hooks: [{ type: 'comand', command: 'x' }] }] } }), 'unknown type');
  assert.ok(
    !accepts({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: -1 }] }] } }),
    'negative timeout',
  );
  assert.ok(!accepts({ disableAllHooks: 'yes' }));
});

test('the output schema takes hook answers and rejects a wrong decision', () => {
  const output = z.fromJSONSchema(committed('output.schema.json'));
  assert.ok(
    output.safeParse({
      decision: 'block',
      reason: 'no',
      hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'x' },
    }).success,
  );
  assert.ok(!output.safeParse({ decision: 'deny' }).success);
});

test('input.schema.json: one schema for every event, told apart by hook_event_name; every real input validates', () => {
  const schema = committed('input.schema.json');
  assert.equal(schema.oneOf.length, EVENT_NAMES.length);
  assert.deepEqual(schema.discriminator, { propertyName: 'hook_event_name' });
  assert.deepEqual(
    schema.oneOf.map(
      (branch: { properties: { hook_event_name: { const: string } } }) => branch.properties.hook_event_name.const,
    ),
    [...EVENT_NAMES],
  );
  const union = z.fromJSONSchema(schema);
  const names = readdirSync(INPUTS).filter((name) => name.endsWith('.json'));
  assert.equal(names.length, 95);
  for (const name of names) {
    const payload = JSON.parse(readFileSync(join(INPUTS, name), 'utf8'));
    assert.ok(union.safeParse(payload).success, name);
    assert.ok(!union.safeParse({ ...payload, hook_event_name: 'NoSuchEvent' }).success, `unknown event: ${name}`);
  }
  // The branch is the one the name picks: a Stop input named PreToolUse lacks tool_name.
  const stop = JSON.parse(readFileSync(join(INPUTS, names.find((name) => name.startsWith('Stop.'))!), 'utf8'));
  assert.ok(!union.safeParse({ ...stop, hook_event_name: 'PreToolUse' }).success);
});

// Each enum-like hookSpecificOutput field (spec §6.4, §19): the values Claude Code takes pass, others are refused,
// in the per-event schema and in the all-events one, exactly as hook output parsing (parseStdout) judges them.
const ENUM_FIELDS: Array<[event: EventName, field: string, good: unknown[], bad: unknown[]]> = [
  ['PreToolUse', 'permissionDecision', ['allow', 'deny', 'ask', 'defer'], ['maybe', 'Allow', '', true]],
  ['PreSkillShellCommand', 'permissionDecision', ['allow', 'deny', 'ask', 'defer'], ['maybe']],
  ['PreModelSwitch', 'permissionDecision', ['allow', 'deny', 'ask'], ['defer', 'maybe']],
  [
    'PermissionRequest',
    'decision',
    [{ behavior: 'allow' }, { behavior: 'deny', message: 'no', interrupt: true }],
    [{ behavior: 'ask' }, 'allow', { behavior: 'deny', interrupt: 'yes' }],
  ],
  ['Elicitation', 'action', ['accept', 'decline', 'cancel'], ['reject']],
  ['ElicitationResult', 'action', ['accept', 'decline', 'cancel'], ['ok']],
  ['PermissionDenied', 'retry', [true, false], ['yes']],
  ['UserPromptSubmit', 'suppressOriginalPrompt', [true], ['true']],
  ['SessionStart', 'reloadSkills', [false], [0]],
];

test('the output schemas refuse what Claude Code refuses in every enum-like field, as fire does', () => {
  const all = z.fromJSONSchema(committed('output.schema.json'));
  for (const [event, field, good, bad] of ENUM_FIELDS) {
    const one = z.fromJSONSchema(JSON.parse(serialise(outputJsonSchema(event))));
    for (const value of [...good, ...bad]) {
      const output = { hookSpecificOutput: { hookEventName: event, [field]: value } };
      const fire = parseStdout(event, JSON.stringify(output)).kind === 'json';
      assert.equal(fire, good.includes(value), `fire: ${event}.${field} = ${JSON.stringify(value)}`);
      assert.equal(one.safeParse(output).success, fire, `${event} schema: ${field} = ${JSON.stringify(value)}`);
      assert.equal(
        all.safeParse(output).success,
        fire,
        `output.schema.json: ${event}.${field} = ${JSON.stringify(value)}`,
      );
    }
  }
  assert.ok(
    !all.safeParse({ hookSpecificOutput: { hookEventName: 'PreToolUse ', permissionDecision: 'allow' } }).success,
    'an unknown event name',
  );

  // updatedPermissions entries (§6.6): parsing leaves them to Claude Code; the published schema checks them.
  const permission = z.fromJSONSchema(committed('output.schema.json'));
  const allow = (update: unknown) => ({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedPermissions: [update] },
    },
  });
  for (const update of [
    {
      type: 'addRules',
      rules: [{ toolName: 'Bash', ruleContent: 'git status' }],
      behavior: 'allow',
      destination: 'session',
    },
    { type: 'setMode', mode: 'acceptEdits', destination: 'localSettings' },
    { type: 'removeDirectories', directories: ['/tmp/x'], destination: 'userSettings' },
  ])
    assert.ok(permission.safeParse(allow(update)).success, JSON.stringify(update));
  for (const update of [
    { type: 'addRule', rules: [], behavior: 'allow', destination: 'session' },
    { type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'maybe', destination: 'session' },
    { type: 'setMode', mode: 'yolo', destination: 'session' },
    { type: 'addDirectories', directories: ['/x'], destination: 'everywhere' },
  ]) {
    assert.ok(!permission.safeParse(allow(update)).success, JSON.stringify(update));
    assert.equal(
      parseStdout('PermissionRequest', JSON.stringify(allow(update))).kind,
      'json',
      'hook output parsing is unchanged',
    );
  }
  assert.ok(!all.safeParse({ decision: 'approve', continue: 'no' }).success);
});
