// A stdio MCP server for the real agents' MCP cases: one tool, `ping_me {text}`, that leaves a mark file (so a
// test sees whether the call ran) and answers `PONG:<text>`. Newline-delimited JSON-RPC, as the MCP stdio
// transport is; written into the run folder and started by the agent with this Node.
import { join } from 'node:path';
import type { RunFolder } from './common.ts';

const SERVER = `
const { appendFileSync } = require('node:fs');
const [mark] = process.argv.slice(2);
let buffer = '';
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const answers = {
  initialize: (params) => ({
    protocolVersion: params.protocolVersion,
    capabilities: { tools: {} },
    serverInfo: { name: 'srv', version: '1.0.0' },
  }),
  'tools/list': () => ({
    tools: [{
      name: 'ping_me',
      description: 'Answers PONG with the text',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    }],
  }),
  'tools/call': (params) => {
    appendFileSync(mark, JSON.stringify(params.arguments) + '\\n');
    return { content: [{ type: 'text', text: 'PONG:' + params.arguments.text }] };
  },
  ping: () => ({}),
};
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let end;
  while ((end = buffer.indexOf('\\n')) >= 0) {
    const line = buffer.slice(0, end).trim();
    buffer = buffer.slice(end + 1);
    if (!line) continue;
    const message = JSON.parse(line);
    if (message.id === undefined) continue;
    const answer = answers[message.method];
    if (answer) send({ id: message.id, result: answer(message.params ?? {}) });
    else send({ id: message.id, error: { code: -32601, message: 'no ' + message.method } });
  }
});
`;

/** Writes the server into the run folder: the command that starts it, and the file its calls are marked in. */
export function mcpServer(folder: RunFolder): { command: string; args: string[]; calls: string } {
  const script = folder.write('../mcp/server.cjs', SERVER);
  const calls = join(folder.root, 'mcp-calls.jsonl');
  return { command: process.execPath, args: [script, calls], calls };
}
