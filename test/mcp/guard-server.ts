// A real MCP server for the mcp_tool tests, built with the official server SDK. Every tool answers as a hook
// would (see TOOLS); `hang` never answers, and starts a child so that the tests can see the whole process
// tree go. Every start and call is appended to $GUARD_LOG as one JSON line.
// Usage: node guard-server.ts stdio | mute (never answers) | node guard-server.ts http <port-file> (Streamable HTTP at /mcp, legacy
// SSE at /sse, 401 with an OAuth challenge everywhere else).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import {
  type JSONRPCMessage,
  ProtocolError,
  Server,
  type Transport,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const log = (entry: Record<string, unknown>) => {
  if (process.env.GUARD_LOG)
    appendFileSync(process.env.GUARD_LOG, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
};

type Args = Record<string, unknown>;
type ToolResult = {
  content: Array<{ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};
const text = (...blocks: string[]): ToolResult => ({ content: blocks.map((block) => ({ type: 'text', text: block })) });
const permission = (args: Args, fields: Record<string, unknown>) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: String(args.event ?? 'PreToolUse'), ...fields } });

const TOOLS: Record<string, (args: Args, signal: AbortSignal) => ToolResult | Promise<ToolResult>> = {
  // The deny JSON split across two text blocks (between tokens): the runner joins them with a newline.
  deny: (args) => {
    const json = permission(args, { permissionDecision: 'deny', permissionDecisionReason: 'denied by guard' });
    const cut = json.indexOf('{', 1);
    return text(json.slice(0, cut), json.slice(cut));
  },
  allow: (args) =>
    text(permission(args, { permissionDecision: 'allow', permissionDecisionReason: 'allowed by guard' })),
  rewrite: (args) =>
    text(permission(args, { permissionDecision: 'allow', updatedInput: { command: 'echo rewritten' } })),
  block: () => text(JSON.stringify({ decision: 'block', reason: 'blocked by guard' })),
  context: (args) =>
    text(
      JSON.stringify({
        hookSpecificOutput: { hookEventName: String(args.event), additionalContext: 'context from guard' },
      }),
    ),
  // A deny inside an isError result must not be honoured.
  fail: () => ({ ...text(JSON.stringify({ decision: 'block', reason: 'must not be honoured' })), isError: true }),
  plain: () => text('just some words'),
  // Starts like JSON, is none: plain text.
  'brace-then-words': () => text('{"decision": "block"} and some words'),
  empty: () => text('{}'),
  echo: (args) => text(`received ${JSON.stringify(args)}`),
  // structuredContent beside (or instead of) the text: the text is the answer that is judged.
  'structured-only': (args) => ({
    content: [],
    structuredContent: JSON.parse(
      permission(args, { permissionDecision: 'deny', permissionDecisionReason: 'denied by structuredContent' }),
    ),
  }),
  'structured-beside-plain': (args) => ({
    ...text('just some words'),
    structuredContent: JSON.parse(
      permission(args, { permissionDecision: 'deny', permissionDecisionReason: 'denied by structuredContent' }),
    ),
  }),
  'structured-beside-json': (args) => ({
    ...text(permission(args, { permissionDecision: 'deny', permissionDecisionReason: 'denied by the text' })),
    structuredContent: { verdict: 'allow' },
  }),
  // JSON that is no hook output: no hook field, or only `reason`.
  'no-hook-fields': () => text(JSON.stringify({ verdict: 'ok' })),
  'reason-only': () => text(JSON.stringify({ reason: 'a reason alone' })),
  'empty-text': () => text(''),
  // A 1x1 PNG and no text.
  image: () => ({
    content: [
      {
        type: 'image',
        mimeType: 'image/png',
        data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      },
    ],
  }),
  // Hostile answers: a deny over the client's 10 MiB line limit; as much output with no line end, then silence;
  // a failure whose text holds terminal escape sequences.
  huge: (args) =>
    text(permission(args, { permissionDecision: 'deny', permissionDecisionReason: 'x'.repeat(11 * 1024 * 1024) })),
  unterminated: () =>
    new Promise(() => {
      process.stdout.write('x'.repeat(11 * 1024 * 1024));
    }),
  escapes: () => ({ ...text('\u001b]0;pwned\u0007\u001b[2J\u001b[31mred\rover'), isError: true }),
  'escapes-deny': (args) =>
    text(
      permission(args, {
        permissionDecision: 'deny',
        permissionDecisionReason: 'denied \u001b]0;pwned\u0007\u001b[2Jby guard',
      }),
    ),
  hang: (_args, signal) =>
    new Promise(() => {
      const child = spawn('sleep', ['300'], { stdio: 'ignore' });
      log({ event: 'hang', child: child.pid });
      signal.addEventListener('abort', () => log({ event: 'cancelled' }), { once: true });
    }),
};

function guardServer(): Server {
  const server = new Server({ name: 'guard', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: Object.keys(TOOLS).map((name) => ({ name, inputSchema: { type: 'object' as const } })),
  }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args = {} } = request.params;
    log({ event: 'call', tool: name, arguments: args });
    const tool = TOOLS[name];
    // As the server Claude Code was observed with: the JSON-RPC error's message is the hook's error text.
    if (!tool) throw new ProtocolError(-32602, `unknown tool ${name}`);
    return tool(args, ctx.mcpReq.signal);
  });
  return server;
}

/** The legacy HTTP+SSE transport, which the v2 server SDK no longer ships: messages out as SSE events, in as POSTs. */
class LegacySseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly response: ServerResponse;

  constructor(response: ServerResponse) {
    this.response = response;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.response.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    this.response.end();
    this.onclose?.();
  }
}

log({
  event: 'start',
  mode: process.argv[2],
  env: process.env.GUARD_ENV_PROBE,
  projectDir: process.env.CLAUDE_PROJECT_DIR,
  cwd: process.cwd(),
});
if (process.argv[2] === 'http') {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const sseSessions = new Map<string, LegacySseTransport>();
  const http = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://127.0.0.1');
    if (url.pathname !== '/mcp' && url.pathname !== '/sse' && url.pathname !== '/messages') {
      // A server behind OAuth (/needs-auth), and the discovery a client doing OAuth would try next.
      log({ event: 'request', method: req.method, path: url.pathname });
      res
        .writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="http://${req.headers.host}/.well-known/oauth-protected-resource"`,
        })
        .end();
      return;
    }
    if (url.pathname === '/sse') {
      log({ event: 'request', method: req.method, header: req.headers['x-guard'] });
      const id = randomUUID();
      const transport = new LegacySseTransport(res);
      sseSessions.set(id, transport);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(`event: endpoint\ndata: /messages?sessionId=${id}\n\n`);
      await guardServer().connect(transport);
      return;
    }
    if (url.pathname === '/messages') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      res.writeHead(202).end();
      sseSessions
        .get(url.searchParams.get('sessionId') ?? '')
        ?.onmessage?.(JSON.parse(Buffer.concat(chunks).toString('utf8')) as JSONRPCMessage);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!transport) {
      const fresh = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => {
          sessions.set(id, fresh);
        },
      });
      await guardServer().connect(fresh);
      transport = fresh;
    }
    log({ event: 'request', method: req.method, header: req.headers['x-guard'] });
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream);
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method!,
      headers: req.headers as Record<string, string>,
      ...(body ? { body, duplex: 'half' } : {}),
    });
    const response = await transport.handleRequest(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return res.end();
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  http.listen(0, '127.0.0.1', () => {
    const address = http.address();
    writeFileSync(process.argv[3]!, String(typeof address === 'object' && address ? address.port : 0));
  });
} else if (process.argv[2] === 'mute') {
  // Started, but never answers initialize: a server that does not connect.
  process.stdin.resume();
} else {
  await guardServer().connect(new StdioServerTransport());
}
