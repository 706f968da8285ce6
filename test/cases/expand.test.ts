// Shorthand expansion: the inputs it builds are valid Claude Code inputs, shaped like the real payloads.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { expandInput } from '../../src/cases/expand.ts';
import { EVENT_NAMES, type EventName, isToolEvent } from '../../src/events.ts';
import { parseInput } from '../../src/input/parse.ts';
import { ROOT } from '../helpers/cli.ts';

const real = (name: string) =>
  JSON.parse(readFileSync(join(ROOT, 'fixtures/claude-code-2.1.332/inputs', `${name}.json`), 'utf8')) as Record<
    string,
    unknown
  >;

test("tool + toolInput expand to a valid input of every tool event, with the real payload's keys", () => {
  for (const event of EVENT_NAMES.filter(isToolEvent)) {
    const input = expandInput({
      event,
      key: 'k',
      projectDir: '/p',
      home: '/h',
      tool: 'Bash',
      toolInput: { command: 'ls' },
    });
    assert.doesNotThrow(() => parseInput(event, JSON.stringify(input)), event);
    assert.equal(input.cwd, '/p');
    assert.equal(input.hook_event_name, event);
  }
  const expanded = expandInput({
    event: 'PreToolUse',
    key: 'k',
    projectDir: '/p',
    home: '/h',
    tool: 'Bash',
    toolInput: { command: 'ls' },
  });
  const fixture = real('PreToolUse.tool_name-Bash');
  const optional = new Set(['prompt_id', 'effort']);
  assert.deepEqual(
    Object.keys(expanded).sort(),
    Object.keys(fixture)
      .filter((key) => !optional.has(key))
      .sort(),
  );
  assert.match(String(expanded.transcript_path), /^\/h\/\.claude\/projects\/-p\/[0-9a-f-]{36}\.jsonl$/);
  assert.match(String(expanded.tool_use_id), /^toolu_[0-9a-f]{24}$/);
});

test('the same key gives the same ids; another key other ids', () => {
  const a = expandInput({ event: 'PreToolUse', key: 'one', projectDir: '/p', tool: 'Bash' });
  assert.deepEqual(a, expandInput({ event: 'PreToolUse', key: 'one', projectDir: '/p', tool: 'Bash' }));
  assert.notEqual(
    a.session_id,
    expandInput({ event: 'PreToolUse', key: 'two', projectDir: '/p', tool: 'Bash' }).session_id,
  );
});

test('MCP tools get mcp_server; PostToolUse takes toolResponse; Stop gets stop_hook_active', () => {
  const mcp = expandInput({
    event: 'PreToolUse',
    key: 'k',
    projectDir: '/p',
    tool: 'mcp__demo__echo',
    toolInput: { text: 'hi' },
  });
  assert.deepEqual(mcp.mcp_server, { name: 'demo' });
  const post = expandInput({
    event: 'PostToolUse',
    key: 'k',
    projectDir: '/p',
    tool: 'Write',
    toolResponse: { filePath: '${CLAUDE_PROJECT_DIR}/a' },
  });
  assert.deepEqual(post.tool_response, { filePath: '/p/a' });
  const stop = expandInput({ event: 'Stop', key: 'k', projectDir: '/p' });
  assert.doesNotThrow(() => parseInput('Stop', JSON.stringify(stop)));
  assert.equal(
    'permission_mode' in
      expandInput({ event: 'SessionStart', key: 'k', projectDir: '/p', input: { source: 'startup' } }),
    false,
  );
});

test('${CLAUDE_PROJECT_DIR} in tool inputs and inputs is the project folder; input fields win over the defaults', () => {
  const input = expandInput({
    event: 'PreToolUse',
    key: 'k',
    projectDir: '/work/repo',
    tool: 'Edit',
    toolInput: { file_path: '${CLAUDE_PROJECT_DIR}/src/a.ts', edits: ['${CLAUDE_PROJECT_DIR}'] },
    input: { permission_mode: 'plan', agent_id: 'a1', extra: '${CLAUDE_PROJECT_DIR}' },
  });
  assert.deepEqual(input.tool_input, { file_path: '/work/repo/src/a.ts', edits: ['/work/repo'] });
  assert.equal(input.permission_mode, 'plan');
  assert.equal(input.extra, '/work/repo');
});

test('a full real input given as input stays as it is', () => {
  for (const name of ['PreToolUse.tool_name-Bash', 'UserPromptSubmit', 'Stop', 'PostToolUse.tool_name-Write']) {
    const fixture = real(name);
    const event = String(fixture.hook_event_name) as EventName;
    assert.deepEqual(expandInput({ event, key: 'k', projectDir: '/p', input: fixture }), { ...fixture });
  }
});

test('a partial input that names its tool, without the tool shorthand, gets the generated tool fields too', () => {
  const input = expandInput({
    event: 'PreToolUse',
    key: 'k',
    projectDir: '/p',
    home: '/h',
    input: { tool_name: 'Bash', tool_input: { command: 'ls ${CLAUDE_PROJECT_DIR}' } },
  });
  assert.match(String(input.tool_use_id), /^toolu_[0-9a-f]{24}$/);
  assert.deepEqual(input.tool_input, { command: 'ls /p' });
  assert.doesNotThrow(() => parseInput('PreToolUse', JSON.stringify(input)));
  const mcp = expandInput({
    event: 'PostToolUse',
    key: 'k',
    projectDir: '/p',
    input: { tool_name: 'mcp__demo__echo', tool_input: {} },
  });
  assert.deepEqual(mcp.mcp_server, { name: 'demo' });
  assert.deepEqual(mcp.tool_response, {});
});
