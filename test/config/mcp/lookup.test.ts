// Where mcp_tool hooks find their servers: every configuration file in Claude Code's precedence, in a
// temporary HOME, project and managed folder; and, end to end, that an unapproved project server never starts.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { lookupServers } from '../../../src/config/mcp/lookup.ts';
import type { LookupOptions } from '../../../src/config/mcp/lookup-options.ts';
import { makeProject, type Project, runCli } from '../../helpers/cli.ts';
import { readLog, stdioGuard } from '../../mcp/guard.ts';

// A fresh HOME, project and managed folder for every test: each writes its own configuration.
let project: Project;
beforeEach(() => {
  project = makeProject();
});
afterEach(() => project.cleanup());

const server = (tag: string) => ({ command: `server-${tag}` });
const options = (extra: Partial<LookupOptions> = {}): LookupOptions => ({
  projectDir: project.dir,
  home: project.home,
  env: { PERI_HOOKS_MANAGED_DIR: project.managed },
  ...extra,
});
/** Which file's entry each name resolves to, by its command. */
async function resolved(extra: Partial<LookupOptions> = {}): Promise<Record<string, string>> {
  const catalogue = await lookupServers(options(extra));
  return Object.fromEntries(
    [...catalogue.servers].map(([name, defined]) => [
      name,
      defined.entry.type === 'stdio' ? defined.entry.command : defined.entry.url,
    ]),
  );
}

describe('precedence', () => {
  test('local beats project beats user; plugins are plugin:<plugin>:<server>; --mcp-config comes last', async () => {
    project.writeHome('.claude.json', {
      mcpServers: { a: server('user'), b: server('user'), c: server('user'), d: server('user') },
      projects: { [project.dir]: { mcpServers: { a: server('local') }, enabledMcpjsonServers: ['a', 'b'] } },
    });
    project.write('.mcp.json', { mcpServers: { a: server('project'), b: server('project') } });
    const plugin = project.write('plugins/tools/.claude-plugin/plugin.json', {
      name: 'tools',
      mcpServers: { lint: server('plugin-${CLAUDE_PLUGIN_ROOT}') },
    });
    const flag = project.write('extra-mcp.json', { mcpServers: { d: server('flag'), e: server('flag') } });
    const pluginRoot = join(plugin, '..', '..');
    assert.deepEqual(
      await resolved({
        pluginDirs: [pluginRoot],
        mcpConfigs: [flag, JSON.stringify({ mcpServers: { f: server('inline') } })],
      }),
      {
        a: 'server-local',
        b: 'server-project',
        c: 'server-user',
        d: 'server-user',
        'plugin:tools:lint': `server-plugin-${pluginRoot}`,
        e: 'server-flag',
        f: 'server-inline',
      },
    );
  });

  test('managed-mcp.json, when it exists, alone defines the servers', async () => {
    project.writeManaged('managed-mcp.json', { mcpServers: { corp: server('managed') } });
    project.writeHome('.claude.json', { mcpServers: { mine: server('user') } });
    const catalogue = await lookupServers(
      options({ mcpConfigs: [JSON.stringify({ mcpServers: { e: server('flag') } })] }),
    );
    assert.deepEqual([...catalogue.servers.keys()], ['corp']);
    assert.equal(catalogue.exclusive, join(project.managed, 'managed-mcp.json'));
  });

  test('CLAUDE_CONFIG_DIR moves ~/.claude.json', async () => {
    const configDir = join(project.home, 'elsewhere');
    project.writeHome('elsewhere/.claude.json', { mcpServers: { moved: server('moved') } });
    project.writeHome('.claude.json', { mcpServers: { home: server('home') } });
    const names = await resolved({ env: { PERI_HOOKS_MANAGED_DIR: project.managed, CLAUDE_CONFIG_DIR: configDir } });
    assert.deepEqual(Object.keys(names), ['moved']);
  });
});

describe('project approval', () => {
  const lookupWith = async (settings: Record<string, object>) => {
    project.write('.mcp.json', { mcpServers: { p1: server('p1'), p2: server('p2') } });
    for (const [file, content] of Object.entries(settings)) project.write(file, content);
    const catalogue = await lookupServers(
      options({
        env: { PERI_HOOKS_MANAGED_DIR: project.managed, CLAUDE_CONFIG_DIR: join(project.dir, 'claude-config') },
      }),
    );
    return {
      approved: [...catalogue.servers.keys()],
      unapproved: [...catalogue.unapproved.values()].map(
        ({ name, disabled }) => `${name}${disabled ? ' (disabled)' : ''}`,
      ),
    };
  };

  test('not listed anywhere: not approved', async () => {
    assert.deepEqual(await lookupWith({}), { approved: [], unapproved: ['p1', 'p2'] });
  });

  test('enabledMcpjsonServers in the local settings approves the ones it lists', async () => {
    assert.deepEqual(await lookupWith({ '.claude/settings.local.json': { enabledMcpjsonServers: ['p2'] } }), {
      approved: ['p2'],
      unapproved: ['p1'],
    });
  });

  test('enableAllProjectMcpServers approves all but those in disabledMcpjsonServers', async () => {
    assert.deepEqual(
      await lookupWith({
        'claude-config/settings.json': { enableAllProjectMcpServers: true, disabledMcpjsonServers: ['p1'] },
      }),
      { approved: ['p2'], unapproved: ['p1 (disabled)'] },
    );
  });

  test("the project's own shared settings cannot approve its servers", async () => {
    assert.deepEqual(await lookupWith({ '.claude/settings.json': { enableAllProjectMcpServers: true } }), {
      approved: [],
      unapproved: ['p1', 'p2'],
    });
  });
});

describe('entries', () => {
  test('${VAR} and ${VAR:-default} expand in command, args, env, url and headers; an unset one stays and is reported', async () => {
    const flag = JSON.stringify({
      mcpServers: {
        s: { command: '${TOOLS}/srv', args: ['--mode=${MODE:-strict}'], env: { TOKEN: '${TOKEN}' } },
        h: { type: 'http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${NOPE}' } },
      },
    });
    const catalogue = await lookupServers(
      options({
        env: { PERI_HOOKS_MANAGED_DIR: project.managed, TOOLS: '/opt', TOKEN: 't', HOST: 'mcp.example.com' },
        mcpConfigs: [flag],
      }),
    );
    assert.deepEqual(catalogue.servers.get('s')!.entry, {
      type: 'stdio',
      command: '/opt/srv',
      args: ['--mode=strict'],
      env: { TOKEN: 't' },
    });
    assert.deepEqual(catalogue.servers.get('h')!.entry, {
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer ${NOPE}' },
    });
    assert.match(
      catalogue.warnings.map((w) => w.message).join('\n'),
      /MCP server "h" uses \$\{NOPE\}, which is not set/,
    );
  });

  test('a bad entry or file is a warning naming the file and the entry; the other servers still load', async () => {
    const bad = project.write('bad-mcp.json', { mcpServers: { broken: { type: 'http' }, fine: server('fine') } });
    const catalogue = await lookupServers(options({ mcpConfigs: [bad, join(project.dir, 'absent.json'), '{ nope'] }));
    assert.deepEqual([...catalogue.servers.keys()], ['fine']);
    const warnings = catalogue.warnings.map((w) => `${w.file}${w.pointer ?? ''}: ${w.message}`);
    assert.ok(
      warnings.some((w) =>
        w.startsWith(`${bad}/mcpServers/broken: MCP server "broken" is not a valid server entry at url`),
      ),
      warnings.join('\n'),
    );
    assert.ok(
      warnings.some((w) => w.includes('absent.json does not exist')),
      warnings.join('\n'),
    );
    assert.ok(
      warnings.some((w) => w.startsWith('--mcp-config: the inline --mcp-config is not valid JSON')),
      warnings.join('\n'),
    );
  });
});

test('an unapproved project server is never started: the hook fails as not connected, saying how to approve it', async () => {
  const log = join(project.dir, '..', 'unapproved.log');
  project.write('.mcp.json', { mcpServers: { guard: stdioGuard(log) } });
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'mcp_tool', server: 'guard', tool: 'deny', input: { event: 'PreToolUse' } }],
        },
      ],
    },
  });
  const result = await runCli(['fire', 'PreToolUse', '--output', 'json', '--no-state'], {
    stdin: project.input('PreToolUse.tool_name-Bash'),
    env: project.env(),
  });
  const report = JSON.parse(result.stdout) as {
    blocked: boolean;
    hooks: Array<{ error: string }>;
    warnings: Array<{ message: string }>;
  };
  assert.equal(report.blocked, false);
  assert.match(
    report.hooks[0]!.error,
    /^MCP server 'guard' not connected: it is defined in .*\.mcp\.json but not approved/,
  );
  assert.match(report.warnings[0]!.message, /add "guard" to "enabledMcpjsonServers"/);
  assert.ok(!existsSync(log) || readLog(log).length === 0, 'the server was started');
});
