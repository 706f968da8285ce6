// validate's CI forms on the mistakes tree: GitHub annotations (escaped as GitHub reads them), and SARIF
// checked against the SARIF 2.1.0 JSON Schema with ajv (zod's reader takes "uri-reference" for an absolute URL).

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, runCli } from '../helpers/cli.ts';
import { schemaValidator } from '../helpers/json-schema.ts';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'peri-reporters-'));
  cpSync(join(ROOT, 'fixtures/mistakes'), root, { recursive: true });
});
after(() => rmSync(root, { recursive: true, force: true }));

const env = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(root, 'home') });
const args = (...more: string[]) => [
  'validate',
  '--project-dir',
  'project',
  '--managed-dir',
  'managed',
  '--plugin-dir',
  'plugins/guard',
  ...more,
];

const sarifValidator = () =>
  schemaValidator(JSON.parse(readFileSync(join(ROOT, 'fixtures/sarif/sarif-2.1.0-rtm.5.json'), 'utf8')), '04');

test('--reporter github: one annotation per diagnostic, with the repository-relative file, line, column and code', async () => {
  const result = await runCli(args('--reporter', 'github'), { env: env(), cwd: root });
  assert.equal(result.code, 1, result.stderr);
  const lines = result.stdout.trimEnd().split('\n');
  const json = JSON.parse((await runCli(args('--output', 'json'), { env: env(), cwd: root })).stdout);
  assert.equal(lines.length, json.diagnostics.length + 1);
  assert.equal(lines.at(-1), 'failed: 19 errors, 26 warnings, 0 notes');
  assert.equal(
    lines[2],
    '::error file=project/.claude/settings.json,line=4,col=5,title=peri-hooks validate%3A unknown-event::unknown hook event "preToolUse"; entry ignored%0Afix: did you mean PreToolUse? (docs/reference/diagnostics.md#unknown-event)',
  );
  assert.ok(
    lines.includes(
      '::warning file=project/.claude/settings.json,line=8,col=9,title=peri-hooks validate%3A matcher-too-wide::matcher "Edit.*" is an unanchored regex: besides Edit it also matches NotebookEdit%0Afix: to match only Edit, write "^Edit$" (or the exact name "Edit") (docs/reference/diagnostics.md#matcher-too-wide)',
    ),
  );
  assert.ok(
    lines.some(
      (line) =>
        line.startsWith(
          '::error file=project/.claude/settings.local.json,line=5,col=42,title=peri-hooks validate%3A unknown-hook-type::',
        ) && line.endsWith('%0Amakes the file inapplicable: none of its hooks or settings apply until this is fixed'),
    ),
  );
  assert.deepEqual([...new Set(lines.slice(0, -1).map((line) => /^::(\w+) /.exec(line)?.[1]))].sort(), [
    'error',
    'warning',
  ]);
});

test('--reporter github escapes % and newlines in messages, and , and : in properties', async () => {
  const inline = '{"hooks": {"Stop": [{"matcher": "50%,x:y", "hooks": [{"type": "command", "command": "true"}]}]}}';
  const result = await runCli(['validate', '--setting-sources', '', '--settings', inline, '--reporter', 'github'], {
    env: env(),
    cwd: root,
  });
  assert.equal(result.code, 0, result.stderr);
  // An inline --settings value has no file: the annotation has no file property.
  assert.equal(
    result.stdout,
    '::warning title=peri-hooks validate%3A matcher-ignored::Stop has no matcher: "50%25,x:y" is ignored and these hooks run on every Stop%0Afix: remove "matcher"; to filter, test the input inside the hook (docs/reference/diagnostics.md#matcher-ignored)\nok: 0 errors, 1 warning, 0 notes\n',
  );
});

test('--reporter sarif: valid SARIF 2.1.0 with every diagnostic as a located result', async () => {
  const result = await runCli(args('--reporter', 'sarif'), { env: env(), cwd: root });
  assert.equal(result.code, 1, result.stderr);
  const log = JSON.parse(result.stdout);
  const check = sarifValidator();
  assert.deepEqual(check(log), []);
  const json = JSON.parse((await runCli(args('--output', 'json'), { env: env(), cwd: root })).stdout);
  const [run] = log.runs;
  assert.equal(run.tool.driver.name, 'peri-hooks');
  assert.equal(run.results.length, json.diagnostics.length);
  assert.deepEqual(
    run.results.map((r: { ruleId: string }) => r.ruleId),
    json.diagnostics.map((d: { code: string }) => d.code),
  );
  assert.deepEqual(run.results.find((r: { ruleId: string }) => r.ruleId === 'unknown-event').locations, [
    {
      physicalLocation: {
        artifactLocation: { uri: 'project/.claude/settings.json', uriBaseId: 'SRCROOT' },
        region: { startLine: 4, startColumn: 5 },
      },
    },
  ]);
  assert.equal(run.originalUriBaseIds.SRCROOT.uri, `file://${root}/`);
  for (const r of run.results) assert.equal(run.tool.driver.rules[r.ruleIndex].id, r.ruleId);
  assert.deepEqual(
    run.results
      .filter((r: { properties: { makesSourceInapplicable?: boolean } }) => r.properties.makesSourceInapplicable)
      .map((r: { ruleId: string }) => r.ruleId),
    ['invalid-timeout', 'unknown-hook-type'],
  );
  assert.deepEqual([...new Set(run.results.map((r: { level: string }) => r.level))].sort(), ['error', 'warning']);

  // The schema check can fail: a wrong level or a missing message is refused.
  const broken = structuredClone(log);
  broken.runs[0].results[0].level = 'fatal';
  assert.notDeepEqual(check(broken), []);
  delete broken.runs[0].results[1].message;
  assert.notDeepEqual(check(broken), []);
});

test('a clean tree gives an empty SARIF run; one form at a time', async () => {
  const cleanFile = join(root, 'clean.json');
  writeFileSync(
    cleanFile,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR"/hooks/ok.sh' }] },
        ],
      },
    }),
  );
  const clean = await runCli(
    [
      'validate',
      '--setting-sources',
      '',
      '--settings',
      cleanFile,
      '--project-dir',
      join(root, 'project'),
      '--reporter',
      'sarif',
    ],
    { env: env(), cwd: root },
  );
  assert.equal(clean.code, 0, clean.stderr);
  const log = JSON.parse(clean.stdout);
  assert.deepEqual(sarifValidator()(log), []);
  assert.deepEqual(log.runs[0].results, []);
  for (const [more, message] of [
    [['--reporter', 'junit'], /unknown --reporter "junit"/],
    [['--reporter', 'sarif', '--output', 'json'], /--reporter and --output both/],
    [['--reporter', 'sarif', '--reporter', 'github'], /--reporter given 2 times/],
  ] as const) {
    const result = await runCli(args(...more), { env: env(), cwd: root });
    assert.equal(result.code, 1);
    assert.match(result.stderr, message);
  }
});
