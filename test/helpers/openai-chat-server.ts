// A fake OpenAI Chat Completions API on 127.0.0.1 (`POST …/chat/completions`, streamed or not, and `GET …/models`)
// that answers from a script, for the agents that speak it (Copilot CLI in BYOK mode, Qwen Code, opencode).
import type http from 'node:http';
import { type FakeMessagesApi, type RecordedRequest, startRecordingServer } from './messages-api-server.ts';

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  id?: string;
}

/** One answer of the model: text, tool calls, or an API error. */
export type ChatTurn = { text?: string; toolCalls?: ToolCall[] } | { status: number; error: string };

/** Picks the answer to a chat request; `index` counts chat requests only. Undefined answers "done". */
export type ChatScript = readonly ChatTurn[] | ((request: RecordedRequest, index: number) => ChatTurn | undefined);

export interface FakeChatApi extends FakeMessagesApi {
  /** The chat requests alone, in order. */
  chats: RecordedRequest[];
}

let nextId = 1;

export async function startChatApi(script: ChatScript, model = 'fake-model'): Promise<FakeChatApi> {
  const chats: RecordedRequest[] = [];
  const server = await startRecordingServer((request, _index, res) => {
    const path = request.path.split('?')[0] ?? '';
    if (request.method === 'GET' && path.endsWith('/models')) {
      json(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'fake' }] });
      return;
    }
    if (request.method !== 'POST' || !path.endsWith('/chat/completions')) {
      json(res, 404, {
        error: { message: `Not found: ${request.method} ${request.path}`, type: 'invalid_request_error' },
      });
      return;
    }
    const index = chats.push(request) - 1;
    const turn = (typeof script === 'function' ? script(request, index) : script[index]) ?? { text: 'done' };
    if ('status' in turn) {
      json(res, turn.status, { error: { message: turn.error, type: 'api_error', code: null } });
      return;
    }
    answer(res, turn, request.body?.model ?? model, request.body?.stream === true);
  });
  return { ...server, chats };
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function answer(
  res: http.ServerResponse,
  turn: { text?: string; toolCalls?: ToolCall[] },
  model: string,
  stream: boolean,
): void {
  const id = `chatcmpl-${nextId++}`;
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = (turn.toolCalls ?? []).map((call, index) => ({
    index,
    id: call.id ?? `call_${String(nextId++).padStart(4, '0')}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
  if (!stream) {
    const message = {
      role: 'assistant',
      content: turn.text ?? null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls.map(({ index: _, ...call }) => call) } : {}),
    };
    json(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: object, finishReason: string | null, extra: object = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' }, null);
  if (turn.text) chunk({ content: turn.text }, null);
  for (const call of toolCalls) chunk({ tool_calls: [call] }, null);
  chunk({}, finish, { usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** The text of every message the model was sent in a chat request, for "what the model saw" checks. */
export function chatTexts(request: RecordedRequest): string[] {
  const messages: Array<{ content?: unknown }> = request.body?.messages ?? [];
  return messages.flatMap((message) => {
    if (typeof message.content === 'string') return [message.content];
    if (Array.isArray(message.content))
      return message.content.map((part: { text?: string }) => part.text ?? '').filter(Boolean);
    return [];
  });
}
