// The conversation transcript for stop-condition prompts (§5.5): the JSONL file rendered as plain turns,
// cut from the front so that the most recent turns, which decide whether the work is done, always fit.
import { open } from 'node:fs/promises';

/** About half the 200k-token window of a Haiku-class evaluator, at ~4 characters a token. */
export const TRANSCRIPT_BUDGET_CHARS = 400_000;
/** Raw JSONL carries ids and timestamps the rendering drops, so read more than the budget. */
const RAW_FACTOR = 4;
/** One huge tool result must not push the rest of the conversation out. */
const BLOCK_CAP = 2000;

export async function renderTranscript(path: unknown, budget = TRANSCRIPT_BUDGET_CHARS): Promise<string> {
  if (typeof path !== 'string' || path === '')
    return '(No transcript is available: the hook input has no transcript_path.)';
  let raw: string;
  let cutRaw: boolean;
  try {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      const length = Math.min(size, budget * RAW_FACTOR);
      const buffer = Buffer.alloc(length);
      await file.read(buffer, 0, length, size - length);
      raw = buffer.toString('utf8');
      cutRaw = length < size;
    } finally {
      await file.close();
    }
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    return `(No transcript is available: ${path} could not be read: ${code}.)`;
  }
  const lines = raw.split('\n');
  if (cutRaw) lines.shift(); // partial first line
  const turns = lines.map(renderLine).filter((turn): turn is string => turn !== undefined);
  let text = turns.join('\n\n');
  let cut = cutRaw;
  if (text.length > budget) {
    const start = text.indexOf('\n\n', text.length - budget);
    text = start === -1 ? text.slice(text.length - budget) : text.slice(start + 2);
    cut = true;
  }
  const note = cut ? '[The beginning of the transcript was cut to fit; earlier messages are omitted.]\n\n' : '';
  return `<transcript>\n${note}${text}\n</transcript>`;
}

function renderLine(line: string): string | undefined {
  if (!line.trim()) return undefined;
  let entry: { type?: unknown; message?: { role?: unknown; content?: unknown } };
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (entry.type !== 'user' && entry.type !== 'assistant') return undefined;
  const content = entry.message?.content;
  const parts = typeof content === 'string' ? [content] : Array.isArray(content) ? content.map(renderBlock) : [];
  const body = parts.filter(Boolean).join('\n');
  return body ? `${entry.type}: ${body}` : undefined;
}

function renderBlock(block: {
  type?: unknown;
  text?: unknown;
  name?: unknown;
  input?: unknown;
  content?: unknown;
  is_error?: unknown;
}): string {
  if (block.type === 'text' && typeof block.text === 'string') return block.text;
  if (block.type === 'tool_use') return cap(`[tool call ${String(block.name)}] ${JSON.stringify(block.input)}`);
  if (block.type === 'tool_result') {
    const content = typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
    return cap(`[tool result${block.is_error === true ? ', error' : ''}] ${content}`);
  }
  return ''; // thinking, images…: not evidence of the work itself
}

function cap(text: string): string {
  return text.length > BLOCK_CAP ? `${text.slice(0, BLOCK_CAP)}… [cut]` : text;
}
