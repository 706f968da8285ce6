// A fake Gemini API (generativelanguage v1beta) on 127.0.0.1 for the real Gemini CLI: `…:streamGenerateContent?alt=sse`
// (the agent's main loop: the request declares the tools), `…:generateContent` (Gemini CLI's side calls, which
// declare none: in 0.61, one routing-classifier call per prompt that asks for JSON with a `complexity_score`; the
// next-speaker and loop checks would come the same way) and `…:countTokens`, in the real wire format (candidates →
// content → parts with text or functionCall, usageMetadata). With usage statistics off, Gemini CLI 0.61 sent
// nothing else to the base URL in test:hosts.
import type http from 'node:http';
import { type FakeMessagesApi, type RecordedRequest, startRecordingServer } from './messages-api-server.ts';

export interface FunctionCall {
  name: string;
  args: Record<string, unknown>;
}

/** One answer of the model: text, function calls, or an API error. */
export type GeminiTurn = { text?: string; calls?: FunctionCall[] } | { status: number; error: string };

/** Picks the answer to a main-loop request; `index` counts those only. Undefined answers "done". */
export type GeminiScript =
  | readonly GeminiTurn[]
  | ((request: RecordedRequest, index: number) => GeminiTurn | undefined);

export interface FakeGeminiApi extends FakeMessagesApi {
  /** The main-loop requests (streamGenerateContent with the agent's tools), in order. */
  turns: RecordedRequest[];
  /** Every other request (generateContent side calls, countTokens, anything else), in order. */
  side: RecordedRequest[];
}

export async function startGeminiApi(script: GeminiScript): Promise<FakeGeminiApi> {
  const turns: RecordedRequest[] = [];
  const side: RecordedRequest[] = [];
  const server = await startRecordingServer((request, _index, res) => {
    const path = request.path.split('?')[0] ?? '';
    const model = /\/models\/([^:/]+):/.exec(path)?.[1] ?? 'gemini-fake';
    if (request.method === 'POST' && path.endsWith(':countTokens')) {
      side.push(request);
      json(res, 200, { totalTokens: 10 });
      return;
    }
    if (request.method === 'POST' && path.endsWith(':streamGenerateContent') && isMainLoop(request)) {
      const index = turns.push(request) - 1;
      const turn = (typeof script === 'function' ? script(request, index) : script[index]) ?? { text: 'done' };
      if ('status' in turn) {
        json(res, turn.status, { error: { code: turn.status, message: turn.error, status: 'INTERNAL' } });
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(response(turn, model))}\n\n`);
      res.end();
      return;
    }
    if (request.method === 'POST' && (path.endsWith(':generateContent') || path.endsWith(':streamGenerateContent'))) {
      side.push(request);
      const answer = response({ text: sideAnswer(request) }, model);
      if (path.endsWith(':generateContent')) json(res, 200, answer);
      else {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(answer)}\n\n`);
      }
      return;
    }
    side.push(request);
    json(res, 404, {
      error: { code: 404, message: `Not found: ${request.method} ${request.path}`, status: 'NOT_FOUND' },
    });
  });
  return { ...server, turns, side };
}

/** A main-loop request declares the agent's tools; Gemini CLI's side calls declare none. */
function isMainLoop(request: RecordedRequest): boolean {
  const tools: Array<{ functionDeclarations?: unknown[] }> = request.body?.tools ?? [];
  return tools.some((tool) => (tool.functionDeclarations?.length ?? 0) > 0);
}

/** A side call that asks for JSON gets the answer that lets the main loop go on as it is. */
function sideAnswer(request: RecordedRequest): string {
  const config = request.body?.generationConfig ?? {};
  if (config.responseMimeType !== 'application/json') return 'ok';
  const schema = JSON.stringify(config.responseJsonSchema ?? config.responseSchema ?? {});
  if (schema.includes('next_speaker')) return JSON.stringify({ reasoning: 'the model answered', next_speaker: 'user' });
  if (schema.includes('complexity_score'))
    return JSON.stringify({ complexity_reasoning: 'a simple task', complexity_score: 10 });
  if (schema.includes('model_choice')) return JSON.stringify({ reasoning: 'a simple task', model_choice: 'flash' });
  return '{}';
}

function response(turn: { text?: string; calls?: FunctionCall[] }, model: string): object {
  const parts = [
    ...(turn.text ? [{ text: turn.text }] : []),
    ...(turn.calls ?? []).map((call) => ({ functionCall: { name: call.name, args: call.args } })),
  ];
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
    modelVersion: model,
    responseId: `resp-${Math.random().toString(36).slice(2)}`,
  };
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Every text part the model was sent in a request (user turns, function responses as JSON), for "what the model saw". */
export function geminiTexts(request: RecordedRequest): string[] {
  const contents: Array<{ parts?: Array<{ text?: string; functionResponse?: unknown }> }> =
    request.body?.contents ?? [];
  return contents.flatMap((content) =>
    (content.parts ?? []).flatMap((part) =>
      part.text !== undefined
        ? [part.text]
        : part.functionResponse !== undefined
          ? [JSON.stringify(part.functionResponse)]
          : [],
    ),
  );
}
