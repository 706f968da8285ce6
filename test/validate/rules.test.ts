// The lint rules one by one, on loaded hooks built in memory.

import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { LINT_CODES } from '../../src/config/codes.ts';
import { mcpServersOf } from '../../src/config/index.ts';
import type { HookHandler } from '../../src/config/schema.ts';
import type { EventName } from '../../src/events.ts';
import type { Layer, LoadedHook } from '../../src/types.ts';
import { lint } from '../../src/validate/index.ts';
import { firstWord } from '../../src/validate/program.ts';
import { GROUP_RULES, HOOK_RULES, SET_RULES } from '../../src/validate/rules.ts';

const location = { projectDir: '/nonexistent-project', home: '/nonexistent-home', env: { PATH: process.env.PATH } };
const ctx = { ...location, mcpServers: mcpServersOf(location) };

function hook(
  event: EventName,
  matcher: string | undefined,
  handler: HookHandler,
  index = 0,
  layer: Layer = 'project',
  pluginRoot?: string,
): LoadedHook {
  const pointer = `/hooks/${event}/${index}/hooks/0`;
  return {
    id: `${layer}:f#${pointer}`,
    event,
    ...(matcher === undefined ? {} : { matcher }),
    handler,
    provenance: { layer, file: 'f', pointer, ...(pluginRoot ? { pluginRoot, pluginName: 'p' } : {}) },
  };
}
const echo: HookHandler = { type: 'command', command: 'echo hi' };
const ROOT_DIR = '/nonexistent-project';
const codes = async (...hooks: LoadedHook[]) => (await lint(hooks, ctx)).map((d) => d.code);
const messages = async (...hooks: LoadedHook[]) => (await lint(hooks, ctx)).map((d) => d.message);

test('matcher-too-wide: only when the regex hits the tools it names and others too', async () => {
  assert.deepEqual(await messages(hook('PreToolUse', 'Agent.*', echo)), [
    'matcher "Agent.*" is an unanchored regex: besides Agent it also matches ListAgents',
  ]);
  assert.deepEqual(await messages(hook('PreToolUse', 'Write|Edit.*', echo)), [
    'matcher "Write|Edit.*" is an unanchored regex: besides Edit, Write it also matches NotebookEdit, TodoWrite',
  ]);
  const fix = (await lint([hook('PreToolUse', 'Write|Edit.*', echo)], ctx))[0]!.fix;
  assert.equal(fix, 'to match only Edit and Write, write "^(Edit|Write)$" (or the exact list "Edit|Write")');
  assert.deepEqual(await messages(hook('PreToolUse', 'Read|Edit(x)', echo)), [
    'matcher "Read|Edit(x)" is an unanchored regex: besides Read it also matches ReadMcpResourceDirTool, ReadMcpResourceTool',
  ]);
  for (const matcher of ['^Edit$', 'Edit|Write', '^(?!Bash).*', '.*', 'mcp__demo__.*', '^Read$|^Edit(x)', 'Task']) {
    assert.deepEqual(await codes(hook('PreToolUse', matcher, echo)), [], matcher);
  }
  // Not a tool event: the matcher is tested against other values.
  assert.deepEqual(await codes(hook('SessionStart', 'start.*', echo)), []);
});

test('unknown-tool and matcher-case: exact names that are no tool of 2.1.332, with the nearest; regexes, aliases and MCP names are left alone', async () => {
  const found = async (matcher: string) =>
    (await lint([hook('PreToolUse', matcher, echo)], ctx)).map((d) => [d.code, d.message, d.fix]);
  assert.deepEqual(await found('bash'), [
    [
      'matcher-case',
      'matcher "bash" differs from Claude Code\'s tool Bash only in case: matchers are case-sensitive, so it matches no tool call',
      'write "Bash"',
    ],
  ]);
  assert.deepEqual(await found('Edit|MultiEdit'), [
    [
      'unknown-tool',
      'matcher "MultiEdit" is not a tool of Claude Code 2.1.332: it matches no tool call',
      'write "Edit"',
    ],
  ]);
  assert.deepEqual(await found('Bas'), [
    ['unknown-tool', 'matcher "Bas" is not a tool of Claude Code 2.1.332: it matches no tool call', 'write "Bash"'],
  ]);
  assert.deepEqual(
    (await found('Zzzzzzzz'))[0]![2],
    'use a tool name Claude Code has (see peri-hooks schema input --event PreToolUse), or mcp__<server>__<tool>',
  );
  for (const matcher of ['Bash', 'Task|KillShell', 'mcp__memory__read', 'bash.*', 'Write, Edit'])
    assert.deepEqual(await codes(hook('PreToolUse', matcher, echo)), [], matcher);
  // Not a tool event: its matcher values are not tool names.
  assert.deepEqual(await codes(hook('SessionStart', 'startup', echo)), []);
});

test('relative-script-path: a script named from the working folder; from the project or home it is fine', async () => {
  const found = async (command: string) =>
    (await lint([hook('PreToolUse', undefined, { type: 'command', command })], { ...ctx, projectDir: ROOT_DIR }))
      .filter((d) => d.code === 'relative-script-path')
      .map((d) => [d.message, d.fix]);
  assert.deepEqual(await found('./policy/x.sh'), [
    [
      "./policy/x.sh is relative to the folder the hook runs in, which is the session's folder: from a subfolder it is not found (exit 127, a non-blocking error: what it guards goes through)",
      'name it from the project: \\"$CLAUDE_PROJECT_DIR\\"/policy/x.sh in the JSON string',
    ],
  ]);
  assert.equal((await found('bash hooks/x.sh')).length, 1);
  for (const command of ['"$CLAUDE_PROJECT_DIR"/policy/x.sh', '/usr/bin/true', '~/x.sh', 'echo ./x.sh', 'true'])
    assert.deepEqual(await found(command), [], command);
});

test('mcp-server-without-tool: exact mcp__server names, alone or in a list; regexes are left alone', async () => {
  assert.deepEqual(await codes(hook('PreToolUse', 'Bash|mcp__memory', echo)), ['mcp-server-without-tool']);
  assert.deepEqual(await codes(hook('PreToolUse', 'mcp__memory__', echo)), ['mcp-server-without-tool']);
  for (const matcher of ['mcp__memory__read', 'mcp__memory__.*', 'mcp__memory.*'])
    assert.deepEqual(await codes(hook('PreToolUse', matcher, echo)), [], matcher);
});

test('matcher rules skip events without a matcher field, except matcher-ignored; "*" and "" are fine', async () => {
  assert.deepEqual(await codes(hook('Stop', '(a+)+', echo)), ['matcher-ignored']);
  assert.deepEqual(
    await codes(hook('Stop', '*', echo), hook('Stop', '', { type: 'command', command: 'echo 2' }, 1)),
    [],
  );
});

test('unsupported types, if on other events, empty if', async () => {
  assert.deepEqual(await codes(hook('SessionStart', undefined, { type: 'http', url: 'https://example.com/' })), [
    'unsupported-hook-type',
  ]);
  assert.deepEqual(await codes(hook('PermissionRequest', undefined, { type: 'agent', prompt: 'ok?' })), [
    'unsupported-hook-type',
  ]);
  assert.deepEqual(await codes(hook('Stop', undefined, { type: 'command', command: 'true', if: 'Bash' })), [
    'if-ignored',
  ]);
  assert.deepEqual(await codes(hook('Stop', undefined, { type: 'command', command: 'true', if: '' })), []);
  assert.deepEqual(
    await codes(hook('PreToolUse', undefined, { type: 'command', command: 'true', if: 'WebFetch(domain:x.com)' })),
    ['malformed-if'],
  );
});

test('duplicates: a handler twice in one matcher group is reported where the second stands', async () => {
  const first = hook('PreToolUse', 'Bash', echo);
  const second = {
    ...first,
    id: 'project:f#/hooks/PreToolUse/0/hooks/1',
    provenance: { ...first.provenance, pointer: '/hooks/PreToolUse/0/hooks/1' },
  };
  assert.deepEqual(await codes(first, second), ['duplicate-handler']);
});

test('duplicates: same event and matcher; plugin copies and other matchers stay apart', async () => {
  const again = (i: number, matcher?: string, layer: Layer = 'user', root?: string) =>
    hook('PreToolUse', matcher, echo, i, layer, root);
  assert.deepEqual(await codes(again(0, 'Bash'), again(1, 'Bash')), ['duplicate-handler']);
  assert.deepEqual(await codes(again(0), again(1, '*')), ['duplicate-handler']);
  assert.deepEqual(await codes(again(0, 'Bash'), again(1, 'Edit')), []);
  assert.deepEqual(await codes(again(0, 'Bash'), again(1, 'Bash', 'plugin', '/p')), []);
});

test('programs: shell form checks a first word that is a path; exec form looks on PATH; plugin root resolves', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'peri-lint-'));
  try {
    writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\n');
    chmodSync(join(dir, 'run.sh'), 0o755);
    writeFileSync(join(dir, 'plain.sh'), '#!/bin/sh\n');
    const at = { ...ctx, projectDir: dir, home: dir };
    const check = async (handler: HookHandler, layer: Layer = 'project', root?: string) =>
      (await lint([hook('PreToolUse', undefined, handler, 0, layer, root)], at)).map((d) => d.code);
    assert.deepEqual(await check({ type: 'command', command: 'FOO=1 ./run.sh --flag' }), ['relative-script-path']);
    assert.deepEqual(await check({ type: 'command', command: '~/plain.sh' }), ['program-not-executable']);
    assert.deepEqual(await check({ type: 'command', command: `"\${CLAUDE_PROJECT_DIR}/gone.sh" && true` }), [
      'program-not-found',
    ]);
    // A script given to an interpreter must exist, but need not be executable.
    assert.deepEqual(await check({ type: 'command', command: 'sh ./gone.sh' }), [
      'program-not-found',
      'relative-script-path',
    ]);
    assert.deepEqual(await check({ type: 'command', command: '/usr/bin/python3 "$CLAUDE_PROJECT_DIR"/gone.py' }), [
      'program-not-found',
    ]);
    assert.deepEqual(await check({ type: 'command', command: 'bash ./plain.sh' }), ['relative-script-path']);
    assert.deepEqual(await check({ type: 'command', command: 'bash -c ./gone.sh' }), []);
    assert.deepEqual(await check({ type: 'command', command: 'node', args: ['./gone.js'] }), [
      'program-not-found',
      'relative-script-path',
    ]);
    assert.deepEqual(await check({ type: 'command', command: '$OTHER/gone.sh' }), []);
    assert.deepEqual(await check({ type: 'command', command: 'sh', args: ['-c', 'true'] }), []);
    assert.deepEqual(await check({ type: 'command', command: './gone.sh', shell: 'powershell' }), []);
    assert.deepEqual(await check({ type: 'command', command: '"${CLAUDE_PLUGIN_ROOT}/run.sh"' }, 'plugin', dir), []);
    assert.deepEqual(await check({ type: 'command', command: '"${CLAUDE_PLUGIN_ROOT}"/plain.sh' }, 'plugin', dir), [
      'program-not-executable',
    ]);
    assert.deepEqual(await check({ type: 'command', command: 'python3 gone.py' }), ['program-not-found']);
    assert.deepEqual(await check({ type: 'command', command: 'node', args: ['${CLAUDE_PLUGIN_DATA}/x.js'] }), [
      'plugin-root-outside-plugin',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('firstWord: quotes joined, escapes kept, assignments skipped, operators end the word', () => {
  assert.equal(firstWord('"$CLAUDE_PROJECT_DIR"/hooks/x.sh arg'), '$CLAUDE_PROJECT_DIR/hooks/x.sh');
  assert.equal(firstWord("  A=1 B='2 3' ./x.sh"), './x.sh');
  assert.equal(firstWord('./x.sh;echo'), './x.sh');
  assert.equal(firstWord('my\\ tool --x'), 'my tool');
  assert.equal(firstWord('"unterminated'), undefined);
});

test('unquoted-path-variable: outside quotes in shell form only', async () => {
  const check = async (command: string, extra: Partial<HookHandler> = {}) =>
    (
      await lint(
        [
          hook(
            'PreToolUse',
            undefined,
            { type: 'command', command, ...extra } as HookHandler,
            0,
            'plugin',
            '/nonexistent-plugin',
          ),
        ],
        ctx,
      )
    ).filter((d) => d.code === 'unquoted-path-variable');
  const [found] = await check('$CLAUDE_PROJECT_DIR/hooks/x.sh --strict');
  assert.equal(
    found!.message,
    '$CLAUDE_PROJECT_DIR is not quoted in $CLAUDE_PROJECT_DIR/hooks/x.sh: the shell splits it on spaces, so the hook fails when the path holds one (and what it guards goes through)',
  );
  assert.equal(found!.fix, 'write \\"$CLAUDE_PROJECT_DIR/hooks/x.sh\\" (the word in double quotes) in the JSON string');
  assert.equal(
    (await check('cd x && ${CLAUDE_PLUGIN_ROOT}/run.sh'))[0]!.message.split(':')[0],
    '${CLAUDE_PLUGIN_ROOT} is not quoted in ${CLAUDE_PLUGIN_ROOT}/run.sh',
  );
  assert.equal((await check('bash "$HOME"/${CLAUDE_PROJECT_DIR}/x')).length, 1);
  for (const command of [
    '"$CLAUDE_PROJECT_DIR"/hooks/x.sh',
    '"${CLAUDE_PLUGIN_ROOT}/run.sh"',
    "echo '$CLAUDE_PROJECT_DIR'",
    'echo \\$CLAUDE_PROJECT_DIR',
    '$CLAUDE_PROJECT_DIRX/x',
    './x.sh # $CLAUDE_PROJECT_DIR',
  ]) {
    assert.deepEqual(await check(command), [], command);
  }
  assert.deepEqual(await check('$CLAUDE_PROJECT_DIR/x.ps1', { shell: 'powershell' }), []);
  assert.deepEqual(await check('${CLAUDE_PROJECT_DIR}/x.sh', { args: [] }), []);
});

test('exit-1-does-not-block: a refusal or, on a guard event, stderr before exit 1; scripts read as the runner finds them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'peri-exit1-'));
  try {
    const script = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      chmodSync(join(dir, name), 0o755);
    };
    script('deny.sh', '#!/bin/sh\nif grep -q rm; then\n  echo "rm is blocked" >&2\n  exit 1\nfi\n');
    script('stderr.sh', '#!/bin/bash\necho "no rm here" >&2\nexit 1\n');
    script('error.sh', '#!/bin/sh\ncommand -v jq >/dev/null || exit 1\nexit 0\n');
    script('block2.sh', '#!/bin/sh\necho "blocked" >&2\nexit 2\n');
    script('guard.py', 'import sys\nprint("denied: secrets", file=sys.stderr)\nsys.exit(1)\n');
    script('guard.mjs', 'console.error("forbidden path");\nprocess.exit(1);\n');
    const at = { ...ctx, projectDir: dir, home: dir };
    const check = async (event: EventName, command: string, args?: string[]) =>
      (await lint([hook(event, undefined, { type: 'command', command, ...(args ? { args } : {}) })], at))
        .filter((d) => d.code === 'exit-1-does-not-block')
        .map((d) => d.message);
    assert.deepEqual(await check('PreToolUse', './deny.sh'), [
      `${dir}/deny.sh:4 exits 1 where it says "blocked": Claude Code reads exit 1 as a non-blocking error, so the PreToolUse goes through`,
    ]);
    assert.deepEqual(await check('Stop', '"$CLAUDE_PROJECT_DIR"/deny.sh'), [
      `${dir}/deny.sh:4 exits 1 where it says "blocked": Claude Code reads exit 1 as a non-blocking error, so the Stop goes through`,
    ]);
    assert.deepEqual(await check('PreToolUse', './stderr.sh'), [
      `${dir}/stderr.sh:3 exits 1 where it writes to stderr: Claude Code reads exit 1 as a non-blocking error, so the PreToolUse goes through`,
    ]);
    assert.deepEqual(await check('Stop', './stderr.sh'), [], 'stderr alone is evidence only on a guard event');
    assert.deepEqual(await check('PreToolUse', './error.sh'), []);
    assert.deepEqual(await check('PreToolUse', './block2.sh'), []);
    assert.deepEqual(await check('SessionStart', './deny.sh'), [], 'exit 2 does not block SessionStart either');
    assert.deepEqual(
      (await check('PreToolUse', 'python3 guard.py')).map((m) => m.split(' where')[0]),
      [`${dir}/guard.py:3 exits 1`],
    );
    assert.deepEqual(
      (await check('PreToolUse', 'node', ['./guard.mjs'])).map((m) => m.split(' where')[0]),
      [`${dir}/guard.mjs:2 exits 1`],
    );
    assert.deepEqual(await check('UserPromptSubmit', "grep -q secret && { echo 'refused' >&2; exit 1; } || true"), [
      'the command exits 1 where it says "refused": Claude Code reads exit 1 as a non-blocking error, so the UserPromptSubmit goes through',
    ]);
    assert.equal(
      (await lint([hook('PreToolUse', undefined, { type: 'command', command: './deny.sh' })], at)).find(
        (d) => d.code === 'exit-1-does-not-block',
      )!.fix,
      'exit 2 to block (stderr then becomes the reason), or print the decision as JSON and exit 0',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every lint code has a row in the lint table of docs/reference/diagnostics.md', () => {
  const page = readFileSync(new URL('../../docs/reference/diagnostics.md', import.meta.url), 'utf8');
  const rows = page
    .slice(page.indexOf('### Lint codes'))
    .split('\n')
    .filter((line) => line.startsWith('| ') && line.includes('`'))
    .map((line) => line.split('|')[1]!);
  for (const rule of [...GROUP_RULES, ...HOOK_RULES, ...SET_RULES]) {
    for (const code of [rule.code, ...(rule.also ?? [])])
      assert.ok(
        rows.some((cell) => cell.includes(`\`${code}\``)),
        `the lint table lists ${code}`,
      );
  }
});

test('LINT_CODES is exactly the codes the rules report under, each of one rule', () => {
  const used = [...GROUP_RULES, ...HOOK_RULES, ...SET_RULES].flatMap((rule) => [rule.code, ...(rule.also ?? [])]);
  assert.deepEqual([...used].sort(), [...LINT_CODES].sort());
});

test('mcp-server-unknown: an mcp_tool hook naming a server no MCP configuration defines, with the known names', async () => {
  const home = mkdtempSync(join(tmpdir(), 'peri-hooks-mcp-'));
  try {
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { guard: { command: 'guard' } } }));
    const lintMcp = (server: string) =>
      lint([hook('PreToolUse', 'Bash', { type: 'mcp_tool', server, tool: 'check' })], {
        ...ctx,
        mcpServers: mcpServersOf({ ...location, home, env: { PERI_HOOKS_MANAGED_DIR: join(home, 'managed') } }),
      });
    assert.deepEqual(await lintMcp('guard'), []);
    const [finding] = await lintMcp('nosuch');
    assert.equal(finding!.code, 'mcp-server-unknown');
    assert.equal(finding!.pointer, '/hooks/PreToolUse/0/hooks/0/server');
    assert.equal(
      finding!.message,
      'no MCP configuration defines the server "nosuch": this hook fails at every firing as "MCP server \'nosuch\' not connected"',
    );
    assert.match(finding!.fix!, /^the configured servers are guard;/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
