// explain and validate on mcp_tool hooks: where each named server comes from, and a server nothing defines.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { makeProject, runCli, type Project } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
  project.writeHome('.claude.json', { mcpServers: { guard: { command: 'guard-server', args: ['--strict'] } } });
  project.write('.mcp.json', { mcpServers: { repo: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } });
  project.write('.claude/settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [
    { type: 'mcp_tool', server: 'guard', tool: 'check' },
    { type: 'mcp_tool', server: 'repo', tool: 'check' },
    { type: 'mcp_tool', server: 'nosuch', tool: 'check' },
  ] }] } });
});
after(() => project.cleanup());

test('explain says where each server comes from, or why a hook would not find it', async () => {
  const result = await runCli(['explain', 'PreToolUse', '--tool', 'Bash', '--project-dir', project.dir, '--output', 'json'], { env: project.env() });
  assert.equal(result.code, 0, result.stderr);
  const { mcpServers } = JSON.parse(result.stdout) as { mcpServers: Array<Record<string, string | null>> };
  assert.deepEqual(mcpServers[0], { server: 'guard', scope: 'user', file: join(project.home, '.claude.json'), pointer: '/mcpServers/guard', transport: 'stdio', target: 'guard-server --strict', missing: null, fix: null });
  assert.match(mcpServers[1]!.missing!, /^MCP server 'repo' not connected: it is defined in .*\.mcp\.json but not approved/);
  assert.equal(mcpServers[2]!.missing, 'MCP server \'nosuch\' not connected');
  assert.match(mcpServers[2]!.fix!, /^the configured servers are guard;/);

  const human = await runCli(['explain', 'PreToolUse', '--tool', 'Bash', '--project-dir', project.dir, '--output', 'human'], { env: project.env() });
  assert.match(human.stdout, new RegExp(`MCP server guard: stdio guard-server --strict, user scope, ${join(project.home, '.claude.json')}#/mcpServers/guard`));
});

test('validate: an unknown server is an error at the hook\'s server field; an unapproved one says how to approve it', async () => {
  const result = await runCli(['validate', '--project-dir', project.dir, '--output', 'json'], { env: project.env() });
  assert.equal(result.code, 1);
  const { diagnostics } = JSON.parse(result.stdout) as { diagnostics: Array<{ code: string; pointer: string; message: string; fix: string; line: number }> };
  const found = diagnostics.filter((d) => d.code === 'mcp-server-unknown');
  assert.deepEqual(found.map((d) => d.pointer), ['/hooks/PreToolUse/0/hooks/1/server', '/hooks/PreToolUse/0/hooks/2/server']);
  assert.match(found[0]!.fix, /add "repo" to "enabledMcpjsonServers"/);
  assert.match(found[1]!.message, /^no MCP configuration defines the server "nosuch"/);
  assert.ok(found.every((d) => typeof d.line === 'number'), 'located in the file');
});
