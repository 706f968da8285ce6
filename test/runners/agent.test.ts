import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { EventName } from '../../src/events.ts';
import { MAX_TURNS, runAgentHook } from '../../src/runners/agent.ts';
import { createScope, globToRegExp, resolveAllowed, runTool } from '../../src/runners/agent-tools.ts';
import {
  API_KEY,
  apiError,
  hookContext,
  loadedHook,
  message,
  type RecordedRequest,
  type Step,
  startMessagesApi,
  text,
  toolUse,
} from '../helpers/messages-api-server.ts';

let base: string;
let project: string;
let transcript: string;

before(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'peri-agent-'));
  project = path.join(base, 'project');
  await mkdir(path.join(project, 'src'), { recursive: true });
  await mkdir(path.join(project, 'node_modules', 'dep'), { recursive: true });
  await writeFile(path.join(project, 'src', 'main.ts'), 'export const answer = 42;\n// TODO: remove\n');
  await writeFile(path.join(project, 'src', 'util.js'), 'module.exports = 1;\n');
  await writeFile(path.join(project, 'node_modules', 'dep', 'index.ts'), '// TODO: skipped\n');
  await writeFile(path.join(base, 'outside.txt'), 'TOP SECRET OUTSIDE\n');
  await symlink(path.join(base, 'outside.txt'), path.join(project, 'escape.txt'));
  await symlink(base, path.join(project, 'escape-dir'));
  await symlink(path.join(project, 'src', 'main.ts'), path.join(project, 'inner-link.ts'));
  transcript = path.join(base, 'transcript.jsonl');
  await writeFile(
    transcript,
    `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hello transcript' } })}\n`,
  );
});

after(async () => {
  await rm(base, { recursive: true, force: true });
});

const ok = (input: unknown) => message([toolUse('StructuredOutput', input)], 'tool_use');
const call = (name: string, input: unknown) => message([toolUse(name, input)], 'tool_use');
/** The tool_result blocks of the last user message the server received. */
const resultsOf = (request: RecordedRequest) =>
  request.body.messages.at(-1).content as Array<{ tool_use_id: string; content: string; is_error?: boolean }>;

async function fire(
  event: EventName,
  steps: Step[] | ((request: RecordedRequest, index: number) => Step),
  options: Parameters<typeof hookContext>[2] = {},
) {
  const api = await startMessagesApi(steps);
  try {
    const ctx = hookContext(api, event, {
      projectDir: project,
      input: { transcript_path: transcript, tool_name: 'Write' },
      ...options,
    });
    const outcome = await runAgentHook(loadedHook(event, { type: 'agent', prompt: 'Check the code: $ARGUMENTS' }), ctx);
    assert.ok(!JSON.stringify({ outcome, warnings: ctx.warnings }).includes(API_KEY));
    return { outcome, requests: api.requests };
  } finally {
    await api.close();
  }
}

describe('agent hook: the tool loop', () => {
  test('reads a project file over two turns, then answers ok', async () => {
    const { outcome, requests } = await fire('PreToolUse', [
      message([text('Let me look.'), toolUse('LS', { path: 'src' })], 'tool_use'),
      call('Read', { file_path: 'src/main.ts' }),
      ok({ ok: true, reason: 'looks fine' }),
    ]);
    assert.deepEqual(
      { ...outcome, durationMs: 0 },
      { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 0 },
    );
    assert.equal(requests.length, 3);
    const first = requests[0]!.body;
    assert.deepEqual(first.tool_choice, { type: 'any' });
    assert.deepEqual(
      first.tools.map((tool: { name: string }) => tool.name),
      ['Read', 'LS', 'Search', 'StructuredOutput'],
    );
    assert.match(first.system, /evidence/);
    assert.ok(first.system.includes(project) && first.system.includes(transcript));
    assert.match(first.messages[0].content, /^Check the code: \{"session_id"/);
    assert.deepEqual(
      resultsOf(requests[1]!).map((r) => r.content),
      ['main.ts\nutil.js'],
    );
    assert.deepEqual(
      resultsOf(requests[2]!).map((r) => r.content),
      ['1\texport const answer = 42;\n2\t// TODO: remove\n3\t'],
    );
  });

  test('ok:false blocks without ending the turn (continueOnBlock semantics)', async () => {
    const { outcome } = await fire('PostToolUse', [ok({ ok: false, reason: 'a TODO is left' })]);
    assert.deepEqual(
      [outcome.exitCode, outcome.stderr, outcome.stdout],
      [2, 'Agent hook condition was not met: a TODO is left', ''],
    );
  });

  test('ok:false on UserPromptSubmit still ends the turn', async () => {
    const { outcome } = await fire('UserPromptSubmit', [ok({ ok: false, reason: 'no' })]);
    assert.equal(outcome.exitCode, 2);
    assert.deepEqual(JSON.parse(outcome.stdout), { continue: false, stopReason: 'no' });
  });

  test('ok:false on Stop keeps going; impossible is not part of the agent answer', async () => {
    const { outcome } = await fire('Stop', [ok({ ok: false, reason: 'tests fail', impossible: true })]);
    assert.deepEqual(
      [outcome.exitCode, outcome.stderr, outcome.stdout],
      [2, 'Agent hook condition was not met: tests fail', ''],
    );
  });

  test('the transcript may be read although it lies outside the project', async () => {
    const { requests } = await fire('Stop', [call('Read', { file_path: transcript }), ok({ ok: true })]);
    assert.match(resultsOf(requests[1]!)[0]!.content, /hello transcript/);
  });

  test('a malformed StructuredOutput is returned to the model, which tries again', async () => {
    const { outcome, requests } = await fire('PreToolUse', [ok({ ok: 'maybe' }), ok({ ok: true })]);
    assert.equal(outcome.exitCode, 0);
    const [result] = resultsOf(requests[1]!);
    assert.equal(result!.is_error, true);
    assert.match(result!.content, /^Schema validation failed: ok:/);
  });

  test('a key the model quotes from a project file is scrubbed from the outcome', async () => {
    const { outcome } = await fire('PreToolUse', [ok({ ok: false, reason: `found ${API_KEY} in .env` })]);
    assert.equal(outcome.stderr, 'Agent hook condition was not met: found [redacted] in .env');
  });

  test('ending without StructuredOutput: cancelled, no decision', async () => {
    const { outcome } = await fire('PreToolUse', [message([text('All good!')])]);
    assert.deepEqual([outcome.exitCode, outcome.timedOut], [null, true]);
    assert.match(outcome.error!, /stopped \(end_turn\) without calling StructuredOutput/);
  });

  test(`${MAX_TURNS} turns without an answer: cancelled`, async () => {
    const { outcome, requests } = await fire('PreToolUse', () => call('LS', {}));
    assert.equal(requests.length, MAX_TURNS);
    assert.deepEqual([outcome.exitCode, outcome.timedOut], [null, true]);
    assert.match(outcome.error!, /all 50 turns/);
  });

  test('an API error in a later turn is a non-blocking error', async () => {
    const { outcome } = await fire('PreToolUse', [
      call('LS', {}),
      apiError(400, 'invalid_request_error', 'prompt is too long'),
    ]);
    assert.deepEqual([outcome.exitCode, outcome.timedOut], [null, false]);
    assert.equal(outcome.error, 'Hook evaluator API error: 400 invalid_request_error: prompt is too long');
  });

  test('a server that never answers: timed out', async () => {
    const { outcome } = await fire('PreToolUse', [call('LS', {}), 'hang'], { timeoutMs: 300 });
    assert.deepEqual([outcome.exitCode, outcome.timedOut, outcome.error], [null, true, undefined]);
  });

  test('agent hooks are refused on PermissionRequest', async () => {
    const { outcome, requests } = await fire('PermissionRequest', []);
    assert.match(outcome.error!, /agent hooks are not supported for PermissionRequest/);
    assert.equal(requests.length, 0);
  });
});

describe('agent hook: confinement of the read-only tools', () => {
  test('/etc/passwd, ../ and symlink escapes are refused, and their content never reaches the model', async () => {
    const attempts = [
      { file_path: '/etc/passwd' },
      { file_path: '../outside.txt' },
      { file_path: 'escape.txt' },
      { file_path: 'escape-dir/outside.txt' },
      { file_path: path.join(base, 'outside.txt') },
    ];
    const { requests } = await fire('PreToolUse', [
      message(
        attempts.map((input) => toolUse('Read', input)),
        'tool_use',
      ),
      ok({ ok: true }),
    ]);
    const results = resultsOf(requests[1]!);
    assert.equal(results.length, attempts.length);
    for (const result of results) {
      assert.equal(result.is_error, true);
      assert.match(result.content, /^refused: .* is outside the project directory/);
    }
    assert.ok(!JSON.stringify(requests.map((r) => r.body)).includes('TOP SECRET'));
  });

  test('LS and Search refuse outside directories too', async () => {
    const scope = await createScope(project, transcript);
    const signal = new AbortController().signal;
    for (const [name, input] of [
      ['LS', { path: '..' }],
      ['LS', { path: 'escape-dir' }],
      ['Search', { path: '/etc', regex: 'root' }],
    ] as const) {
      const result = await runTool(scope, name, input, signal);
      assert.equal(result.isError, true, `${name} ${JSON.stringify(input)}`);
      assert.match(result.content, /^refused/);
    }
  });

  test('a symlink that stays inside is followed', async () => {
    const scope = await createScope(project, undefined);
    assert.deepEqual(await resolveAllowed(scope, 'inner-link.ts'), { path: path.join(project, 'src', 'main.ts') });
    const result = await runTool(
      scope,
      'Read',
      { file_path: 'inner-link.ts', offset: 2, limit: 1 },
      new AbortController().signal,
    );
    assert.equal(result.content, '2\t// TODO: remove\n[1 more lines; use offset]');
  });

  test('Search with a glob and a regex; node_modules skipped; escaping symlinks not followed', async () => {
    const scope = await createScope(project, transcript);
    const signal = new AbortController().signal;
    const grep = await runTool(scope, 'Search', { glob: '*.ts', regex: 'TODO' }, signal);
    assert.deepEqual(grep, {
      content: 'inner-link.ts:2: // TODO: remove\nsrc/main.ts:2: // TODO: remove',
      isError: false,
    });
    const files = await runTool(scope, 'Search', { glob: 'src/**/*.{ts,js}' }, signal);
    assert.equal(files.content, 'src/main.ts\nsrc/util.js');
    const secret = await runTool(scope, 'Search', { regex: 'TOP SECRET' }, signal);
    assert.equal(secret.content, 'no matches');
    const bad = await runTool(scope, 'Search', { regex: '(' }, signal);
    assert.equal(bad.isError, true);
  });

  test('globs', () => {
    assert.ok(globToRegExp('**/*.ts').test('a/b/c.ts'));
    assert.ok(globToRegExp('**/*.ts').test('c.ts'));
    assert.ok(!globToRegExp('*.ts').test('a/c.ts'));
    assert.ok(globToRegExp('src/?.[jt]s').test('src/a.ts'));
    assert.ok(!globToRegExp('[!a].md').test('a.md'));
    assert.ok(globToRegExp('a.b+c').test('a.b+c'));
  });
});
