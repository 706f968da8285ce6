// A fake OpenAI Responses API on 127.0.0.1 (`POST …/responses`, streamed as SSE) that answers from a script,
// for Codex CLI (`wire_api = "responses"`). Every other request is a 404 and is recorded too.
import type http from 'node:http';
import { type FakeMessagesApi, type RecordedRequest, startRecordingServer } from './messages-api-server.ts';

/** A call the model makes: a function tool with JSON arguments, or a custom (freeform) tool with text input. */
export type ResponsesCall = { name: string; arguments: Record<string, unknown> } | { name: string; input: string };

/** One answer of the model: text and/or tool calls, or an API error (an HTTP status with its message). */
export interface ResponsesTurn {
  text?: string;
  calls?: ResponsesCall[];
  error?: { status: number; message: string };
}

/** Picks the answer to a model request; `index` counts model requests only. Undefined answers "done". */
export type ResponsesScript =
  | readonly ResponsesTurn[]
  | ((request: RecordedRequest, index: number) => ResponsesTurn | undefined);

export interface FakeResponsesApi extends FakeMessagesApi {
  /** The model requests alone, in order. */
  turns: RecordedRequest[];
}

let nextId = 1;

export async function startResponsesApi(script: ResponsesScript): Promise<FakeResponsesApi> {
  const turns: RecordedRequest[] = [];
  const server = await startRecordingServer((request, _index, res) => {
    const path = request.path.split('?')[0] ?? '';
    if (request.method !== 'POST' || !path.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: `Not found: ${request.method} ${request.path}`, type: 'invalid_request_error' },
        }),
      );
      return;
    }
    const index = turns.push(request) - 1;
    const turn = (typeof script === 'function' ? script(request, index) : script[index]) ?? { text: 'done' };
    if (turn.error) {
      res.writeHead(turn.error.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: turn.error.message, type: 'invalid_request_error', code: null } }));
      return;
    }
    stream(res, turn, request.body?.model ?? 'fake-model');
  });
  return { ...server, turns };
}

function stream(res: http.ServerResponse, turn: ResponsesTurn, model: string): void {
  const id = `resp_${nextId++}`;
  const items: object[] = [];
  if (turn.text !== undefined)
    items.push({
      type: 'message',
      id: `msg_${nextId++}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  for (const call of turn.calls ?? []) {
    const callId = `call_${nextId++}`;
    items.push(
      'input' in call
        ? {
            type: 'custom_tool_call',
            id: `ctc_${nextId++}`,
            status: 'completed',
            call_id: callId,
            name: call.name,
            input: call.input,
          }
        : {
            type: 'function_call',
            id: `fc_${nextId++}`,
            status: 'completed',
            call_id: callId,
            name: call.name,
            arguments: JSON.stringify(call.arguments),
          },
    );
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const event = (type: string, data: object) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const response = { id, object: 'response', model, status: 'in_progress', output: [] as object[] };
  event('response.created', { response });
  items.forEach((item, output_index) => {
    event('response.output_item.added', { output_index, item });
    event('response.output_item.done', { output_index, item });
  });
  event('response.completed', {
    response: {
      ...response,
      status: 'completed',
      output: items,
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 20,
      },
    },
  });
  res.end();
}

/** Every text the model was sent in a request (instructions and input items), for "what the model saw" checks. */
export function responsesText(request: RecordedRequest): string {
  return JSON.stringify([request.body?.instructions ?? '', request.body?.input ?? []]);
}
