// The lint rules one by one, on loaded hooks built in memory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookHandler } from '../../src/config/schema.ts';
import type { EventName } from '../../src/events.ts';
import { lint } from '../../src/validate/index.ts';
import { firstWord } from '../../src/validate/program.ts';
import type { Layer, LoadedHook } from '../../src/types.ts';

const ctx = { projectDir: '/nonexistent-project', home: '/nonexistent-home', env: { PATH: process.env.PATH } };

function hook(event: EventName, matcher: string | undefined, handler: HookHandler, index = 0, layer: Layer = 'project', pluginRoot?: string): LoadedHook {
  const pointer = `/hooks/${event}/${index}/hooks/0`;
  return {
    id: `${layer}:f#${pointer}`, event, ...(matcher === undefined ? {} : { matcher }), handler,
    provenance: { layer, file: 'f', pointer, ...(pluginRoot ? { pluginRoot, pluginName: 'p' } : {}) },
  };
}
const echo: HookHandler = { type: 'command', command: 'echo hi' };
const codes = async (...hooks: LoadedHook[]) => (await lint(hooks, ctx)).map((d) => d.code);
const messages = async (...hooks: LoadedHook[]) => (await lint(hooks, ctx)).map((d) => d.message);

test('matcher-too-wide: only when the regex hits the tools it names and others too', async () => {
  assert.deepEqual(await messages(hook('PreToolUse', 'Agent.*', echo)), ['matcher "Agent.*" is an unanchored regex: besides Agent it also matches ListAgents']);
  assert.deepEqual(await messages(hook('PreToolUse', 'Write|Edit.*', echo)), ['matcher "Write|Edit.*" is an unanchored regex: besides Edit, Write it also matches NotebookEdit, TodoWrite']);
  const fix = (await lint([hook('PreToolUse', 'Write|Edit.*', echo)], ctx))[0]!.fix;
  assert.equal(fix, 'to match only Edit and Write, write "^(Edit|Write)$" (or the exact list "Edit|Write")');
  assert.deepEqual(await messages(hook('PreToolUse', 'Read|Edit(x)', echo)), ['matcher "Read|Edit(x)" is an unanchored regex: besides Read it also matches ReadMcpResourceDirTool, ReadMcpResourceTool']);
  for (const matcher of ['^Edit$', 'Edit|Write', '^(?!Bash).*', '.*', 'mcp__demo__.*', '^Read$|^Edit(x)', 'Task']) {
    assert.deepEqual(await codes(hook('PreToolUse', matcher, echo)), [], matcher);
  }
  // Not a tool event: the matcher is tested against other values.
  assert.deepEqual(await codes(hook('SessionStart', 'start.*', echo)), []);
});

test('mcp-server-without-tool: exact mcp__server names, alone or in a list; regexes are left alone', async () => {
  assert.deepEqual(await codes(hook('PreToolUse', 'Bash|mcp__memory', echo)), ['mcp-server-without-tool']);
  assert.deepEqual(await codes(hook('PreToolUse', 'mcp__memory__', echo)), ['mcp-server-without-tool']);
  for (const matcher of ['mcp__memory__read', 'mcp__memory__.*', 'mcp__memory.*']) assert.deepEqual(await codes(hook('PreToolUse', matcher, echo)), [], matcher);
});

test('matcher rules skip events without a matcher field, except matcher-ignored; "*" and "" are fine', async () => {
  assert.deepEqual(await codes(hook('Stop', '(a+)+', echo)), ['matcher-ignored']);
  assert.deepEqual(await codes(hook('Stop', '*', echo), hook('Stop', '', { type: 'command', command: 'echo 2' }, 1)), []);
});

test('unsupported types, if on other events, empty if', async () => {
  assert.deepEqual(await codes(hook('SessionStart', undefined, { type: 'http', url: 'https://example.com/' })), ['unsupported-hook-type']);
  assert.deepEqual(await codes(hook('PermissionRequest', undefined, { type: 'agent', prompt: 'ok?' })), ['unsupported-hook-type']);
  assert.deepEqual(await codes(hook('Stop', undefined, { type: 'command', command: 'true', if: 'Bash' })), ['if-ignored']);
  assert.deepEqual(await codes(hook('Stop', undefined, { type: 'command', command: 'true', if: '' })), []);
  assert.deepEqual(await codes(hook('PreToolUse', undefined, { type: 'command', command: 'true', if: 'WebFetch(domain:x.com)' })), ['malformed-if']);
});

test('duplicates: same event and matcher; plugin copies and other matchers stay apart', async () => {
  const again = (i: number, matcher?: string, layer: Layer = 'user', root?: string) => hook('PreToolUse', matcher, echo, i, layer, root);
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
    const check = async (handler: HookHandler, layer: Layer = 'project', root?: string) => (await lint([hook('PreToolUse', undefined, handler, 0, layer, root)], at)).map((d) => d.code);
    assert.deepEqual(await check({ type: 'command', command: 'FOO=1 ./run.sh --flag' }), []);
    assert.deepEqual(await check({ type: 'command', command: '~/plain.sh' }), ['program-not-executable']);
    assert.deepEqual(await check({ type: 'command', command: `"\${CLAUDE_PROJECT_DIR}/gone.sh" && true` }), ['program-not-found']);
    assert.deepEqual(await check({ type: 'command', command: 'sh ./gone.sh' }), []);
    assert.deepEqual(await check({ type: 'command', command: '$OTHER/gone.sh' }), []);
    assert.deepEqual(await check({ type: 'command', command: 'sh', args: ['-c', 'true'] }), []);
    assert.deepEqual(await check({ type: 'command', command: './gone.sh', shell: 'powershell' }), []);
    assert.deepEqual(await check({ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/run.sh' }, 'plugin', dir), []);
    assert.deepEqual(await check({ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/plain.sh' }, 'plugin', dir), ['program-not-executable']);
    assert.deepEqual(await check({ type: 'command', command: 'node', args: ['${CLAUDE_PLUGIN_DATA}/x.js'] }), ['plugin-root-outside-plugin']);
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

test('mcp-server-unknown: an mcp_tool hook naming a server no MCP configuration defines, with the known names', async () => {
  const home = mkdtempSync(join(tmpdir(), 'peri-hooks-mcp-'));
  try {
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { guard: { command: 'guard' } } }));
    const lintMcp = (server: string) => lint([hook('PreToolUse', 'Bash', { type: 'mcp_tool', server, tool: 'check' })], { ...ctx, home, env: { PERI_HOOKS_MANAGED_DIR: join(home, 'managed') } });
    assert.deepEqual(await lintMcp('guard'), []);
    const [finding] = await lintMcp('nosuch');
    assert.equal(finding!.code, 'mcp-server-unknown');
    assert.equal(finding!.pointer, '/hooks/PreToolUse/0/hooks/0/server');
    assert.equal(finding!.message, 'no MCP configuration defines the server "nosuch": this hook fails at every firing as "MCP server \'nosuch\' not connected"');
    assert.match(finding!.fix!, /^the configured servers are guard;/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
