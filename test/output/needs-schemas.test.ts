// Before zod's output schemas load, an output the generated checks cannot judge says so as a value: the async
// classifier loads the schemas and judges it, the synchronous one refuses to guess. Its own process (node --test
// runs each file apart), so that nothing has loaded the schemas yet.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classify, classifyOutcome, parseStdout } from '../../src/outcome.ts';
import type { RawOutcome } from '../../src/types.ts';

const raw: RawOutcome = { exitCode: 0, stdout: '{"continue": "yes"}', stderr: '', timedOut: false, durationMs: 1 };
const options = { event: 'PreToolUse', handler: { type: 'command', command: 'hook.sh' }, label: 'hook.sh' } as const;

test('an output only zod can judge, before and after its schemas load', async () => {
  assert.deepEqual(parseStdout('PreToolUse', raw.stdout), { kind: 'needsSchemas' });
  assert.deepEqual(parseStdout('PreToolUse', '{"continue": false}').kind, 'json');
  assert.throws(() => classify(raw, options), /call loadOutputSchemas\(\) first/);
  const result = await classifyOutcome(raw, options);
  assert.equal(result.outcome, 'non_blocking_error');
  assert.match(result.error ?? '', /^hook JSON output failed validation: continue: /);
  assert.deepEqual(classify(raw, options), result);
  assert.equal(parseStdout('PreToolUse', raw.stdout).kind, 'invalid');
});
