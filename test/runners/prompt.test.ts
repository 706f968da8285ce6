import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PromptHook } from '../../src/config/schema.ts';
import type { EventName } from '../../src/events.ts';
import { DEFAULT_MODEL } from '../../src/llm/config.ts';
import { runPromptHook } from '../../src/runners/prompt.ts';
import {
  API_KEY,
  apiError,
  hookContext,
  loadedHook,
  message,
  type Step,
  startMessagesApi,
  text,
  verdict,
} from '../helpers/messages-api-server.ts';

const PROMPT = 'Refuse anything that deletes files. Input: $ARGUMENTS';

async function fire(
  event: EventName,
  steps: Step[],
  options: Parameters<typeof hookContext>[2] = {},
  hook: Partial<PromptHook> = {},
) {
  const api = await startMessagesApi(steps);
  try {
    const ctx = hookContext(api, event, {
      input: { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } },
      ...options,
    });
    const outcome = await runPromptHook(loadedHook(event, { type: 'prompt', prompt: PROMPT, ...hook }), ctx);
    assert.ok(
      !JSON.stringify({ outcome, warnings: ctx.warnings }).includes(API_KEY),
      'the key leaked into the outcome',
    );
    return { outcome, requests: api.requests, ctx };
  } finally {
    await api.close();
  }
}

describe('prompt hook: verdicts per event family', () => {
  test('ok:true on PreToolUse is a silent success; the request is well formed', async () => {
    const { outcome, requests } = await fire('PreToolUse', [verdict({ ok: true, reason: 'fine' })]);
    assert.deepEqual(
      { ...outcome, durationMs: 0 },
      { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 0 },
    );
    assert.equal(requests.length, 1);
    const [request] = requests;
    assert.equal(request!.headers['x-api-key'], API_KEY);
    assert.equal(request!.headers['anthropic-version'], '2023-06-01');
    assert.equal(request!.body.model, DEFAULT_MODEL);
    assert.deepEqual(request!.body.tool_choice, { type: 'tool', name: 'verdict' });
    assert.deepEqual(request!.body.tools[0].input_schema.required, ['ok', 'reason']);
    assert.equal(request!.body.tools[0].input_schema.properties.impossible, undefined);
    assert.match(request!.body.system, /evidence/);
    assert.match(request!.body.system, /PreToolUse/);
    assert.equal(
      request!.body.messages[0].content,
      `Refuse anything that deletes files. Input: ${hookContext({ url: '' }, 'PreToolUse', { input: { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } } }).inputJson}`,
    );
  });

  test('ok:false on PreToolUse blocks and ends the turn', async () => {
    const { outcome } = await fire('PreToolUse', [verdict({ ok: false, reason: 'deletes files' })]);
    assert.equal(outcome.exitCode, 2);
    assert.equal(outcome.stderr, `[${PROMPT}]: deletes files`);
    assert.deepEqual(JSON.parse(outcome.stdout), { continue: false, stopReason: 'deletes files' });
  });

  test('continueOnBlock keeps the turn going', async () => {
    const { outcome } = await fire(
      'PostToolUse',
      [verdict({ ok: false, reason: 'no' })],
      {},
      { continueOnBlock: true },
    );
    assert.equal(outcome.exitCode, 2);
    assert.equal(outcome.stdout, '');
  });

  for (const event of ['UserPromptSubmit', 'PostToolBatch', 'UserPromptExpansion'] as const) {
    test(`${event} always ends the turn, even with continueOnBlock`, async () => {
      const { outcome } = await fire(event, [verdict({ ok: false, reason: 'no' })], {}, { continueOnBlock: true });
      assert.equal(outcome.exitCode, 2);
      assert.equal(JSON.parse(outcome.stdout).continue, false);
    });
  }

  for (const event of ['PostToolUseFailure', 'TaskCreated'] as const) {
    test(`${event} never adds continue:false`, async () => {
      const { outcome } = await fire(event, [verdict({ ok: false, reason: 'no' })]);
      assert.equal(outcome.exitCode, 2);
      assert.equal(outcome.stdout, '');
    });
  }

  for (const event of ['PermissionRequest', 'PermissionDenied'] as const) {
    test(`ok:false on ${event} has no effect`, async () => {
      const { outcome } = await fire(event, [verdict({ ok: false, reason: 'no' })]);
      assert.equal(outcome.exitCode, 0);
      assert.equal(outcome.stderr, '');
    });
  }

  test('an event without prompt support is an error, and nothing is sent', async () => {
    const { outcome, requests } = await fire('SessionStart', []);
    assert.equal(outcome.exitCode, null);
    assert.match(outcome.error!, /not supported for SessionStart/);
    assert.equal(requests.length, 0);
  });
});

describe('prompt hook: Stop and SubagentStop', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'peri-prompt-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const line = (type: string, content: unknown) =>
    JSON.stringify({ type, uuid: 'u', message: { role: type, content } });

  test('ok:false keeps going with the reason; the transcript and the stop system prompt are sent', async () => {
    const transcript = path.join(dir, 'short.jsonl');
    await writeFile(
      transcript,
      [
        line('user', 'please add tests'),
        line('assistant', [
          { type: 'text', text: 'I wrote the code.' },
          { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } },
        ]),
        JSON.stringify({ type: 'summary', summary: 'ignored' }),
        'not json',
      ].join('\n'),
    );
    const { outcome, requests } = await fire(
      'Stop',
      [verdict({ ok: false, reason: 'tests are missing' })],
      { input: { transcript_path: transcript, stop_hook_active: false } },
      { prompt: 'Tests were added' },
    );
    assert.deepEqual([outcome.exitCode, outcome.stderr, outcome.stdout], [2, 'tests are missing', '']);
    const body = requests[0]!.body;
    assert.match(body.system, /stop condition/);
    assert.ok(body.tools[0].input_schema.properties.impossible);
    const content: string = body.messages[0].content;
    assert.match(content, /^Has the following stopping condition been satisfied\?\n\nCondition: Tests were added/);
    assert.match(content, /user: please add tests/);
    assert.match(content, /assistant: I wrote the code\.\n\[tool call Bash\] \{"command":"npm test"\}/);
    assert.doesNotMatch(content, /ignored|truncated|cut to fit/);
  });

  test('impossible:true allows the stop', async () => {
    const { outcome } = await fire('SubagentStop', [verdict({ ok: false, reason: 'cannot', impossible: true })]);
    assert.deepEqual([outcome.exitCode, outcome.stderr], [0, '']);
  });

  test('a long transcript is cut from the front, with a note', async () => {
    const transcript = path.join(dir, 'long.jsonl');
    const lines = Array.from({ length: 3000 }, (_, i) =>
      line(i % 2 ? 'assistant' : 'user', `message number ${i} ${'x'.repeat(500)}`),
    );
    await writeFile(transcript, lines.join('\n'));
    const { requests } = await fire('Stop', [verdict({ ok: true, reason: 'done' })], {
      input: { transcript_path: transcript },
    });
    const content: string = requests[0]!.body.messages[0].content;
    assert.match(content, /beginning of the transcript was cut/);
    assert.match(content, /message number 2999 /);
    assert.doesNotMatch(content, /message number 0 /);
    assert.ok(content.length < 450_000);
  });

  test('a missing transcript is a note, not a failure', async () => {
    const { outcome, requests } = await fire('Stop', [verdict({ ok: true, reason: 'done' })], {
      input: { transcript_path: path.join(dir, 'nope.jsonl') },
    });
    assert.equal(outcome.exitCode, 0);
    assert.match(
      requests[0]!.body.messages[0].content,
      /No transcript is available: .*nope\.jsonl could not be read: ENOENT/,
    );
  });
});

describe('prompt hook: prompt text and model', () => {
  test('\\$ escapes a literal $, and the input is appended when $ARGUMENTS is absent', async () => {
    const { requests } = await fire(
      'PreToolUse',
      [verdict({ ok: true, reason: '' })],
      {},
      { prompt: 'Costs over \\$5 or \\$ARGUMENTS are refused' },
    );
    const content: string = requests[0]!.body.messages[0].content;
    assert.match(content, /^Costs over \$5 or \$ARGUMENTS are refused\n\nHook input \(JSON\):\n\{"session_id"/);
  });

  test('every $ARGUMENTS is replaced', async () => {
    const { requests, ctx } = await fire(
      'PreToolUse',
      [verdict({ ok: true, reason: '' })],
      {},
      { prompt: 'A $ARGUMENTS B $ARGUMENTS' },
    );
    assert.equal(requests[0]!.body.messages[0].content, `A ${ctx.inputJson} B ${ctx.inputJson}`);
  });

  test('the hook model wins over PERI_HOOKS_MODEL, which wins over the default; AUTH_TOKEN is a bearer token', async () => {
    const env = { PERI_HOOKS_MODEL: 'env-model', ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: 'tok-123456789' };
    const fromEnv = await fire('PreToolUse', [verdict({ ok: true, reason: '' })], { env });
    assert.equal(fromEnv.requests[0]!.body.model, 'env-model');
    assert.equal(fromEnv.requests[0]!.headers.authorization, 'Bearer tok-123456789');
    assert.equal(fromEnv.requests[0]!.headers['x-api-key'], undefined);
    const fromHook = await fire('PreToolUse', [verdict({ ok: true, reason: '' })], { env }, { model: 'hook-model' });
    assert.equal(fromHook.requests[0]!.body.model, 'hook-model');
  });
});

describe('prompt hook: answers that cannot be used', () => {
  test('a JSON text answer (a gateway ignoring tool_choice) is parsed leniently', async () => {
    const { outcome } = await fire('PreToolUse', [
      message([text('Sure.\n```json\n{"ok": false, "reason": "risky"}\n```')]),
    ]);
    assert.equal(outcome.exitCode, 2);
    assert.match(outcome.stderr, /risky$/);
  });

  test('prose is a JSON validation error', async () => {
    const { outcome } = await fire('PreToolUse', [message([text('I think it is fine')])]);
    assert.equal(outcome.exitCode, null);
    assert.equal(outcome.timedOut, false);
    assert.match(outcome.error!, /^JSON validation failed/);
  });

  test('a wrong shape is a schema validation error', async () => {
    const { outcome } = await fire('PreToolUse', [verdict({ ok: 'yes', reason: 1 })]);
    assert.equal(outcome.exitCode, null);
    assert.match(outcome.error!, /^Schema validation failed: ok: .*boolean.*; reason: /);
  });
});

describe('prompt hook: API errors, retries, timeouts', () => {
  test('429 then success: retried after retry-after', async () => {
    const { outcome, requests } = await fire('PreToolUse', [
      apiError(429, 'rate_limit_error', 'slow down', { 'retry-after': '0' }),
      verdict({ ok: true, reason: '' }),
    ]);
    assert.equal(outcome.exitCode, 0);
    assert.equal(requests.length, 2);
  });

  test('529 overloaded then success', async () => {
    const { outcome, requests } = await fire('PreToolUse', [
      apiError(529, 'overloaded_error', 'Overloaded', { 'retry-after': '0' }),
      verdict({ ok: true, reason: '' }),
    ]);
    assert.equal(outcome.exitCode, 0);
    assert.equal(requests.length, 2);
  });

  test('an API that stays overloaded is an API error after the retries', async () => {
    const { outcome, requests } = await fire(
      'PreToolUse',
      Array(10).fill(apiError(529, 'overloaded_error', 'Overloaded', { 'retry-after': '0' })),
    );
    assert.equal(requests.length, 5);
    assert.equal(outcome.exitCode, null);
    assert.equal(outcome.error, 'Hook evaluator API error: 529 overloaded_error: Overloaded');
  });

  test('a retry-after beyond the timeout is not waited for', async () => {
    const { outcome, requests } = await fire(
      'PreToolUse',
      [apiError(429, 'rate_limit_error', 'slow down', { 'retry-after': '60' })],
      { timeoutMs: 5000 },
    );
    assert.equal(requests.length, 1);
    assert.match(outcome.error!, /429 rate_limit_error: slow down \(not retried/);
  });

  test('400 is not retried', async () => {
    const { outcome, requests } = await fire('PreToolUse', [
      apiError(400, 'invalid_request_error', 'bad'),
      verdict({ ok: true, reason: '' }),
    ]);
    assert.equal(requests.length, 1);
    assert.equal(outcome.error, 'Hook evaluator API error: 400 invalid_request_error: bad');
  });

  test('401 names ANTHROPIC_API_KEY and never prints the key, even when the server echoes it', async () => {
    const { outcome, requests } = await fire('PreToolUse', [
      apiError(401, 'authentication_error', `invalid x-api-key ${API_KEY}`),
    ]);
    assert.equal(requests.length, 1);
    assert.equal(outcome.exitCode, null);
    assert.match(
      outcome.error!,
      /^Hook evaluator API error: 401 authentication_error: invalid x-api-key \[redacted\]; check ANTHROPIC_API_KEY$/,
    );
  });

  test('403 and 404 name what to fix', async () => {
    const forbidden = await fire('PreToolUse', [apiError(403, 'permission_error', 'no access')]);
    assert.match(forbidden.outcome.error!, /ANTHROPIC_API_KEY may not use model "claude-haiku-4-5"/);
    const missing = await fire('PreToolUse', [apiError(404, 'not_found_error', 'model: nope')], {
      env: { PERI_HOOKS_MODEL: 'nope' },
    });
    assert.match(missing.outcome.error!, /check the model "nope" \(from PERI_HOOKS_MODEL\) and ANTHROPIC_BASE_URL/);
  });

  test('no credentials for the public API: a clear error, nothing sent', async () => {
    const { outcome } = await fire('PreToolUse', [], {
      env: { ANTHROPIC_BASE_URL: undefined, ANTHROPIC_API_KEY: undefined },
    });
    assert.match(outcome.error!, /set ANTHROPIC_API_KEY \(or ANTHROPIC_AUTH_TOKEN/);
  });

  test('an unreachable base URL names ANTHROPIC_BASE_URL', async () => {
    const api = await startMessagesApi([]);
    await api.close();
    const ctx = hookContext(api, 'PreToolUse');
    const outcome = await runPromptHook(loadedHook('PreToolUse', { type: 'prompt', prompt: 'x' }), ctx);
    assert.match(outcome.error!, /cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED.*ANTHROPIC_BASE_URL/);
  });

  test('a server that never answers: timed out, no decision', async () => {
    const { outcome, requests } = await fire('PreToolUse', ['hang'], { timeoutMs: 200 });
    assert.equal(requests.length, 1);
    assert.deepEqual([outcome.exitCode, outcome.timedOut, outcome.error], [null, true, undefined]);
  });

  test('an interruption cancels the request', async () => {
    const controller = new AbortController();
    const api = await startMessagesApi([
      () => {
        controller.abort();
        return 'hang';
      },
    ]);
    try {
      const ctx = hookContext(api, 'PreToolUse', { signal: controller.signal });
      const outcome = await runPromptHook(loadedHook('PreToolUse', { type: 'prompt', prompt: 'x' }), ctx);
      assert.deepEqual([outcome.exitCode, outcome.timedOut, outcome.error], [null, true, 'interrupted']);
    } finally {
      await api.close();
    }
  });
});
