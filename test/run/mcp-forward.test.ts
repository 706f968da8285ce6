// The MCP servers of mcp_tool hooks travel forward from the load stage: a firing calls the servers its load
// returned, and looks no configuration file up again (no .mcp.json or ~/.claude.json defines the server here).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type LoadedSettings, loadSettings } from '../../src/config/index.ts';
import type { ServerCatalogue } from '../../src/config/mcp/servers.ts';
import { fire } from '../../src/fire.ts';
import { makeProject, type Project } from '../helpers/cli.ts';
import { type HttpGuard, readLog, startHttpGuard } from '../mcp/guard.ts';

let project: Project;
let guard: HttpGuard;
let log: string;

before(async () => {
  project = makeProject();
  log = join(project.dir, '..', 'guard.log');
  guard = await startHttpGuard(join(project.dir, '..'), log);
});
after(async () => {
  await guard.stop();
  project.cleanup();
});

test('fire calls the MCP server its load returned, looked up through the load', async () => {
  let lookups = 0;
  const catalogue = (): ServerCatalogue => ({
    servers: new Map([
      [
        'guard',
        {
          name: 'guard',
          entry: { type: 'http', url: guard.url },
          source: { scope: 'flag', file: 'handed forward', pointer: '/mcpServers/guard' },
        },
      ],
    ]),
    unapproved: new Map(),
    warnings: [],
  });
  const load = async (sources: Parameters<typeof loadSettings>[0]): Promise<LoadedSettings> => ({
    ...(await loadSettings(sources)),
    mcpServers: async () => {
      lookups++;
      return catalogue();
    },
  });
  const hook = { type: 'mcp_tool', server: 'guard', tool: 'deny', input: { event: '${hook_event_name}' } };
  const settings = JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } });
  const report = await fire('PreToolUse', project.input('PreToolUse.tool_name-Bash'), {
    settings: [settings],
    settingSources: [],
    env: project.env(),
    home: project.home,
    projectDir: project.dir,
    noState: true,
    load,
  });
  assert.equal(report.blocked, true);
  assert.match(report.reason ?? '', /denied by guard/);
  assert.equal(lookups, 1);
  assert.equal(readLog(log).filter((entry) => entry.event === 'call').length, 1);

  // Without the load's servers the same hook finds none: nothing else was looked up.
  const alone = await fire('PreToolUse', project.input('PreToolUse.tool_name-Bash'), {
    settings: [settings],
    settingSources: [],
    env: project.env(),
    home: project.home,
    projectDir: project.dir,
    noState: true,
  });
  assert.equal(alone.blocked, false);
  assert.match(alone.hooks[0]?.error ?? '', /MCP server 'guard' not connected/);
});
