// A fake Anthropic Messages API on 127.0.0.1 that follows a script, one step per request, and checks what it
// receives the way the real API does (version header, roles, tool_use answered by tool_result…).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HookHandler } from '../../src/config/schema.ts';
import type { EventName } from '../../src/events.ts';
import type { LoadedHook, RunContext } from '../../src/types.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (undefined when it was not JSON). */
  body: any;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON; a `message` without `model` gets the requested model. */
  body?: unknown;
  /** Sent as is, instead of `body`. */
  raw?: string;
}

/** `hang`: never answer (the connection stays open until the client gives up or the server closes). */
export type Step = Reply | 'hang' | ((request: RecordedRequest) => Reply | 'hang');

export interface FakeMessagesApi {
  /** Base URL, for ANTHROPIC_BASE_URL. */
  url: string;
  requests: RecordedRequest[];
  close: () => Promise<void>;
}

export async function startMessagesApi(
  script: readonly Step[] | ((request: RecordedRequest, index: number) => Step),
): Promise<FakeMessagesApi> {
  return startRecordingServer((request, index, res) => {
    const invalid = checkRequest(request);
    let step: Step | undefined = invalid ?? (typeof script === 'function' ? script(request, index) : script[index]);
    if (step === undefined) step = apiError(500, 'api_error', `fake server: no step ${index} in the script`);
    if (typeof step === 'function') step = step(request);
    if (step === 'hang') return;
    send(res, step, request);
  });
}

/** A server on 127.0.0.1 that records every request (body parsed as JSON when it is JSON) before `answer` answers it. */
export async function startRecordingServer(
  answer: (request: RecordedRequest, index: number, res: http.ServerResponse) => void,
): Promise<FakeMessagesApi> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const request: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      answer(request, requests.push(request) - 1, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: http.ServerResponse, reply: Reply, request: RecordedRequest): void {
  let payload = reply.raw;
  if (payload === undefined) {
    const body = reply.body as { type?: string; model?: string } | undefined;
    payload = JSON.stringify(
      body?.type === 'message' && !body.model ? { ...body, model: request.body?.model } : (body ?? {}),
    );
  }
  res.writeHead(reply.status ?? 200, {
    'content-type': 'application/json',
    'request-id': 'req_fake',
    ...reply.headers,
  });
  res.end(payload);
}

/** Sends an assistant message as the Messages API streams it (`stream: true`): server-sent events, block by block. */
export function streamMessage(res: http.ServerResponse, reply: Reply, request: RecordedRequest): void {
  const { content, stop_reason, stop_sequence, usage, ...head } = reply.body as {
    content: Array<{ type: string; text?: string; input?: unknown }>;
    stop_reason: string;
    stop_sequence: null;
    usage: object;
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_fake' });
  const event = (type: string, data: object) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event('message_start', {
    message: { ...head, model: request.body?.model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      event('content_block_start', { index, content_block: { ...block, input: {} } });
      event('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    event('content_block_stop', { index });
  });
  event('message_delta', { delta: { stop_reason, stop_sequence }, usage: { output_tokens: 10 } });
  event('message_stop', {});
  res.end();
}

/** The checks the real API makes before it answers, as 400/404 errors in its own shape. */
function checkRequest(request: RecordedRequest): Reply | undefined {
  if (request.method !== 'POST' || request.path !== '/v1/messages')
    return apiError(404, 'not_found_error', `Not found: ${request.method} ${request.path}`);
  if (!request.headers['anthropic-version'])
    return apiError(400, 'invalid_request_error', 'anthropic-version: header is required');
  if (!String(request.headers['content-type']).startsWith('application/json'))
    return apiError(400, 'invalid_request_error', 'content-type must be application/json');
  const body = request.body;
  if (!body || typeof body !== 'object') return apiError(400, 'invalid_request_error', 'the body is not JSON');
  if (typeof body.model !== 'string' || !body.model)
    return apiError(400, 'invalid_request_error', 'model: Field required');
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    return apiError(400, 'invalid_request_error', 'max_tokens: Field required');
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return apiError(400, 'invalid_request_error', 'messages: at least one message is required');
  const tools: Array<{ name: string }> = body.tools ?? [];
  if (body.tool_choice?.type === 'tool' && !tools.some((tool) => tool.name === body.tool_choice.name)) {
    return apiError(400, 'invalid_request_error', `tool_choice: tool ${body.tool_choice.name} is not in tools`);
  }
  for (let i = 0; i < body.messages.length; i++) {
    const message = body.messages[i];
    if (message.role !== (i % 2 === 0 ? 'user' : 'assistant'))
      return apiError(400, 'invalid_request_error', `messages.${i}: roles must alternate, starting with user`);
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    const ids = message.content
      .filter((block: { type: string }) => block.type === 'tool_use')
      .map((block: { id: string }) => block.id);
    const next = body.messages[i + 1];
    const answered = new Set(
      Array.isArray(next?.content)
        ? next.content
            .filter((b: { type: string }) => b.type === 'tool_result')
            .map((b: { tool_use_id: string }) => b.tool_use_id)
        : [],
    );
    if (next && ids.some((id: string) => !answered.has(id))) {
      return apiError(
        400,
        'invalid_request_error',
        `messages.${i + 1}: tool_use ids were found without tool_result blocks immediately after`,
      );
    }
  }
  return undefined;
}

let nextId = 1;

export const text = (value: string) => ({ type: 'text', text: value });

export const toolUse = (name: string, input: unknown, id = `toolu_${String(nextId++).padStart(4, '0')}`) => ({
  type: 'tool_use',
  id,
  name,
  input,
});

export function message(content: unknown[], stopReason = 'end_turn'): Reply {
  return {
    body: {
      id: `msg_${String(nextId++).padStart(4, '0')}`,
      type: 'message',
      role: 'assistant',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 10 },
    },
  };
}

/** The prompt hook's forced answer. */
export const verdict = (input: unknown): Reply => message([toolUse('verdict', input)], 'tool_use');

export function apiError(status: number, type: string, text: string, headers?: Record<string, string>): Reply {
  const reply: Reply = { status, body: { type: 'error', error: { type, message: text }, request_id: 'req_fake' } };
  if (headers) reply.headers = headers;
  return reply;
}

export const API_KEY = 'sk-ant-test-0123456789abcdefSECRET';

/** A hook as the loader would produce it. */
export function loadedHook(event: EventName, handler: HookHandler): LoadedHook {
  return {
    id: `project:/project/.claude/settings.json#/hooks/${event}/0/hooks/0`,
    event,
    handler,
    provenance: { layer: 'project', file: '/project/.claude/settings.json', pointer: `/hooks/${event}/0/hooks/0` },
  };
}

/** A RunContext pointed at the fake server; `warnings` collects ctx.warn. */
export function hookContext(
  api: { url: string },
  event: EventName,
  options: {
    input?: Record<string, unknown>;
    env?: Record<string, string | undefined>;
    timeoutMs?: number;
    signal?: AbortSignal;
    projectDir?: string;
  } = {},
): RunContext & { warnings: string[] } {
  const input = {
    session_id: 's1',
    transcript_path: '',
    cwd: options.projectDir ?? '/project',
    hook_event_name: event,
    ...options.input,
  };
  const warnings: string[] = [];
  return {
    event,
    input,
    inputJson: JSON.stringify(input),
    projectDir: options.projectDir ?? '/project',
    cwd: options.projectDir ?? '/project',
    env: { ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: API_KEY, ...options.env },
    timeoutMs: options.timeoutMs ?? 10_000,
    settings: { disableAllHooks: false, allowManagedHooksOnly: false },
    signal: options.signal ?? new AbortController().signal,
    warn: (text) => warnings.push(text),
    warnings,
  };
}
