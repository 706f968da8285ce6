// The floor of the bench's MCP rows: an MCP server on stdio built with the same SDK as `peri-hooks mcp`, whose one
// tool answers `{}` (`node bare-mcp-server.ts`), or answers `{}` once `sh -c true` has run with the three pipes a
// hook needs (`node bare-mcp-server.ts spawn`).
import { spawn } from 'node:child_process';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const spawning = process.argv[2] === 'spawn';
const answer = { content: [{ type: 'text' as const, text: '{}' }] };
const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'fire', inputSchema: { type: 'object' as const } }] }));
server.setRequestHandler('tools/call', (request) => {
  if (!spawning) return answer;
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', 'true'], { stdio: 'pipe' });
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(request.params.arguments));
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', () => resolve(answer));
  });
});
await server.connect(new StdioServerTransport());
