// The committed schema/ files: in step with the zod schemas, printed by `peri-hooks schema`, and right about
// real payloads. The emitted JSON Schema is checked with zod's own reader (z.fromJSONSchema), not by eye.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { EVENT_NAMES, isEventName } from '../../src/events.ts';
import { inputSchema } from '../../src/input.ts';
import { schemaFiles, serialise } from '../../src/schema-export.ts';
import { ROOT, runCli } from '../helpers/cli.ts';

const SCHEMA = join(ROOT, 'schema');
const INPUTS = join(ROOT, 'fixtures/claude-code-2.1.332/inputs');
const committed = (name: string) => JSON.parse(readFileSync(join(SCHEMA, name), 'utf8'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

test('schema/ is up to date (regenerate with: node scripts/write-schemas.ts)', () => {
  const files = schemaFiles();
  const onDisk = readdirSync(SCHEMA, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(SCHEMA.length + 1)).sort();
  assert.deepEqual(onDisk, Object.keys(files).sort(), 'schema/ holds exactly the generated files');
  for (const [name, schema] of Object.entries(files)) {
    assert.equal(readFileSync(join(SCHEMA, name), 'utf8'), serialise(schema), `schema/${name} is stale: run node scripts/write-schemas.ts`);
  }
});

test('peri-hooks schema prints the committed files', async () => {
  const cases: Array<[string[], string]> = [[[], 'settings.schema.json'], [['output'], 'output.schema.json'], [['input', '--event', 'Stop'], 'input/Stop.schema.json']];
  for (const [args, file] of cases) {
    const result = await runCli(['schema', ...args], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, readFileSync(join(SCHEMA, file), 'utf8'), args.join(' '));
  }
  const perEvent = await runCli(['schema', 'output', '--event', 'PermissionRequest'], { env });
  assert.deepEqual(Object.keys(JSON.parse(perEvent.stdout).properties.hookSpecificOutput.properties), ['hookEventName', 'decision']);
  for (const [args, message] of [[['input'], /the input schema is per event/], [['inputs'], /unknown schema "inputs"/], [['settings', '--event', 'Stop'], /--event applies to the input and output schemas/]] as const) {
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
    for (const broken of [withoutSession, { ...payload, cwd: 42 }, { ...payload, hook_event_name: event === 'Stop' ? 'SubagentStop' : 'Stop' }]) {
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
  assert.ok(accepts({ $schema: './schema/settings.schema.json', model: 'opus', permissions: { allow: ['Bash(ls)'] }, hooks: {} }));
  assert.ok(accepts({ hooks: Object.fromEntries(EVENT_NAMES.map((event) => [event, [{ hooks: [{ type: 'command', command: 'true', timeout: 1.5 }] }]])) }));
  assert.ok(accepts({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: 'https://example.com/h' }, { type: 'agent', prompt: 'ok?' }] }] } }));
  assert.ok(!accepts({ hooks: { preToolUse: [] } }), 'mis-cased event');
  assert.ok(!accepts({ hooks: { Stop: [{ type: 'command', command: 'true' }] } }), 'flat entry without hooks');
  assert.ok(!accepts({ hooks: { SessionStart: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }] } }), 'prompt on SessionStart');
  assert.ok(!accepts({ hooks: { Stop: [{ hooks: [{ type: 'comand', command: 'x' }] }] } }), 'unknown type');
  assert.ok(!accepts({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: -1 }] }] } }), 'negative timeout');
  assert.ok(!accepts({ disableAllHooks: 'yes' }));
});

test('the output schema takes hook answers and rejects a wrong decision', () => {
  const output = z.fromJSONSchema(committed('output.schema.json'));
  assert.ok(output.safeParse({ decision: 'block', reason: 'no', hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'x' } }).success);
  assert.ok(!output.safeParse({ decision: 'deny' }).success);
});
