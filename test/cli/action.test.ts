// The one action wrapper: what a command throws becomes one message on stderr and an exit code from the EXIT table.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { runAction } from '../../src/cli/action.ts';
import { EXIT, errorDocument, PeriHooksError } from '../../src/errors.ts';

/** Runs `action` through the wrapper and returns the exit code with what it wrote to stderr. */
async function wrapped(action: () => Promise<number>, failClosed: boolean): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const write = mock.method(process.stderr, 'write', (text: string, done?: () => void) => {
    stderr += text;
    done?.();
    return true;
  });
  try {
    return { code: await runAction(action, { failClosed, json: false }), stderr };
  } finally {
    write.mock.restore();
  }
}

const usage = () => Promise.reject(new PeriHooksError('usage', 'unknown --output "x"', 'use one of: human, json'));
const bug = () => Promise.reject(new TypeError('x is not a function'));
const denied = () => Promise.reject(new Error('Requires run access to "sh", run again with the --allow-run flag'));

const ROWS: Array<[name: string, action: () => Promise<number>, failClosed: boolean, code: number, stderr: string]> = [
  ["a command's own exit code passes through", () => Promise.resolve(EXIT.block), false, EXIT.block, ''],
  [
    'a usage error: message and fix, exit 1',
    usage,
    false,
    EXIT.runnerError,
    'peri-hooks: unknown --output "x"\n  fix: use one of: human, json\n',
  ],
  [
    'under --fail-closed the same error blocks, and says so',
    usage,
    true,
    EXIT.block,
    'peri-hooks: unknown --output "x"\n  fix: use one of: human, json\nperi-hooks: blocking because of --fail-closed\n',
  ],
  [
    'a bug is named as one, without a stack trace',
    bug,
    false,
    EXIT.runnerError,
    'peri-hooks: internal error: x is not a function\n  This is a bug in peri-hooks; please report it with the command you ran.\n',
  ],
  [
    'a runtime permission refusal names the flag it needs',
    denied,
    false,
    EXIT.runnerError,
    'peri-hooks: the runtime refused access (Requires run access to "sh", run again with the --allow-run flag)\n  fix: run it with --allow-run (see docs/reference/artefacts.md#deno-permissions)\n',
  ],
];

for (const [name, action, failClosed, code, stderr] of ROWS) {
  test(`runAction: ${name}`, async () => {
    assert.deepEqual(await wrapped(action, failClosed), { code, stderr });
  });
}

test('errorDocument: every key present, in order; null where nothing is known; every problem of an input', () => {
  const error = new PeriHooksError('invalid-input', 'invalid PreToolUse input on in.json, 2 problems', 'add both', {
    file: 'in.json',
    pointer: '/tool_name',
    problems: [
      { pointer: '/tool_name', message: 'missing', fix: 'add it' },
      { pointer: '/tool_use_id', message: 'missing', fix: 'add it' },
    ],
  });
  const document = errorDocument(error, false);
  assert.deepEqual(Object.keys(document), ['schemaVersion', 'error']);
  assert.deepEqual(Object.keys(document.error), [
    'code',
    'message',
    'fix',
    'file',
    'pointer',
    'problems',
    'failClosed',
  ]);
  assert.equal(document.error.problems.length, 2);
  assert.deepEqual(errorDocument(new PeriHooksError('usage', 'no command given'), true).error, {
    code: 'usage',
    message: 'no command given',
    fix: null,
    file: null,
    pointer: null,
    problems: [],
    failClosed: true,
  });
  assert.equal(errorDocument(new TypeError('boom'), false).error.code, 'internal');
});
