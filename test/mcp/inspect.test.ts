// explain and validate on mcp_tool hooks: where each named server comes from, and a server nothing defines.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeProject, type Project, ROOT, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
  project.writeHome('.claude.json', { mcpServers: { guard: { command: 'guard-server', args: ['--strict'] } } });
  project.write('.mcp.json', { mcpServers: { repo: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } });
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'mcp_tool', server: 'guard', tool: 'check' },
            { type: 'mcp_tool', server: 'repo', tool: 'check' },
            { type: 'mcp_tool', server: 'nosuch', tool: 'check' },
          ],
        },
      ],
    },
  });
});
after(() => project.cleanup());

test('explain says where each server comes from, or why a hook would not find it', async () => {
  const result = await runCli(
    ['explain', 'PreToolUse', '--tool', 'Bash', '--project-dir', project.dir, '--output', 'json'],
    { env: project.env() },
  );
  assert.equal(result.code, 0, result.stderr);
  const { mcpServers } = JSON.parse(result.stdout) as { mcpServers: Array<Record<string, string | null>> };
  assert.deepEqual(mcpServers[0], {
    server: 'guard',
    scope: 'user',
    file: join(project.home, '.claude.json'),
    pointer: '/mcpServers/guard',
    transport: 'stdio',
    target: 'guard-server --strict',
    missing: null,
    fix: null,
  });
  assert.match(
    mcpServers[1]!.missing!,
    /^MCP server 'repo' not connected: it is defined in .*\.mcp\.json but not approved/,
  );
  assert.equal(mcpServers[2]!.missing, "MCP server 'nosuch' not connected");
  assert.match(mcpServers[2]!.fix!, /^the configured servers are guard;/);

  const human = await runCli(
    ['explain', 'PreToolUse', '--tool', 'Bash', '--project-dir', project.dir, '--output', 'human'],
    { env: project.env() },
  );
  assert.match(
    human.stdout,
    new RegExp(
      `MCP server guard: stdio guard-server --strict, user scope, ${join(project.home, '.claude.json')}#/mcpServers/guard`,
    ),
  );
});

test("validate: an unknown server is an error at the hook's server field; an unapproved one says how to approve it", async () => {
  const result = await runCli(['validate', '--project-dir', project.dir, '--output', 'json'], { env: project.env() });
  assert.equal(result.code, 1);
  const { diagnostics } = JSON.parse(result.stdout) as {
    diagnostics: Array<{ code: string; pointer: string; message: string; fix: string; line: number }>;
  };
  const found = diagnostics.filter((d) => d.code === 'mcp-server-unknown');
  assert.deepEqual(
    found.map((d) => d.pointer),
    ['/hooks/PreToolUse/0/hooks/1/server', '/hooks/PreToolUse/0/hooks/2/server'],
  );
  assert.match(found[0]!.fix, /add "repo" to "enabledMcpjsonServers"/);
  assert.match(found[1]!.message, /^no MCP configuration defines the server "nosuch"/);
  assert.ok(
    found.every((d) => typeof d.line === 'number'),
    'located in the file',
  );
});

describe('validate, explain and doctor look servers up as fire does: --managed-dir and --mcp-config', () => {
  let setup: Project;
  let managedDir: string;
  let extraConfig: string;
  let policy: string;
  const hooks = {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: ['corp', 'mine', 'extra'].map((server) => ({ type: 'mcp_tool', server, tool: 'check' })),
      },
    ],
  };
  before(() => {
    setup = makeProject();
    // managed-mcp.json only in a folder that --managed-dir names (the environment names another, empty one).
    managedDir = join(setup.dir, '..', 'managed-elsewhere');
    setup.write('../managed-elsewhere/managed-mcp.json', {
      mcpServers: { corp: { command: join(setup.dir, 'no-such-corp-server') } },
    });
    setup.writeHome('.claude.json', { mcpServers: { mine: { command: 'mine-server' } } });
    extraConfig = setup.write('extra-mcp.json', { mcpServers: { extra: { command: 'extra-server' } } });
    setup.write('.claude/settings.json', { hooks });
    policy = setup.write('policy.json', { hooks });
  });
  after(() => setup.cleanup());

  const unknownServers = async (args: string[]) => {
    const result = await runCli(['validate', '--project-dir', setup.dir, '--output', 'json', ...args], {
      env: setup.env(),
    });
    const { diagnostics } = JSON.parse(result.stdout) as { diagnostics: Array<{ code: string; message: string }> };
    return diagnostics
      .filter((d) => d.code === 'mcp-server-unknown')
      .map((d) => /server "([^"]+)"/.exec(d.message)![1]);
  };

  test('validate', async () => {
    assert.deepEqual(await unknownServers([]), ['corp', 'extra']);
    assert.deepEqual(await unknownServers(['--mcp-config', extraConfig]), ['corp']);
    // managed-mcp.json is exclusive: --mcp-config and the user's servers no longer count.
    assert.deepEqual(await unknownServers(['--managed-dir', managedDir, '--mcp-config', extraConfig]), [
      'mine',
      'extra',
    ]);
  });

  test('explain', async () => {
    const origins = async (args: string[]) => {
      const result = await runCli(
        ['explain', 'PreToolUse', '--tool', 'Bash', '--project-dir', setup.dir, '--output', 'json', ...args],
        { env: setup.env() },
      );
      assert.equal(result.code, 0, result.stderr);
      const { mcpServers } = JSON.parse(result.stdout) as {
        mcpServers: Array<{ server: string; scope?: string; file?: string }>;
      };
      return Object.fromEntries(mcpServers.map((origin) => [origin.server, origin.scope ?? 'missing']));
    };
    assert.deepEqual(await origins(['--mcp-config', extraConfig]), { corp: 'missing', mine: 'user', extra: 'flag' });
    assert.deepEqual(await origins(['--managed-dir', managedDir]), {
      corp: 'managed',
      mine: 'missing',
      extra: 'missing',
    });
  });

  test("fire, for comparison: the managed server is found (and fails to start), the user's is not", async () => {
    const result = await runCli(['fire', 'PreToolUse', '--output', 'json', '--no-state', '--managed-dir', managedDir], {
      stdin: setup.input('PreToolUse.tool_name-Bash'),
      env: setup.env(),
    });
    const { hooks: ran } = JSON.parse(result.stdout) as { hooks: Array<{ error?: string }> };
    assert.match(ran[0]!.error!, /^MCP server 'corp' not connected: .*ENOENT/);
    assert.equal(ran[1]!.error, "MCP server 'mine' not connected");
  });

  test("doctor, with the registered firing's own --mcp-config and its own flags", async () => {
    const registered = (extra: string) => ({
      hooks: {
        PreToolUse: [
          {
            hooks: [
              {
                type: 'command',
                command: `${process.execPath} ${join(ROOT, 'dist/peri-hooks.cjs')} fire PreToolUse --settings ${policy}${extra} --output claude`,
              },
            ],
          },
        ],
      },
    });
    const targets = async (registration: object, args: string[]) => {
      setup.write('.claude/settings.local.json', registration);
      const result = await runCli(['doctor', '--project-dir', setup.dir, '--output', 'json', ...args], {
        env: setup.env(),
      });
      const { checks } = JSON.parse(result.stdout) as {
        checks: Array<{ title: string; status: string; detail: string }>;
      };
      const found = checks.filter((entry) => entry.title === 'PreToolUse mcp_tool hook');
      details = found.map((entry) => entry.detail);
      return found.map((entry) => `${entry.detail.split(':')[0]} ${entry.status}`);
    };
    let details: string[] = [];
    assert.deepEqual(await targets(registered(` --mcp-config ${extraConfig}`), []), [
      'corp/check fail',
      'mine/check pass',
      'extra/check pass',
    ]);
    assert.equal(
      details[2],
      `extra/check: stdio extra-server, from the flag scope (${extraConfig}#/mcpServers/extra); not started here`,
    );
    assert.deepEqual(await targets(registered(''), ['--mcp-config', extraConfig]), [
      'corp/check fail',
      'mine/check pass',
      'extra/check pass',
    ]);
    assert.deepEqual(await targets(registered(''), ['--managed-dir', managedDir]), [
      'corp/check pass',
      'mine/check fail',
      'extra/check fail',
    ]);
  });
});
