// `peri-hooks install --host codex --via mcp` on real temporary projects: refused fail-closed (the default);
// with --fail-open an mcp_tool hook per Codex event that reaches a server, whose input lists the fields every real
// Codex payload of that event has; the server in the scope's config.toml; said fail-open by install and doctor;
// uninstall gives every file back. The server the registration defines, called with a real Codex payload as
// Codex substitutes it, answers in the form Codex reads. The real Codex runs it in test/hosts/real/codex.real.ts.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { HOSTS } from '../../src/hosts/table.ts';
import { createConnectionPool } from '../../src/mcp/pool.ts';
import { makeProject, type Project, ROOT } from '../helpers/cli.ts';
import { callFireTool, linkIntoProject, type Package, packageCopy } from './setup.ts';

let pkg: Package;
let project: Project;
before(() => {
  pkg = packageCopy();
  symlinkSync(join(ROOT, 'node_modules'), join(pkg.dir, 'node_modules'));
});
after(() => pkg.cleanup());
beforeEach(() => {
  project = makeProject();
});
afterEach(() => project.cleanup());

const read = (file: string) => readFileSync(file, 'utf8');
const hooksFile = () => join(project.dir, '.codex/hooks.json');
const projectConfig = () => join(project.dir, '.codex/config.toml');
const REAL = join(ROOT, 'fixtures/hosts/codex/real');
const MCP_FIELDS = HOSTS.codex.install.mcpFields!;

function policy(): string {
  return project.write('policy.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: `case "$(cat)" in *denied*) echo "NO-DENIED" >&2; exit 2;; esac` }],
        },
      ],
      UserPromptSubmit: [
        {
          hooks: [
            {
              type: 'command',
              command: `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"CTX"}}'`,
            },
          ],
        },
      ],
      SessionStart: [{ hooks: [{ type: 'command', command: 'true' }] }],
    },
  });
}

const handlers = (file = hooksFile()) =>
  JSON.parse(read(file)).hooks as Record<string, Array<{ hooks: Array<Record<string, any>> }>>;

/** Codex's substitution of an mcp_tool input: a whole `${a.b}` placeholder takes the field with its JSON type. */
function substitute(template: Record<string, string>, payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(template).map(([key, placeholder]) => {
      const value = placeholder
        .slice(2, -1)
        .split('.')
        .reduce<any>((node, field) => node?.[field], payload);
      assert.notEqual(value, undefined, `${placeholder} is in the payload (Codex fails the hook otherwise)`);
      return [key, value];
    }),
  );
}

describe('install --host codex --via mcp', () => {
  test('refused fail-closed (the default) and for an agent without mcp_tool hooks, naming the fix; nothing written', async () => {
    const file = policy();
    for (const extra of [[], ['--fail-closed']]) {
      const result = await pkg.run(['install', '--host', 'codex', '--via', 'mcp', '--policy', file, ...extra], project);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /--host codex --via mcp cannot be fail-closed: Codex CLI lets the call run/);
      assert.match(
        result.stderr,
        /fix: register Codex CLI with commands \(install --host codex.*--via mcp --fail-open/,
      );
    }
    const gemini = await pkg.run(
      ['install', '--host', 'gemini', '--via', 'mcp', '--fail-open', '--policy', file],
      project,
    );
    assert.equal(gemini.code, 1);
    assert.match(gemini.stderr, /not built for --host gemini/);
    const server = await pkg.run(['mcp', '--host', 'gemini'], project);
    assert.equal(server.code, 1);
    assert.match(server.stderr, /Gemini CLI has no mcp_tool hooks that reach this server/);
    assert.ok(!existsSync(join(project.dir, '.codex')) && !existsSync(join(project.dir, '.gemini')));
  });

  test('every field an input template lists is in every real Codex payload of its event', () => {
    const seen = new Set<string>();
    for (const name of readdirSync(REAL)) {
      const payload = JSON.parse(read(join(REAL, name)));
      const fields = MCP_FIELDS[payload.hook_event_name];
      if (!fields) continue;
      seen.add(payload.hook_event_name);
      for (const field of fields) assert.ok(field in payload, `${name}: ${field}`);
    }
    assert.deepEqual([...seen].sort(), ['PostToolUse', 'PreToolUse', 'Stop', 'UserPromptSubmit']);
  });

  test('project scope: mcp_tool hooks, SessionStart a command, the server in .codex/config.toml (portable), said fail-open; uninstall removes what it made', async () => {
    const result = await pkg.run(
      ['install', '--host', 'codex', '--via', 'mcp', '--fail-open', '--policy', policy()],
      project,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /PreToolUse \(PreToolUse\): mcp_tool peri-hooks\/fire/);
    assert.match(result.stdout, /defined in \.codex\/config\.toml/);
    assert.match(result.stdout, /FAIL-OPEN: Codex CLI runs the call without a word when an mcp_tool hook fails/);
    const hooks = handlers();
    for (const event of ['PreToolUse', 'UserPromptSubmit']) {
      const [handler] = hooks[event]![0]!.hooks;
      assert.deepEqual(Object.keys(handler!).sort(), ['input', 'server', 'timeout', 'tool', 'type']);
      assert.equal(handler!.type, 'mcp_tool');
      assert.deepEqual(handler!.input, Object.fromEntries(MCP_FIELDS[event]!.map((field) => [field, `\${${field}}`])));
      assert.equal(Number.isInteger(handler!.timeout), true);
    }
    assert.equal(hooks.SessionStart![0]!.hooks[0]!.type, 'command');
    const config = read(projectConfig());
    assert.match(
      config,
      /^\[mcp_servers\.peri-hooks\]\ncommand = "sh"\nargs = \["-c",".*exec \\"\$p\\" mcp --host codex --settings \\"\$d\\"\/policy\.json --setting-sources none"\]\nstartup_timeout_sec = 30\n$/,
    );
    for (const text of [config, read(hooksFile())])
      for (const local of [project.dir, project.home, pkg.dir, process.execPath])
        assert.ok(!text.includes(local), local);

    const again = await pkg.run(
      ['install', '--host', 'codex', '--via', 'mcp', '--fail-open', '--policy', policy()],
      project,
    );
    assert.match(again.stdout, /already registered/);
    // An older install's table, without the startup timeout (Codex's 10 s then), gets it.
    writeFileSync(projectConfig(), config.replace('startup_timeout_sec = 30\n', ''));
    const upgraded = await pkg.run(
      ['install', '--host', 'codex', '--via', 'mcp', '--fail-open', '--policy', policy()],
      project,
    );
    assert.equal(upgraded.code, 0, upgraded.stderr);
    assert.equal(read(projectConfig()), config);
    const removed = await pkg.run(['uninstall', '--host', 'codex'], project);
    assert.equal(removed.code, 0, removed.stderr);
    assert.ok(!existsSync(join(project.dir, '.codex')));
  });

  test('user scope: the server in $CODEX_HOME/config.toml by absolute paths with --audit, trusted with its hooks; commands take the server away; uninstall gives the bytes back', async () => {
    const codexHome = join(project.home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    const config = join(codexHome, 'config.toml');
    const own = 'model = "gpt-5.5"\n\n[mcp_servers.docs]\ncommand = "docs-server"\n';
    writeFileSync(config, own);
    const log = join(project.home, 'audit.jsonl');
    const args = ['--host', 'codex', '--scope', 'user', '--policy', policy()];
    const result = await pkg.run(
      ['install', ...args, '--via', 'mcp', '--fail-open', '--trust', '--audit', log],
      project,
    );
    assert.equal(result.code, 0, result.stderr);
    const text = read(config);
    assert.ok(
      text.startsWith(`${own}\n[mcp_servers.peri-hooks]\ncommand = ${JSON.stringify(process.execPath)}\n`),
      text,
    );
    assert.ok(
      text.includes(
        `"mcp","--host","codex","--settings",${JSON.stringify(join(project.dir, 'policy.json'))},"--setting-sources","none","--audit",${JSON.stringify(log)}]`,
      ),
      text,
    );
    // Both mcp_tool hooks and the SessionStart command trusted, in the same file that defines the server.
    assert.equal(text.match(/trusted_hash = "sha256:[0-9a-f]{64}"/g)?.length, 3);
    const doctor = await pkg.run(['doctor', '--output', 'json'], project);
    const checks = JSON.parse(doctor.stdout).checks as Array<{ id: string; status: string; detail: string }>;
    assert.ok(
      checks.some((entry) => entry.status === 'warn' && /as mcp_tool hooks, which are fail-open/.test(entry.detail)),
      doctor.stdout,
    );
    assert.equal(checks.find((entry) => entry.id === 'mcp-server')?.status, 'pass', doctor.stdout);
    assert.ok(
      checks.some((entry) => /Codex trusts peri-hooks' 3 hooks/.test(entry.detail)),
      doctor.stdout,
    );

    // Commands again: the server goes, the rest stays.
    assert.equal((await pkg.run(['install', ...args, '--fail-open'], project)).code, 0);
    assert.ok(!read(config).includes('[mcp_servers.peri-hooks]'));
    assert.equal(handlers(join(codexHome, 'hooks.json')).PreToolUse![0]!.hooks[0]!.type, 'command');
    assert.equal((await pkg.run(['install', ...args, '--via', 'mcp', '--fail-open'], project)).code, 0);
    assert.equal((await pkg.run(['uninstall', '--host', 'codex', '--scope', 'user'], project)).code, 0);
    assert.ok(!existsSync(join(project.home, '.codex/hooks.json')));
    assert.equal(read(config).replace(/\n\[hooks\.state\.[^\n]*\]\ntrusted_hash = "[^"]*"\n/g, ''), own);
  });

  test('a server named peri-hooks that is not peri-hooks mcp: --via mcp is refused, nothing written; commands leave it alone', async () => {
    mkdirSync(join(project.home, '.codex'), { recursive: true });
    const config = join(project.home, '.codex/config.toml');
    const foreign = '[mcp_servers.peri-hooks]\ncommand = "something-else"\n';
    writeFileSync(config, foreign);
    const args = ['install', '--host', 'codex', '--scope', 'user', '--fail-open', '--policy', policy()];
    const refused = await pkg.run([...args, '--via', 'mcp'], project);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /already defines an MCP server \[mcp_servers\.peri-hooks\] that is not peri-hooks mcp/,
    );
    assert.ok(!existsSync(join(project.home, '.codex/hooks.json')));
    assert.equal((await pkg.run(args, project)).code, 0);
    assert.equal((await pkg.run(['uninstall', '--host', 'codex', '--scope', 'user'], project)).code, 0);
    assert.equal(read(config), foreign);
  });

  test('the server it defines, called with real Codex payloads as Codex substitutes them, answers in the form Codex reads and audits each call; doctor fails without it', async () => {
    linkIntoProject(pkg, project.dir);
    const log = join(project.home, 'audit.jsonl');
    assert.equal(
      (
        await pkg.run(
          ['install', '--host', 'codex', '--via', 'mcp', '--fail-open', '--policy', policy(), '--audit', log],
          project,
        )
      ).code,
      0,
    );
    assert.match(read(projectConfig()), / --audit \\"\$HOME\\"\/audit\.jsonl"\]/);
    const [, args] = /^args = (\[.*\])$/m.exec(read(projectConfig()))!;
    const entry = { type: 'stdio' as const, command: 'sh', args: JSON.parse(args!) as string[] };
    const pool = createConnectionPool();
    const call = async (name: string, change: (payload: any) => void) => {
      const payload = JSON.parse(read(join(REAL, name)));
      change(payload);
      const event = payload.hook_event_name as string;
      return callFireTool(
        pool,
        { entry, file: projectConfig() },
        substitute(handlers()[event]![0]!.hooks[0]!.input, payload),
        project,
      );
    };
    try {
      const denied = JSON.parse(
        await call('PreToolUse.Bash.json', (payload) => (payload.tool_input.command = 'echo denied')),
      );
      assert.deepEqual(denied, {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'NO-DENIED',
        },
      });
      // An allow without a rewrite is no answer: Codex refuses permissionDecision allow and would drop the rest.
      assert.equal(await call('PreToolUse.Bash.json', () => {}), '');
      assert.deepEqual(JSON.parse(await call('UserPromptSubmit.json', () => {})), {
        hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'CTX' },
      });
    } finally {
      await pool.close();
    }
    // One record per call, Codex's payload as the host: the same a `fire --host codex --audit` firing writes.
    const records = read(log)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      records.map((record) => [record.host, record.event, record.decision]),
      [
        ['codex', 'PreToolUse', 'deny'],
        ['codex', 'PreToolUse', 'none'],
        ['codex', 'UserPromptSubmit', 'none'],
      ],
    );
    writeFileSync(projectConfig(), '');
    const doctor = await pkg.run(['doctor', '--output', 'json'], project);
    const checks = JSON.parse(doctor.stdout).checks as Array<{ id: string; status: string; detail: string }>;
    assert.ok(
      checks.some(
        (entry) =>
          entry.status === 'fail' && /does not define it: Codex CLI runs every call unguarded/.test(entry.detail),
      ),
      doctor.stdout,
    );
    assert.equal(doctor.code, 1);
  });
});
