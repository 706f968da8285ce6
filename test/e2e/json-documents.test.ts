// Every JSON document peri-hooks prints, from the real command on real fixtures, validated against its
// committed schema/<name>.schema.json (ajv) with every key present in the schema's order; and the published
// schemas keep the contract's rules (every property required, schemaVersion first).
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { contractFile, contractOutline } from '../../scripts/contract-outline.ts';
import { SCHEMA_VERSION } from '../../src/errors.ts';
import { DOCUMENT_NAMES } from '../../src/report/document.ts';
import { makeProject, ROOT, runCli } from '../helpers/cli.ts';
import { assertDocument, documentValidator, publishedSchema } from '../helpers/json-schema.ts';
import { transcriptLines } from '../replay/build.ts';

const project = makeProject();
const mistakes = mkdtempSync(join(tmpdir(), 'peri-documents-'));
cpSync(join(ROOT, 'fixtures/mistakes'), mistakes, { recursive: true });
after(() => {
  project.cleanup();
  rmSync(mistakes, { recursive: true, force: true });
});

const deny = project.write(
  'hooks/deny.sh',
  '#!/bin/sh\ncat | grep -q "rm -rf" && { echo "no rm -rf" >&2; exit 2; }\nexit 0\n',
);
project.write('.claude/settings.json', {
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: deny }] },
      { matcher: 'Read', hooks: [{ type: 'mcp_tool', server: 'nowhere', tool: 'check' }] },
    ],
    SessionStart: [{ hooks: [{ type: 'command', command: 'echo started', once: true }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'echo \'{"decision":"block","reason":"keep going"}\'' }] }],
  },
});
project.write('.claude/settings.local.json', {
  disableAllHooks: false,
  hooks: { Notification: [{ hooks: [{ type: 'command', command: 'true' }] }] },
});

const cli = (args: string[], stdin?: string) =>
  runCli(args, { env: project.env(), cwd: project.dir, ...(stdin !== undefined ? { stdin } : {}) });

async function documentOf(args: string[], exitCode: number, stdin?: string): Promise<Record<string, unknown>> {
  const result = await cli(args, stdin);
  assert.equal(result.code, exitCode, `${args.join(' ')}: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

test('validate --output json: a tree full of mistakes, the project, a missing file', async () => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(mistakes, 'home') };
  const broken = await runCli(
    [
      'validate',
      '--project-dir',
      'project',
      '--managed-dir',
      'managed',
      '--plugin-dir',
      'plugins/guard',
      '--output',
      'json',
    ],
    { env, cwd: mistakes },
  );
  assert.equal(broken.code, 1, broken.stderr);
  const document = JSON.parse(broken.stdout);
  assertDocument('validate', document);
  assert.ok(document.diagnostics.some((d: { makesSourceInapplicable: boolean }) => d.makesSourceInapplicable));
  // The mcp_tool hook names a server defined nowhere: an error.
  assertDocument('validate', await documentOf(['validate', '--output', 'json'], 1));
  // A --settings file that does not exist has no line and no pointer.
  const missing = await documentOf(
    ['validate', '--setting-sources', '', '--settings', join(project.dir, 'missing.json'), '--output', 'json'],
    1,
  );
  assertDocument('validate', missing);
  assert.deepEqual(
    (missing.diagnostics as Array<{ line: null; pointer: null }>).map((d) => [d.line, d.pointer]),
    [[null, null]],
  );
});

test('list --output json', async () => {
  const document = await documentOf(['list', '--output', 'json'], 0);
  assertDocument('list', document);
  const events = document.events as Array<{
    event: string;
    hooks: Array<{ matcher: string | null; line: number | null }>;
  }>;
  assert.equal(events.find((e) => e.event === 'SessionStart')!.hooks[0]!.matcher, null);
  assert.equal(events.find((e) => e.event === 'PreToolUse')!.hooks[0]!.line, 7);
});

test('explain --output json: hooks that would run, an MCP server not found, and an event without hooks', async () => {
  const bash = await documentOf(
    ['explain', 'PreToolUse', '--tool', 'Bash', '--tool-input', '{"command":"rm -rf x"}', '--output', 'json'],
    0,
  );
  assertDocument('explain', bash);
  const read = await documentOf(['explain', 'PreToolUse', '--tool', 'Read', '--output', 'json'], 0);
  assertDocument('explain', read);
  assert.equal((read.mcpServers as Array<{ server: string; transport: null }>)[0]!.transport, null);
  const none = await documentOf(['explain', 'SessionEnd', '--output', 'json'], 0, '');
  assertDocument('explain', none);
  // SessionEnd's reason, which Claude Code always sends, is filled as 'other' where the input gives none.
  assert.equal(none.matcherValue, 'other');
  assert.deepEqual(none.mcpServers, []);
  assert.ok(none.noHooksFound !== null);
});

test('doctor --output json', async () => {
  const result = await cli(['doctor', '--output', 'json']);
  const document = JSON.parse(result.stdout);
  assert.equal(result.code, document.ok ? 0 : 1, result.stderr);
  assertDocument('doctor', document);
  assert.ok(document.checks.some((check: { fix: string | null }) => check.fix === null));
});

test('state: an unknown session, and one with a once hook and a Stop block', async () => {
  const sessionId = 'json-documents-0000-4000-8000-000000000000';
  assertDocument('state', await documentOf(['state', sessionId], 0));
  await documentOf(
    ['fire', 'SessionStart', '--output', 'json'],
    0,
    project.input('SessionStart', { session_id: sessionId }),
  );
  await documentOf(['fire', 'Stop', '--output', 'json'], 2, project.input('Stop', { session_id: sessionId }));
  const document = await documentOf(['state', sessionId], 0);
  assertDocument('state', document);
  assert.equal(Object.keys(document.once as object).length, 1);
  assert.deepEqual(document.stopBlocks, { main: 1 });
});

test('replay --output json: firings with --post, and plans with --dry-run', async () => {
  const transcript = project.write(
    'session.jsonl',
    transcriptLines(project.dir, [
      [{ id: 't1', name: 'Bash', input: { command: 'rm -rf build' }, result: { content: 'blocked', isError: true } }],
      'not json',
      [{ id: 't2', name: 'Bash', input: { command: 'ls' } }],
    ]).join('\n'),
  );
  const fired = await documentOf(['replay', transcript, '--post', '--output', 'json'], 0);
  assertDocument('replay', fired);
  const calls = fired.calls as Array<{ post: object | null; postNote: string | null }>;
  assert.equal(calls[1]!.post, null);
  assert.equal(calls[0]!.postNote, null);
  const planned = await documentOf(['replay', transcript, '--dry-run', '--output', 'json'], 0);
  assertDocument('replay', planned);
  assert.equal(planned.summary, null);
});

test('test --reporter json: passing, failing and unreadable cases', async () => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: project.home };
  const result = await runCli(
    [
      'test',
      'fixtures/policies/guard',
      'fixtures/policies/deliberately-failing.hooks.test.json',
      'missing.hooks.test.json',
      '--reporter',
      'json',
    ],
    { env, cwd: ROOT },
  );
  assert.equal(result.code, 1, result.stderr);
  const document = JSON.parse(result.stdout);
  assertDocument('test-report', document);
  const statuses = new Set(document.cases.map((entry: { status: string }) => entry.status));
  assert.ok(statuses.has('passed') && statuses.has('failed'), [...statuses].join());
});

test("fire --host cursor --output json: the host's answer and the report of each firing", async () => {
  const payload = JSON.parse(readFileSync(join(ROOT, 'fixtures/hosts/cursor/beforeShellExecution.json'), 'utf8'));
  const document = await documentOf(
    ['fire', '--host', 'cursor', 'beforeShellExecution', '--output', 'json'],
    2,
    JSON.stringify({ ...payload, cwd: project.dir, workspace_roots: [project.dir] }),
  );
  assertDocument('host-report', document);
  assert.equal((document.reports as object[]).length, 1);
  assert.match(String(document.stdout), /no rm -rf/);
});

test('the published schemas can fail: a missing key, an unknown key and a wrong type are refused', async () => {
  const document = await documentOf(['doctor', '--output', 'json'], (await cli(['doctor'])).code ?? 1);
  const check = documentValidator('doctor');
  assert.deepEqual(check(document), []);
  const { ok: _, ...withoutOk } = document;
  assert.notDeepEqual(check(withoutOk), []);
  assert.notDeepEqual(check({ ...document, extra: 1 }), []);
  assert.notDeepEqual(check({ ...document, schemaVersion: 2 }), []);
  assert.notDeepEqual(check({ ...document, checks: [{ ...(document.checks as object[])[0], status: 'maybe' }] }), []);
});

test('every published document schema: schemaVersion first, every property required, objects closed', () => {
  const walk = (schema: Record<string, unknown>, path: string): void => {
    if (schema.properties) {
      assert.deepEqual(
        schema.required ?? [],
        Object.keys(schema.properties as object),
        `${path}: required lists every property`,
      );
      assert.equal(schema.additionalProperties, false, `${path}: no key outside the schema`);
    }
    for (const inner of Object.values(schema.properties ?? {})) walk(inner as Record<string, unknown>, path);
    for (const inner of [schema.items, ...((schema.anyOf as unknown[]) ?? [])])
      if (inner) walk(inner as Record<string, unknown>, path);
    if (typeof schema.additionalProperties === 'object')
      walk(schema.additionalProperties as Record<string, unknown>, path);
  };
  for (const name of DOCUMENT_NAMES) {
    const schema = publishedSchema(name);
    assert.equal(Object.keys(schema.properties!)[0], 'schemaVersion', name);
    walk(schema as Record<string, unknown>, name);
  }
});

test(`within schemaVersion ${SCHEMA_VERSION}, the contract only grows: keys appended, enum values added, nothing removed`, () => {
  const frozen = JSON.parse(readFileSync(join(ROOT, contractFile(SCHEMA_VERSION)), 'utf8')) as Record<string, string[]>;
  const now = contractOutline();
  const bump =
    'removing, renaming or reordering a key, or removing a value, needs a schemaVersion bump (src/errors.ts), then node scripts/write-schemas.ts';
  for (const [path, before] of Object.entries(frozen)) {
    const after = now[path];
    assert.ok(after, `${path} is gone: ${bump}`);
    if (path.endsWith(' keys'))
      assert.deepEqual(after.slice(0, before.length), before, `${path}: new keys go at the end; ${bump}`);
    else
      assert.deepEqual(
        before.filter((value) => !after.includes(value)),
        [],
        `${path}: ${bump}`,
      );
  }
});

test('peri-hooks schema <name> prints each committed document schema; an unknown name suggests the closest', async () => {
  for (const name of DOCUMENT_NAMES) {
    const result = await cli(['schema', name]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, readFileSync(join(ROOT, 'schema', `${name}.schema.json`), 'utf8'), name);
  }
  const unknown = await cli(['schema', 'test-reprot']);
  assert.equal(unknown.code, 1);
  assert.match(
    unknown.stderr,
    /unknown schema "test-reprot"\n {2}fix: did you mean test-report\? known schemas: settings, input, output, report, error, test-report, /,
  );
  assert.doesNotMatch((await cli(['schema', 'zzz'])).stderr, /did you mean/);
});
