// `peri-hooks validate` on fixtures/mistakes: a settings tree holding every mistake validate knows, with the
// exact diagnostics expected. The tree is copied to a temporary folder (with its run bits) and read as
// HOME, project, managed folder and plugin. settings.local.json is inapplicable (broken PreToolUse entries),
// and its other mistakes, some inside dropped entries, are reported all the same.

import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, runCli } from '../helpers/cli.ts';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'peri-validate-'));
  cpSync(join(ROOT, 'fixtures/mistakes'), root, { recursive: true });
});
after(() => rmSync(root, { recursive: true, force: true }));

const env = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(root, 'home') });
const sources = () => [
  '--project-dir',
  join(root, 'project'),
  '--managed-dir',
  join(root, 'managed'),
  '--plugin-dir',
  join(root, 'plugins/guard'),
];

const HOME = 'home/.claude/settings.json';
const PROJECT = 'project/.claude/settings.json';
const LOCAL = 'project/.claude/settings.local.json';
type Row = [
  file: string,
  line: number,
  column: number,
  pointer: string,
  severity: string,
  code: string,
  message: string,
];

const EXPECTED: Row[] = [
  [
    HOME,
    7,
    61,
    '/hooks/PostToolUse/0/hooks/0/command',
    'error',
    'program-not-found',
    '"~/.claude/hooks/format.py" (<root>/home/.claude/hooks/format.py) does not exist; this hook fails every time',
  ],
  [PROJECT, 4, 5, '/hooks/preToolUse', 'error', 'unknown-event', 'unknown hook event "preToolUse"; entry ignored'],
  [
    PROJECT,
    8,
    9,
    '/hooks/PreToolUse/0/matcher',
    'warning',
    'matcher-too-wide',
    'matcher "Edit.*" is an unanchored regex: besides Edit it also matches NotebookEdit',
  ],
  [
    PROJECT,
    9,
    9,
    '/hooks/PreToolUse/1/matcher',
    'error',
    'invalid-regex',
    'Invalid regex pattern in hook matcher "(Bash": Invalid regular expression: /(Bash/: Unterminated group; the hooks of this group never run',
  ],
  [
    PROJECT,
    10,
    9,
    '/hooks/PreToolUse/2/matcher',
    'warning',
    'catastrophic-regex',
    'matcher "(\\w+)+$" repeats a group that is itself repeated ((\\w+)+): it can backtrack for an exponential time on every PreToolUse',
  ],
  [
    PROJECT,
    14,
    65,
    '/hooks/PreToolUse/3/hooks/0/if',
    'error',
    'malformed-if',
    'malformed "if" rule "Bash(git push": "Bash(git push" is not one rule of the form Tool or Tool(specifier): the closing parenthesis must end it; Claude Code silently never runs this hook',
  ],
  [
    PROJECT,
    15,
    65,
    '/hooks/PreToolUse/3/hooks/1/timeout',
    'warning',
    'timeout-in-ms',
    'timeout is in seconds; did you mean 5?',
  ],
  [
    PROJECT,
    16,
    32,
    '/hooks/PreToolUse/3/hooks/2/command',
    'error',
    'program-not-found',
    '"./hooks/missing.sh" (<root>/project/hooks/missing.sh) does not exist; this hook fails every time',
  ],
  [
    PROJECT,
    17,
    32,
    '/hooks/PreToolUse/3/hooks/3/command',
    'error',
    'program-not-executable',
    '"$CLAUDE_PROJECT_DIR/hooks/not-executable.sh" (<root>/project/hooks/not-executable.sh) is not executable; this hook fails every time',
  ],
  [
    PROJECT,
    18,
    32,
    '/hooks/PreToolUse/3/hooks/4/command',
    'error',
    'program-not-found',
    '"no-such-program-peri" is not found on PATH (exec form runs it directly, without a shell); this hook fails every time',
  ],
  [
    PROJECT,
    19,
    32,
    '/hooks/PreToolUse/3/hooks/5/command',
    'error',
    'plugin-root-outside-plugin',
    '${CLAUDE_PLUGIN_ROOT} is only available in hooks defined in a plugin; this hook fails every time',
  ],
  [
    PROJECT,
    19,
    32,
    '/hooks/PreToolUse/3/hooks/5/command',
    'warning',
    'unquoted-path-variable',
    '${CLAUDE_PLUGIN_ROOT} is not quoted in ${CLAUDE_PLUGIN_ROOT}/hooks/check.sh: the shell splits it on spaces, so the hook fails when the path holds one (and what it guards goes through)',
  ],
  [
    PROJECT,
    20,
    11,
    '/hooks/PreToolUse/3/hooks/6',
    'warning',
    'duplicate-handler',
    'same handler as <root>/home/.claude/settings.json /hooks/PreToolUse/0/hooks/0: Claude Code runs identical handlers once per PreToolUse',
  ],
  [
    PROJECT,
    25,
    9,
    '/hooks/PostToolUse/0/matcher',
    'error',
    'mcp-server-without-tool',
    '"mcp__memory" names an MCP server, not a tool: MCP tools are called mcp__memory__<tool>, so it matches nothing',
  ],
  [
    PROJECT,
    26,
    7,
    '/hooks/PostToolUse/1',
    'error',
    'handler-without-group',
    'a handler sits directly in the PostToolUse array, without a matcher group',
  ],
  [
    PROJECT,
    29,
    44,
    '/hooks/SessionStart/0/hooks/0/type',
    'error',
    'unsupported-hook-type',
    'SessionStart cannot run prompt hooks: Claude Code skips this hook',
  ],
  [
    PROJECT,
    32,
    9,
    '/hooks/Stop/0/matcher',
    'warning',
    'matcher-ignored',
    'Stop has no matcher: "Bash" is ignored and these hooks run on every Stop',
  ],
  [
    PROJECT,
    35,
    76,
    '/hooks/UserPromptSubmit/0/hooks/0/if',
    'error',
    'if-ignored',
    '"if" applies only to tool events; Claude Code never runs this hook on UserPromptSubmit',
  ],
  [
    LOCAL,
    4,
    94,
    '/hooks/PreToolUse/0/hooks/0/timeout',
    'error',
    'invalid-timeout',
    '"timeout" must be a positive number of seconds, not -1; entry dropped',
  ],
  [
    LOCAL,
    4,
    94,
    '/hooks/PreToolUse/0/hooks/0/timeout',
    'error',
    'source-inapplicable',
    'an unloadable PreToolUse entry makes the whole source inapplicable: nothing in <root>/project/.claude/settings.local.json is applied until the entry is fixed',
  ],
  [
    LOCAL,
    5,
    42,
    '/hooks/PreToolUse/1/hooks/0/type',
    'error',
    'unknown-hook-type',
    'Unknown hook type "comand"; entry dropped',
  ],
  [
    LOCAL,
    6,
    60,
    '/hooks/PreToolUse/2/hooks/0/command',
    'warning',
    'unquoted-path-variable',
    '$CLAUDE_PROJECT_DIR is not quoted in $CLAUDE_PROJECT_DIR/hooks/ok.sh: the shell splits it on spaces, so the hook fails when the path holds one (and what it guards goes through)',
  ],
  [
    LOCAL,
    7,
    60,
    '/hooks/PreToolUse/3/hooks/0/command',
    'warning',
    'exit-1-does-not-block',
    '<root>/project/hooks/deny.sh:5 exits 1 where it says "blocked": Claude Code reads exit 1 as a non-blocking error, so the PreToolUse goes through',
  ],
  [LOCAL, 10, 9, '/hooks/Stop/0/matcher', 'error', 'matcher-not-string', '"matcher" must be a string'],
  [
    LOCAL,
    10,
    55,
    '/hooks/Stop/0/hooks/0/command',
    'error',
    'program-not-found',
    '"./hooks/gone.sh" (<root>/project/hooks/gone.sh) does not exist; this hook fails every time',
  ],
  [LOCAL, 12, 5, '/hooks/postToolUse', 'error', 'unknown-event', 'unknown hook event "postToolUse"; entry ignored'],
  [
    LOCAL,
    13,
    93,
    '/hooks/postToolUse/0/hooks/0/timeout',
    'warning',
    'timeout-in-ms',
    'timeout is in seconds; did you mean 30?',
  ],
  [
    LOCAL,
    16,
    41,
    '/hooks/UserPromptSubmit/0/hooks/0/command',
    'error',
    'program-not-found',
    '"./hooks/missing-too.sh" (<root>/project/hooks/missing-too.sh) does not exist; this hook fails every time',
  ],
];

test('every mistake in fixtures/mistakes, with file, line, column, pointer, message and a fix; exit 1', async () => {
  const result = await runCli(['validate', ...sources(), '--output', 'json'], { env: env() });
  assert.equal(result.code, 1, result.stderr);
  const report = JSON.parse(result.stdout);
  const rows = report.diagnostics.map(
    (d: Record<string, string | number>): Row => [
      String(d.file).slice(root.length + 1),
      d.line as number,
      d.column as number,
      String(d.pointer),
      String(d.severity),
      String(d.code),
      String(d.message).replaceAll(root, '<root>'),
    ],
  );
  // The fixture names its scripts from the working folder throughout (./hooks/ok.sh): each is said once.
  const relative = rows.filter((row: Row) => row[5] === 'relative-script-path');
  assert.equal(relative.length, 17);
  assert.deepEqual(relative[0], [
    HOME,
    4,
    60,
    '/hooks/PreToolUse/0/hooks/0/command',
    'warning',
    'relative-script-path',
    "./hooks/ok.sh is relative to the folder the hook runs in, which is the session's folder: from a subfolder it is not found (exit 127, a non-blocking error: what it guards goes through)",
  ]);
  assert.deepEqual(
    rows.filter((row: Row) => row[5] !== 'relative-script-path'),
    EXPECTED,
  );
  for (const d of report.diagnostics) assert.ok(typeof d.fix === 'string' && d.fix.length > 0, `${d.code} has a fix`);
  assert.deepEqual([report.ok, report.errors, report.warnings, report.notes, report.hooks], [false, 19, 26, 0, 17]);
  // The two broken PreToolUse entries are what keep settings.local.json from applying; nothing else is.
  const voiding = report.diagnostics
    .filter((d: { makesSourceInapplicable?: boolean }) => d.makesSourceInapplicable === true)
    .map((d: { code: string }) => d.code);
  assert.deepEqual(voiding, ['invalid-timeout', 'unknown-hook-type']);
  assert.equal(report.sources.find((s: { file: string }) => s.file.endsWith(LOCAL)).status, 'inapplicable');
  // The first fix of each code.
  const fixes = Object.fromEntries(
    report.diagnostics.toReversed().map((d: { code: string; fix: string }) => [d.code, d.fix]),
  );
  assert.equal(fixes['unknown-event'], 'did you mean PreToolUse?');
  assert.equal(fixes['matcher-too-wide'], 'to match only Edit, write "^Edit$" (or the exact name "Edit")');
  assert.equal(
    fixes['mcp-server-without-tool'],
    'write "mcp__memory__.*" for every tool of the server, or "mcp__memory__<tool>" for one',
  );
  assert.equal(
    fixes['program-not-executable'],
    `chmod +x ${root}/project/hooks/not-executable.sh (or run it through an interpreter: "sh ${root}/project/hooks/not-executable.sh")`,
  );
});

test('human output: one located line per problem, then the sources read and the verdict', async () => {
  const result = await runCli(['validate', ...sources()], { env: env() });
  assert.equal(result.code, 1);
  assert.match(
    result.stdout,
    new RegExp(
      `\\nerror: ${root}/project/\\.claude/settings\\.json:4:5 \\(/hooks/preToolUse\\): unknown hook event "preToolUse"; entry ignored\\n  fix: did you mean PreToolUse\\? \\(docs/reference/diagnostics\\.md#unknown-event\\)\\n`,
    ),
  );
  assert.match(result.stdout, /\n {2}plugin +\S+\/plugins\/guard\/hooks\/hooks\.json +1 hook\n/);
  assert.match(result.stdout, /\nfailed: 19 errors, 26 warnings, 0 notes\n$/);
  assert.match(
    result.stdout,
    /\(\/hooks\/PreToolUse\/1\/hooks\/0\/type\): Unknown hook type "comand"; entry dropped\n {2}fix: did you mean "command"\? \(docs\/reference\/diagnostics\.md#unknown-hook-type\)\n {2}makes the file inapplicable: none of its hooks or settings apply until this is fixed\n/,
  );
  assert.match(result.stdout, /\n {2}local +\S+settings\.local\.json +inapplicable\n/);
});

test('a clean configuration exits 0; --strict makes warnings fail', async () => {
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
    ['validate', '--setting-sources', '', '--settings', cleanFile, '--project-dir', join(root, 'project')],
    { env: env() },
  );
  assert.equal(clean.code, 0, clean.stdout);
  assert.match(clean.stdout, /^sources:\n {2}flag +\S+clean\.json +1 hook\nok: 0 errors, 0 warnings, 0 notes\n$/);
  // The README's first example runs from the repository root, by relative paths: warnings, not errors.
  const example = await runCli(
    [
      'validate',
      '--setting-sources',
      '',
      '--settings',
      join(ROOT, 'fixtures/example/settings.json'),
      '--project-dir',
      ROOT,
    ],
    { env: env() },
  );
  assert.equal(example.code, 0, example.stdout);
  assert.match(example.stdout, /ok: 0 errors, 2 warnings, 0 notes\n$/);

  const file = join(root, 'warn.json');
  writeFileSync(
    file,
    JSON.stringify({ hooks: { Stop: [{ matcher: 'x', hooks: [{ type: 'command', command: 'true' }] }] } }),
  );
  const args = ['validate', '--setting-sources', '', '--settings', file, '--output', 'json'];
  const lax = await runCli(args, { env: env() });
  assert.equal(lax.code, 0);
  assert.equal(JSON.parse(lax.stdout).warnings, 1);
  const strict = await runCli([...args, '--strict'], { env: env() });
  assert.equal(strict.code, 1);
});

test('inline --settings are located too; a bad --setting-sources is a usage error', async () => {
  const inline =
    '{\n  "hooks": { "PostToolBatch": [ { "matcher": "Bash", "hooks": [ { "type": "agent", "prompt": "ok?", "if": "Bash" } ] } ] }\n}';
  const result = await runCli(['validate', '--setting-sources', '', '--settings', inline, '--output', 'json'], {
    env: env(),
  });
  assert.equal(result.code, 1);
  const got = JSON.parse(result.stdout).diagnostics.map((d: Record<string, unknown>) => [
    d.file,
    d.line,
    d.column,
    d.code,
  ]);
  assert.deepEqual(got, [
    ['--settings', 2, 35, 'matcher-ignored'],
    ['--settings', 2, 101, 'if-ignored'],
  ]);

  const usage = await runCli(['validate', '--setting-sources', 'users'], { env: env() });
  assert.equal(usage.code, 1);
  assert.match(usage.stderr, /^peri-hooks: unknown setting source "users" in --setting-sources\n {2}fix: /);
});
