// Reading transcripts and rebuilding hook inputs from them.

import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { parseInput } from '../../src/input/parse.ts';
import { postInput, preToolUseInput } from '../../src/replay/rebuild.ts';
import { parseTranscript, resultText } from '../../src/replay/transcript.ts';
import { transcriptLines } from './build.ts';

const lines = transcriptLines(
  '/home/dev/project',
  [
    [
      {
        id: 'toolu_1',
        name: 'Bash',
        input: { command: 'git status' },
        result: { content: 'clean', structured: { stdout: 'clean', stderr: '', interrupted: false } },
      },
    ],
    'this is not json',
    '[1, 2]',
    [
      {
        id: 'toolu_2',
        name: 'Write',
        input: { file_path: '/home/dev/project/a.txt', content: 'x' },
        result: { content: [{ type: 'text', text: 'denied' }], isError: true },
      },
      { id: 'toolu_3', name: 'mcp__demo__echo', input: { text: 'hi' } },
    ],
    JSON.stringify({
      type: 'assistant',
      sessionId: 's',
      cwd: '/c',
      message: { content: [{ type: 'tool_use', id: 'toolu_4', name: 'Bash' }] },
    }),
    '',
  ],
  'session-1',
);

test('tool calls with their results; malformed lines with their line numbers', () => {
  const parsed = parseTranscript(lines.join('\n'), 'session.jsonl');
  assert.deepEqual(
    parsed.calls.map((call) => [call.id, call.name, call.line, call.result?.line, call.result?.isError]),
    [
      ['toolu_1', 'Bash', 2, 3, false],
      ['toolu_2', 'Write', 6, 7, true],
      ['toolu_3', 'mcp__demo__echo', 6, undefined, undefined],
    ],
  );
  assert.deepEqual(
    parsed.malformed.map((entry) => [entry.line, entry.message.replace(/:.*/, '')]),
    [
      [4, 'not valid JSON'],
      [5, 'not a JSON object'],
      [8, 'a tool_use block without a string id, a string name and an object input'],
    ],
  );
  assert.equal(parsed.calls[0]!.permissionMode, 'acceptEdits');
  assert.equal(parsed.calls[0]!.sessionId, 'session-1');
});

test('rebuilt PreToolUse, PostToolUse and PostToolUseFailure inputs are valid and carry the recorded fields', () => {
  const [bash, write, mcp] = parseTranscript(lines.join('\n'), 'session.jsonl').calls;
  const pre = preToolUseInput(bash!);
  assert.deepEqual(parseInput('PreToolUse', JSON.stringify(pre)), {
    session_id: 'session-1',
    transcript_path: resolve('session.jsonl'),
    cwd: '/home/dev/project',
    permission_mode: 'acceptEdits',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'git status' },
    tool_use_id: 'toolu_1',
  });
  const post = postInput(bash!)!;
  assert.equal(post.event, 'PostToolUse');
  assert.deepEqual(post.input.tool_response, { stdout: 'clean', stderr: '', interrupted: false });
  assert.doesNotThrow(() => parseInput('PostToolUse', JSON.stringify(post.input)));
  const failure = postInput(write!)!;
  assert.equal(failure.event, 'PostToolUseFailure');
  assert.equal(failure.input.error, 'denied');
  assert.doesNotThrow(() => parseInput('PostToolUseFailure', JSON.stringify(failure.input)));
  assert.equal(postInput(mcp!), undefined);
  assert.deepEqual(preToolUseInput(mcp!).mcp_server, { name: 'demo' });
});

test('tool_result content: a string, text blocks, or anything else as JSON', () => {
  assert.equal(resultText('plain'), 'plain');
  assert.equal(resultText([{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }]), 'a\nb');
  assert.equal(resultText({ odd: true }), '{"odd":true}');
  assert.equal(resultText(undefined), '');
});

test('subagent lines carry agent_id', () => {
  const line = JSON.stringify({
    type: 'assistant',
    isSidechain: true,
    agentId: 'a4df',
    sessionId: 's',
    cwd: '/c',
    message: { content: [{ type: 'tool_use', id: 't', name: 'Read', input: { file_path: '/c/x' } }] },
  });
  const [call] = parseTranscript(line, 'agent-a4df.jsonl').calls;
  assert.equal(preToolUseInput(call!).agent_id, 'a4df');
});
