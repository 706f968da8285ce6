import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseVerdictText, validateVerdict, verdictTool } from '../../src/llm/answer.ts';
import { substituteArguments } from '../../src/llm/prompt-text.ts';

test('text answers are parsed leniently', () => {
  assert.deepEqual(parseVerdictText('{"ok":true,"reason":"r"}'), { ok: true, verdict: { ok: true, reason: 'r' } });
  assert.deepEqual(parseVerdictText('```json\n{"ok":false}\n```'), { ok: true, verdict: { ok: false } });
  assert.deepEqual(parseVerdictText('Answer: {"ok":false,"reason":"x","impossible":true} done'), {
    ok: true,
    verdict: { ok: false, reason: 'x', impossible: true },
  });
  assert.match((parseVerdictText('') as { error: string }).error, /^JSON validation failed/);
  assert.match((parseVerdictText('{"ok": tru}') as { error: string }).error, /^JSON validation failed/);
  // Valid JSON of the wrong shape is a schema error, not a parse error.
  assert.match((parseVerdictText('[1]') as { error: string }).error, /^Schema validation failed: \(root\): /);
});

test('schema: ok is required and boolean; extra keys are ignored', () => {
  assert.equal(
    (validateVerdict({ reason: 'x' }) as { error: string }).error,
    'Schema validation failed: ok: Invalid input: expected boolean, received undefined',
  );
  assert.deepEqual(validateVerdict({ ok: true, extra: 1 }), { ok: true, verdict: { ok: true } });
});

test('the verdict tool offers impossible only for stop conditions', () => {
  assert.equal((verdictTool(false).input_schema.properties as Record<string, unknown>).impossible, undefined);
  assert.ok((verdictTool(true).input_schema.properties as Record<string, unknown>).impossible);
});

test('$ARGUMENTS substitution', () => {
  assert.equal(substituteArguments('x $ARGUMENTS y', '{}'), 'x {} y');
  assert.equal(substituteArguments('\\$ARGUMENTS', '{}'), '$ARGUMENTS\n\nHook input (JSON):\n{}');
  assert.equal(substituteArguments('$HOME $ARGUMENTSX', '{"a":"$1"}'), '$HOME {"a":"$1"}X');
});
