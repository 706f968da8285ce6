// `peri-hooks install --via mcp` on real temporary projects: the MCP server where Claude Code starts it for the
// scope, an mcp_tool hook per event with every field of its input, commands where there is no MCP client,
// onFailure where fail-closed can block; nothing of this machine in the project's files; uninstall gives every
// file back; doctor starts the server and calls it. The server the registration defines decides as the policy says.

import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { EVENTS, type EventName } from '../../src/events.ts';
import { createConnectionPool } from '../../src/mcp/pool.ts';
import { inputFields } from '../../src/mcp-server/arguments.ts';
import { makeProject, type Project, ROOT } from '../helpers/cli.ts';
import { callFireTool, linkIntoProject, type Package, packageCopy, readSettings } from './setup.ts';

let pkg: Package;
let project: Project;
before(() => {
  pkg = packageCopy();
  // As npm installs the package: peri-hooks mcp requires the MCP server SDK from its dependencies.
  symlinkSync(join(ROOT, 'node_modules'), join(pkg.dir, 'node_modules'));
});
after(() => pkg.cleanup());
beforeEach(() => {
  project = makeProject();
});
afterEach(() => project.cleanup());

const read = (file: string) => readFileSync(file, 'utf8');
const settingsFile = () => join(project.dir, '.claude/settings.json');
const mcpJson = () => join(project.dir, '.mcp.json');
const claudeJson = () => join(project.home, '.claude.json');

/** A policy with a deny for `rm`, context on prompts, a Stop hook and a SessionStart hook. */
function policy(): string {
  return project.write('team-policy.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            {
              type: 'command',
              command: `case "$(cat)" in *'"rm '*) echo "no rm here" >&2; exit 2;; esac`,
              timeout: 5,
            },
          ],
        },
      ],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo prompt-context' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'true' }] }],
      SessionStart: [{ hooks: [{ type: 'command', command: 'echo started' }] }],
      SessionEnd: [{ hooks: [{ type: 'command', command: 'true' }] }],
      InstructionsLoaded: [{ hooks: [{ type: 'command', command: 'true' }] }],
    },
  });
}

type Handler = Record<string, unknown>;
const handlerOf = (event: string): Handler =>
  readSettings(settingsFile()).hooks![event]![0]!.hooks[0] as unknown as Handler;

/** Claude Code's substitution of an mcp_tool hook's `input` (spec §20.4 item 5): each placeholder becomes text. */
function substitute(template: Record<string, string>, input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(template).map(([key, placeholder]) => {
      const value = input[placeholder.slice(2, -1)];
      return [
        key,
        value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value),
      ];
    }),
  );
}

describe('install --via mcp, project scope', () => {
  test('the server in .mcp.json and an mcp_tool hook per event with every input field, portable; SessionStart a command; uninstall gives the files back', async () => {
    const settings = project.write('.claude/settings.json', '{\n  "permissions": { "allow": ["Bash"] }\n}\n');
    const before = read(settings);
    const result = await pkg.run(['install', '--via', 'mcp', '--policy', policy()], project);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /PreToolUse +added +mcp_tool peri-hooks\/fire, onFailure block, timeout 7 s/);
    assert.match(result.stdout, /MCP server peri-hooks \(defined in \.mcp\.json\)/);

    const server = JSON.parse(read(mcpJson())).mcpServers['peri-hooks'];
    assert.equal(server.type, 'stdio');
    assert.equal(server.command, 'sh');
    assert.match(
      server.args[1],
      /exec "\$p" mcp --settings "\$d"\/team-policy\.json --setting-sources none --fail-closed$/,
    );
    // Committable: nothing of this machine in either file.
    for (const text of [read(mcpJson()), read(settings)])
      for (const local of [project.dir, project.home, pkg.dir, process.execPath])
        assert.ok(!text.includes(local), local);

    for (const event of ['PreToolUse', 'UserPromptSubmit', 'Stop'] as EventName[]) {
      const handler = handlerOf(event);
      assert.equal(handler.type, 'mcp_tool');
      assert.equal(handler.server, 'peri-hooks');
      assert.equal(handler.tool, 'fire');
      assert.deepEqual(
        Object.keys(handler.input as object).sort(),
        [...inputFields(event).keys()].sort(),
        `${event}: the input lists every field of the event`,
      );
      for (const [key, value] of Object.entries(handler.input as object)) assert.equal(value, `\${${key}}`);
      // Fail-closed where a failure can block; Claude Code ignores onFailure on Stop, so it is not written there.
      assert.equal(handler.onFailure, EVENTS[event].ignoresOnFailure ? undefined : 'block', event);
    }
    assert.equal(handlerOf('PreToolUse').timeout, 7);
    // No MCP client on SessionStart; the servers are not started yet for the CLAUDE.md files loaded at start,
    // and stopped when SessionEnd fires.
    for (const event of ['SessionStart', 'InstructionsLoaded', 'SessionEnd']) {
      assert.equal(handlerOf(event).type, 'command', event);
      assert.match(String(handlerOf(event).command), new RegExp(`exec "\\$p" fire ${event} --output claude`));
    }

    const again = await pkg.run(['install', '--via', 'mcp', '--policy', policy()], project);
    assert.match(again.stdout, /already registered/);

    const removed = await pkg.run(['uninstall'], project);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /removed \.mcp\.json too: install created it/);
    assert.equal(read(settings), before);
    assert.ok(!existsSync(mcpJson()));
  });

  test('an .mcp.json of the project keeps its servers and bytes; --fail-open writes no onFailure and a server without --fail-closed', async () => {
    const own = '{\n\t"mcpServers": {\n\t\t"docs": { "command": "docs-server" }\n\t}\n}\n';
    project.write('.mcp.json', own);
    const result = await pkg.run(['install', '--via', 'mcp', '--fail-open', '--policy', policy()], project);
    assert.equal(result.code, 0, result.stderr);
    const servers = JSON.parse(read(mcpJson())).mcpServers;
    assert.deepEqual(Object.keys(servers), ['docs', 'peri-hooks']);
    assert.ok(!servers['peri-hooks'].args[1].includes('--fail-closed'));
    assert.equal(handlerOf('PreToolUse').onFailure, undefined);
    await pkg.run(['uninstall'], project);
    assert.equal(read(mcpJson()), own);
  });

  test('the server the registration defines, called as Claude Code calls it, decides by the policy; doctor starts it and passes', async () => {
    linkIntoProject(pkg, project.dir);
    assert.equal((await pkg.run(['install', '--via', 'mcp', '--policy', policy()], project)).code, 0);
    const server = JSON.parse(read(mcpJson())).mcpServers['peri-hooks'];
    const template = handlerOf('PreToolUse').input as Record<string, string>;
    const pool = createConnectionPool();
    try {
      const call = async (command: string) => {
        const input = JSON.parse(project.input('PreToolUse.tool_name-Bash', { tool_input: { command } }));
        return JSON.parse(
          await callFireTool(pool, { entry: server, file: mcpJson() }, substitute(template, input), project),
        );
      };
      const denied = await call('rm -rf build');
      assert.equal(denied.hookSpecificOutput.permissionDecision, 'deny');
      assert.match(denied.hookSpecificOutput.permissionDecisionReason, /no rm here/);
      assert.deepEqual(await call('ls'), {});
    } finally {
      await pool.close();
    }
    const doctor = await pkg.run(['doctor', '--output', 'json'], project);
    const checks = JSON.parse(doctor.stdout).checks as Array<{ id: string; status: string; detail: string }>;
    const mcp = checks.find((entry) => entry.id === 'mcp-server');
    assert.equal(mcp?.status, 'pass', doctor.stdout);
    assert.match(mcp.detail, /starts and answers the fire tool/);
  });

  test('--audit: the server line carries the log (from $HOME in the committed file); every call through the server appends one record as fire does', async () => {
    linkIntoProject(pkg, project.dir);
    const log = join(project.home, '.local/state/peri-hooks/audit.jsonl');
    const result = await pkg.run(['install', '--via', 'mcp', '--policy', policy(), '--audit', log], project);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /audit log: .*audit\.jsonl/);
    const server = JSON.parse(read(mcpJson())).mcpServers['peri-hooks'];
    assert.match(server.args[1], /exec "\$p" mcp .* --audit "\$HOME"\/\.local\/state\/peri-hooks\/audit\.jsonl$/);
    assert.ok(!read(mcpJson()).includes(project.home), 'nothing of this machine in the committed file');
    // The commands that stay commands (SessionStart) carry the same log.
    assert.match(
      String(handlerOf('SessionStart').command),
      /--audit "\$HOME"\/\.local\/state\/peri-hooks\/audit\.jsonl/,
    );
    const template = handlerOf('PreToolUse').input as Record<string, string>;
    const pool = createConnectionPool();
    try {
      for (const command of ['rm -rf build', 'ls']) {
        const input = JSON.parse(project.input('PreToolUse.tool_name-Bash', { tool_input: { command } }));
        await callFireTool(pool, { entry: server, file: mcpJson() }, substitute(template, input), project);
      }
    } finally {
      await pool.close();
    }
    const records = read(log)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      records.map((record) => [record.event, record.tool, record.decision]),
      [
        ['PreToolUse', 'Bash', 'deny'],
        ['PreToolUse', 'Bash', 'none'],
      ],
    );
    assert.equal(records[0].reason, 'no rm here');
    const verified = await pkg.run(['audit', 'verify', log], project);
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
  });

  test('doctor fails where the server does not start, and where the hooks call a server no file defines', async () => {
    assert.equal((await pkg.run(['install', '--via', 'mcp', '--policy', policy()], project)).code, 0);
    // No peri-hooks in the project and none on PATH: the portable server says so and exits.
    const env = { PATH: '/usr/bin:/bin' };
    let doctor = await pkg.run(['doctor', '--output', 'json'], project, { env });
    let checks = JSON.parse(doctor.stdout).checks as Array<{ id: string; status: string; detail: string }>;
    const mcp = checks.find((entry) => entry.id === 'mcp-server');
    assert.equal(mcp?.status, 'fail', doctor.stdout);
    assert.match(mcp.detail, /does not start: .*peri-hooks cannot start its MCP server here/);
    assert.equal(doctor.code, 1);

    writeFileSync(mcpJson(), '{}\n');
    doctor = await pkg.run(['doctor', '--output', 'json'], project);
    checks = JSON.parse(doctor.stdout).checks;
    assert.ok(
      checks.some(
        (entry) =>
          entry.status === 'fail' &&
          /mcp_tool hooks that call the MCP server peri-hooks, but \.mcp\.json does not define it/.test(entry.detail),
      ),
      doctor.stdout,
    );
  });
});

describe('install --via mcp, other scopes', () => {
  test('local and user scope: the server in ~/.claude.json by absolute paths, its other keys kept; uninstall takes only it away', async () => {
    const state = `${JSON.stringify({ numStartups: 3, projects: { [project.dir]: { hasTrustDialogAccepted: true } } }, null, 2)}\n`;
    writeFileSync(claudeJson(), state);
    const file = policy();
    assert.equal((await pkg.run(['install', '--via', 'mcp', '--scope', 'local', '--policy', file], project)).code, 0);
    assert.equal((await pkg.run(['install', '--via', 'mcp', '--scope', 'user', '--policy', file], project)).code, 0);
    const written = JSON.parse(read(claudeJson()));
    assert.equal(written.numStartups, 3);
    const local = written.projects[project.dir].mcpServers['peri-hooks'];
    assert.deepEqual(local, written.mcpServers['peri-hooks']);
    assert.deepEqual(
      [local.command, ...local.args],
      [...pkg.runner.split(' '), 'mcp', '--settings', file, '--setting-sources', 'none', '--fail-closed'],
    );
    assert.equal(
      readSettings(join(project.dir, '.claude/settings.local.json')).hooks!.PreToolUse![0]!.hooks[0]!.type,
      'mcp_tool',
    );
    assert.equal((await pkg.run(['uninstall', '--scope', 'user'], project)).code, 0);
    assert.equal((await pkg.run(['uninstall', '--scope', 'local'], project)).code, 0);
    assert.equal(read(claudeJson()), state);
  });

  test('refused: the managed scope, --serve with it, and a server named peri-hooks that is not peri-hooks; nothing written', async () => {
    const file = policy();
    const managed = await pkg.run(['install', '--via', 'mcp', '--scope', 'managed', '--policy', file], project);
    assert.equal(managed.code, 1);
    assert.match(managed.stderr, /no managed scope: a managed-mcp\.json would take over every MCP server/);
    const serve = await pkg.run(
      ['install', '--via', 'mcp', '--serve', 'http://127.0.0.1:9', '--policy', file],
      project,
    );
    assert.equal(serve.code, 1);
    assert.match(serve.stderr, /--via mcp and --serve do not go together/);
    const codex = await pkg.run(['install', '--host', 'codex', '--via', 'mcp', '--policy', file], project);
    assert.equal(codex.code, 1);
    assert.match(
      codex.stderr,
      /--host codex --via mcp cannot be fail-closed: Codex CLI lets the call run on every failure/,
    );
    const gemini = await pkg.run(['install', '--host', 'gemini', '--via', 'mcp', '--policy', file], project);
    assert.match(gemini.stderr, /not built for --host gemini/);
    assert.ok(!existsSync(join(project.dir, '.codex')) && !existsSync(join(project.dir, '.gemini')));
    const bad = await pkg.run(['install', '--via', 'http2', '--policy', file], project);
    assert.match(bad.stderr, /--via "http2" is not a registration/);
    const foreign = '{ "mcpServers": { "peri-hooks": { "command": "something-else" } } }\n';
    project.write('.mcp.json', foreign);
    const clash = await pkg.run(['install', '--via', 'mcp', '--policy', file], project);
    assert.equal(clash.code, 1);
    assert.match(clash.stderr, /already defines an MCP server named "peri-hooks" that is not peri-hooks mcp/);
    assert.equal(read(mcpJson()), foreign);
    assert.ok(!existsSync(join(project.dir, '.claude/settings.json')));
  });

  test('installing as commands over an mcp registration takes the server away', async () => {
    const file = policy();
    assert.equal((await pkg.run(['install', '--via', 'mcp', '--policy', file], project)).code, 0);
    assert.ok(existsSync(mcpJson()));
    assert.equal((await pkg.run(['install', '--policy', file], project)).code, 0);
    assert.equal(handlerOf('PreToolUse').type, 'command');
    assert.deepEqual(JSON.parse(read(mcpJson())), {});
  });
});
