import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { renderTranscript } from '../../src/llm/transcript.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'peri-transcript-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (type: string, content: unknown) => JSON.stringify({ type, message: { role: type, content } });

test('renders user and assistant turns, tool calls and results; skips the rest', async () => {
  const file = path.join(dir, 't.jsonl');
  await writeFile(
    file,
    [
      entry('user', 'hi'),
      entry('assistant', [
        { type: 'thinking', thinking: 'hidden' },
        { type: 'tool_use', name: 'Read', input: { file_path: 'a' } },
      ]),
      entry('user', [{ type: 'tool_result', content: 'x'.repeat(5000), is_error: true }]),
      JSON.stringify({ type: 'system', content: 'skip' }),
    ].join('\n'),
  );
  const text = await renderTranscript(file);
  assert.match(
    text,
    /^<transcript>\nuser: hi\n\nassistant: \[tool call Read\] \{"file_path":"a"\}\n\nuser: \[tool result, error\] x+… \[cut\]\n<\/transcript>$/,
  );
  assert.ok(text.length < 2200);
  assert.doesNotMatch(text, /hidden|skip/);
});

test('cut from the front at a turn boundary, with a note', async () => {
  const file = path.join(dir, 'long.jsonl');
  await writeFile(file, Array.from({ length: 100 }, (_, i) => entry('user', `turn ${i} ${'y'.repeat(50)}`)).join('\n'));
  const text = await renderTranscript(file, 1000);
  assert.match(
    text,
    /^<transcript>\n\[The beginning of the transcript was cut to fit; earlier messages are omitted.\]\n\nuser: turn \d+ /,
  );
  assert.match(text, /user: turn 99 y+\n<\/transcript>$/);
  assert.doesNotMatch(text, /turn 0 /);
  assert.ok(text.length < 1200);
});

test('no path, or an unreadable file, gives a note', async () => {
  assert.match(await renderTranscript(''), /no transcript_path/);
  assert.match(await renderTranscript(undefined), /no transcript_path/);
  assert.match(await renderTranscript(dir), /could not be read: EISDIR/);
});
