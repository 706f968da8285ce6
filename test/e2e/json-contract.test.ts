// The JSON contract: real `fire --output json` documents and JSON-mode errors validate against the published
// schemas, with every key present, in the documented order, whatever the run.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  ASYNC_RESULT_KEYS,
  DIAGNOSTIC_KEYS,
  HOOK_KEYS,
  REPORT_KEYS,
  STOP_GUARD_KEYS,
} from '../../src/report/document.ts';
import { errorDocumentSchema, reportDocumentSchema } from '../../src/report/schema.ts';
import { hooksSettings, makeProject, runCli } from '../helpers/cli.ts';

const project = makeProject();
after(() => project.cleanup());
project.write(
  '.claude/settings.json',
  hooksSettings({
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: 'echo "no" >&2; exit 2' },
          { type: 'command', command: 'exit 1' },
        ],
      },
      { matcher: 'Read', hooks: [{ type: 'command', command: 'true' }] },
      { matcher: 'Bash', hooks: [{ type: 'http', url: 'http://127.0.0.1:9/hook', timeout: 5 }] },
    ],
    PostToolUse: [
      {
        hooks: [
          {
            type: 'command',
            command: 'echo \'{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"noted"}}\'',
          },
        ],
      },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'echo \'{"decision":"block","reason":"keep going"}\'' }] }],
    // A broken entry, so that the report carries a warning.
    Notification: [{ hooks: [{ type: 'comand', command: 'true' }] }],
  }),
);

const RUNS: Array<[event: string, fixture: string, exitCode: number]> = [
  ['PreToolUse', 'PreToolUse', 2],
  ['PostToolUse', 'PostToolUse', 0],
  ['Stop', 'Stop', 2],
  ['SessionStart', 'SessionStart', 0],
];

for (const [event, fixture, exitCode] of RUNS) {
  test(`fire ${event} --output json validates against the report schema, keys in order`, async () => {
    const result = await runCli(['fire', event, '--output', 'json'], {
      stdin: project.input(fixture),
      env: project.env(),
      cwd: project.dir,
    });
    assert.equal(result.code, exitCode, result.stderr);
    const document = JSON.parse(result.stdout) as Record<string, unknown>;
    reportDocumentSchema().parse(document);
    assert.deepEqual(Object.keys(document), [...REPORT_KEYS]);
    for (const hook of document.hooks as object[]) assert.deepEqual(Object.keys(hook), [...HOOK_KEYS]);
    for (const warning of document.warnings as object[]) assert.deepEqual(Object.keys(warning), [...DIAGNOSTIC_KEYS]);
    if (event === 'Stop') assert.deepEqual(Object.keys(document.stopGuard as object), [...STOP_GUARD_KEYS]);
  });
}

test('a run without hooks has the same keys: null and [] where there is nothing to say', async () => {
  const result = await runCli(['fire', 'SessionStart', '--output', 'json'], {
    stdin: project.input('SessionStart'),
    env: project.env(),
    cwd: project.dir,
  });
  const document = JSON.parse(result.stdout) as Record<string, unknown>;
  assert.equal(document.schemaVersion, 1);
  assert.deepEqual(document.hooks, []);
  assert.equal(document.output, null);
  assert.equal(document.reason, null);
  assert.ok(document.noHooksFound !== null);
});

test('the published schemas have exactly the document keys, in order', () => {
  assert.deepEqual(Object.keys(reportDocumentSchema().shape), [...REPORT_KEYS]);
  assert.deepEqual(Object.keys(reportDocumentSchema().shape.hooks.element.shape), [...HOOK_KEYS]);
  assert.deepEqual(Object.keys(reportDocumentSchema().shape.warnings.element.shape), [...DIAGNOSTIC_KEYS]);
  assert.deepEqual(Object.keys(reportDocumentSchema().shape.stopGuard.unwrap().shape), [...STOP_GUARD_KEYS]);
  assert.deepEqual(Object.keys(reportDocumentSchema().shape.delivered.element.shape), [...ASYNC_RESULT_KEYS]);
});

test('a JSON-mode error validates against the error schema', async () => {
  const result = await runCli(['fire', 'PreToolUse', '--output', 'json'], {
    stdin: '{"session_id": 1}',
    env: project.env(),
    cwd: project.dir,
  });
  assert.equal(result.code, 1);
  errorDocumentSchema().parse(JSON.parse(result.stdout));
});

test('peri-hooks schema report and schema error print the published schemas', async () => {
  for (const kind of ['report', 'error']) {
    const result = await runCli(['schema', kind], { env: project.env() });
    assert.equal(result.code, 0, result.stderr);
    const schema = JSON.parse(result.stdout) as { title: string; required: string[] };
    assert.match(schema.title, /schemaVersion 1$/);
    assert.ok(schema.required.includes('schemaVersion'));
  }
});

test("every command's JSON output starts with schemaVersion", async () => {
  const commands = [
    ['validate', '--output', 'json'],
    ['list', '--output', 'json'],
    ['explain', 'PreToolUse', '--tool', 'Bash', '--output', 'json'],
    ['state', 'never-seen'],
    ['doctor', '--output', 'json'],
  ];
  for (const args of commands) {
    const result = await runCli(args, { env: project.env(), cwd: project.dir });
    const document = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.equal(Object.keys(document)[0], 'schemaVersion', args.join(' '));
    assert.equal(document.schemaVersion, 1, args.join(' '));
  }
});
