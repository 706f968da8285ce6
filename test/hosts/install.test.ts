// install --host / uninstall --host for every host: its file and shape, only the events the policy uses,
// the project's files portable (the project found from the file, peri-hooks in it or on PATH, the policy
// relative to it), idempotent, comments and other keys kept, dry runs that write nothing, uninstall exact.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { HOSTS } from '../../src/hosts/table.ts';
import { HOST_NAMES } from '../../src/hosts/types.ts';
import { makeProject, type Project, ROOT, runCli } from '../helpers/cli.ts';

let project: Project;
let policy: string;
before(() => {
  project = makeProject();
  const deny = project.write('hooks/deny.sh', '#!/bin/sh\ncat > /dev/null\necho "no force pushes" >&2\nexit 2\n');
  policy = project.write('policy.json', {
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: deny, timeout: 20 }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'true' }] }],
    },
  });
  // The project's npm install of peri-hooks: the built bin.
  project.write(
    'node_modules/.bin/peri-hooks',
    `#!/bin/sh\nexec ${process.execPath} ${join(ROOT, 'dist/peri-hooks.cjs')} "$@"\n`,
  );
  chmodSync(join(project.dir, 'node_modules/.bin/peri-hooks'), 0o755);
});
after(() => project.cleanup());

const cli = (args: string[]) =>
  runCli([...args, '--project-dir', project.dir], { env: project.env(), cwd: project.dir });
const install = (host: string, ...extra: string[]) => cli(['install', '--host', host, '--policy', policy, ...extra]);
const uninstall = (host: string, ...extra: string[]) => cli(['uninstall', '--host', host, ...extra]);

/** The registered command of one entry, whatever the shape. */
function firing(host: string, file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const shape = HOSTS[host as keyof typeof HOSTS].install.shape;
  // In a JSON file the quotes are escaped; a plugin names the policy in its ARGS (a test of its own below).
  const relative = shape === 'plugin' ? policy : shape === 'scripts' ? '"$d"/policy.json' : '\\"$d\\"/policy.json';
  return [...text.matchAll(/fire --host (\S+) (\S+) --settings (\S+) --setting-sources none/g)].map((match) => {
    assert.equal(match[1], host);
    assert.equal(match[3], relative, 'the policy relative to the project');
    return match[2]!;
  });
}

describe('install --host, every host', () => {
  for (const host of HOST_NAMES) {
    test(`${host}: registers the policy's events in ${HOSTS[host].install.project}, once; uninstall leaves nothing`, async () => {
      const target = join(project.dir, HOSTS[host].install.project);
      const first = await install(host);
      assert.equal(first.code, 0, first.stderr);
      const shape = HOSTS[host].install.shape;
      const files = shape === 'scripts' ? ['PreToolUse'].map((name) => join(target, name)) : [target];
      for (const file of files) assert.ok(existsSync(file), `${file} written`);
      const registered = shape === 'scripts' ? files.flatMap((file) => firing(host, file)) : firing(host, target);
      const expected = Object.entries(HOSTS[host].events)
        .filter(([, def]) => def.install && (def.event === 'PreToolUse' || def.event === 'Stop'))
        .map(([name]) => name);
      if (shape !== 'plugin') assert.deepEqual(registered.sort(), expected.sort());
      const again = await install(host);
      assert.match(again.stdout, /already registered/);
      const removed = await uninstall(host);
      assert.equal(removed.code, 0, removed.stderr);
      for (const file of files) assert.equal(existsSync(file), false, `${file} removed: install created it`);
      const folder = shape === 'scripts' ? target : dirname(target);
      assert.equal(existsSync(folder), false, `${folder} removed: install made it, and it is empty`);
      assert.equal(existsSync(`${target}.peri-hooks.bak`), false);
    });
  }
});

describe('install --host, shapes', () => {
  test("codex: Claude Code's nested groups under hooks, timeout in seconds (the slowest hook + 5)", async () => {
    await install('codex');
    const file = JSON.parse(readFileSync(join(project.dir, '.codex/hooks.json'), 'utf8'));
    assert.deepEqual(Object.keys(file), ['hooks']);
    assert.equal(file.hooks.PreToolUse[0].hooks[0].type, 'command');
    assert.equal(file.hooks.PreToolUse[0].hooks[0].timeout, 25);
    await uninstall('codex');
  });

  test('gemini: nested, timeout in milliseconds', async () => {
    await install('gemini');
    const file = JSON.parse(readFileSync(join(project.dir, '.gemini/settings.json'), 'utf8'));
    assert.equal(file.hooks.BeforeTool[0].hooks[0].timeout, 25_000);
    assert.equal(file.hooks.AfterAgent[0].hooks[0].name, 'peri-hooks');
    await uninstall('gemini');
  });

  test('gemini: a policy whose only tool-result hooks are PostToolUseFailure registers AfterTool, timed by the failure hook', async () => {
    const failures = project.write('failures.json', {
      hooks: {
        PostToolUse: [{ hooks: [{ type: 'command', command: 'true', timeout: 5 }] }],
        PostToolUseFailure: [{ hooks: [{ type: 'command', command: 'true', timeout: 40 }] }],
      },
    });
    const both = await cli(['install', '--host', 'gemini', '--policy', failures]);
    assert.equal(both.code, 0, both.stderr);
    assert.equal(
      JSON.parse(readFileSync(join(project.dir, '.gemini/settings.json'), 'utf8')).hooks.AfterTool[0].hooks[0].timeout,
      45_000,
      'the slowest of PostToolUse and PostToolUseFailure, + 5 s',
    );
    const only = project.write('failures-only.json', {
      hooks: { PostToolUseFailure: [{ hooks: [{ type: 'command', command: 'true', timeout: 7 }] }] },
    });
    const result = await cli(['install', '--host', 'gemini', '--policy', only]);
    assert.equal(result.code, 0, result.stderr);
    const file = JSON.parse(readFileSync(join(project.dir, '.gemini/settings.json'), 'utf8'));
    assert.deepEqual(Object.keys(file.hooks), ['AfterTool']);
    assert.equal(file.hooks.AfterTool[0].hooks[0].timeout, 12_000);
    await uninstall('gemini');
  });

  test('copilot: version 1, flat entries with bash and timeoutSec', async () => {
    await install('copilot');
    const file = JSON.parse(readFileSync(join(project.dir, '.github/hooks/peri-hooks.json'), 'utf8'));
    assert.equal(file.version, 1);
    assert.equal(file.hooks.preToolUse[0].type, 'command');
    assert.equal(file.hooks.preToolUse[0].timeoutSec, 25);
    assert.match(file.hooks.agentStop[0].bash, /fire --host copilot agentStop/);
    await uninstall('copilot');
  });

  test('antigravity: a named group of its own', async () => {
    await install('antigravity');
    const file = JSON.parse(readFileSync(join(project.dir, '.agents/hooks.json'), 'utf8'));
    assert.deepEqual(Object.keys(file['peri-hooks']), ['PreToolUse', 'Stop']);
    await uninstall('antigravity');
  });

  test('cursor: an existing file keeps its comments and hooks; uninstall gives it back byte for byte', async () => {
    const original =
      '{\n  // the team\'s audit hook\n  "version": 1,\n  "hooks": {\n    "stop": [{ "command": "./audit.sh" }]\n  }\n}\n';
    const file = project.write('.cursor/hooks.json', original);
    const dry = await install('cursor', '--dry-run');
    assert.match(dry.stdout, /^\+ {4}"preToolUse": \[/m);
    assert.equal(readFileSync(file, 'utf8'), original, 'a dry run writes nothing');
    await install('cursor');
    const installed = readFileSync(file, 'utf8');
    assert.match(installed, /\/\/ the team's audit hook/);
    assert.match(installed, /"command": "\.\/audit\.sh"/);
    assert.deepEqual(firing('cursor', file).sort(), ['preToolUse', 'stop']);
    await uninstall('cursor');
    assert.equal(readFileSync(file, 'utf8'), original);
  });

  test('--events narrows what is registered; a re-install without it adds the rest, never twice', async () => {
    await install('codex', '--events', 'Stop');
    const file = join(project.dir, '.codex/hooks.json');
    assert.deepEqual(firing('codex', file), ['Stop']);
    await install('codex');
    assert.deepEqual(firing('codex', file).sort(), ['PreToolUse', 'Stop']);
    await install('codex', '--events', 'PreToolUse');
    assert.deepEqual(firing('codex', file), ['PreToolUse']);
    await uninstall('codex');
    assert.equal(existsSync(file), false);
  });

  test('a policy without any event the host has is refused, naming what it maps', async () => {
    const only = project.write('notify-policy.json', {
      hooks: { Notification: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const result = await cli(['install', '--host', 'windsurf', '--policy', only]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /the policy's events \(Notification\) have no Windsurf \(Cascade\) event to register/);
  });

  test("cline: executable scripts that fire the policy for real; a script of the user's own is refused", async () => {
    await install('cline');
    const script = join(project.dir, '.clinerules/hooks/PreToolUse');
    assert.equal(statSync(script).mode & 0o111, 0o111);
    const payload = JSON.stringify({
      clineVersion: '3.36.0',
      hookName: 'PreToolUse',
      timestamp: '1764497565123',
      taskId: 'task-1',
      workspaceRoots: [project.dir],
      userId: 'u1',
      preToolUse: { toolName: 'execute_command', parameters: { command: 'git push --force' } },
    });
    // Cline runs it in the workspace; from a subfolder the project is found all the same.
    const run = spawnSync(script, [], {
      input: payload,
      encoding: 'utf8',
      env: project.env(),
      cwd: join(project.dir, 'hooks'),
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { cancel: true, errorMessage: 'no force pushes' });
    await uninstall('cline');
    project.write('.clinerules/hooks/PreToolUse', '#!/bin/sh\necho mine\n');
    const refused = await install('cline');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /PreToolUse is a Cline hook of its own; nothing was changed/);
    rmSync(join(project.dir, '.clinerules'), { recursive: true });
  });

  test('opencode: the generated plugin refuses a denied call and lets an allowed one through', async () => {
    const installed = await install('opencode');
    assert.match(
      installed.stderr,
      /peri-hooks: opencode \(plugin\) has no event for Stop: those hooks of the policy do not run there/,
    );
    const file = join(project.dir, '.opencode/plugins/peri-hooks.js');
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(
      text,
      /tool\.execute\.after/,
      'the policy has no PostToolUse hook: nothing is registered after a tool',
    );
    assert.doesNotMatch(text, /spawnSync/, "opencode's event loop goes on while the policy runs");
    // The plugin runs peri-hooks in this process's environment: its session state goes into the project.
    process.env.PERI_HOOKS_STATE_DIR = join(project.dir, 'state');
    const plugin = (await import(pathToFileURL(file).href)).default as (context: {
      directory: string;
    }) => Promise<Record<string, (input: object, output: { args: object }) => Promise<void>>>;
    const hooks = await plugin({ directory: project.dir });
    await assert.rejects(
      hooks['tool.execute.before']!(
        { tool: 'bash', sessionID: 's1', callID: 'c1' },
        { args: { command: 'git push --force' } },
      ),
      /no force pushes/,
    );
    await hooks['tool.execute.before']!(
      { tool: 'read', sessionID: 's1', callID: 'c2' },
      { args: { filePath: 'README.md' } },
    );
    // peri-hooks cannot start: opencode refuses a call whose plugin fails, and so does this one.
    writeFileSync(file, text.replace(/^const RUNNER = .*$/m, 'const RUNNER = ["/nonexistent/peri-hooks"];'));
    const broken = (await import(`${pathToFileURL(file).href}?broken`)).default as typeof plugin;
    await assert.rejects(
      (await broken({ directory: project.dir }))['tool.execute.before']!(
        { tool: 'read', sessionID: 's1', callID: 'c3' },
        { args: { filePath: 'README.md' } },
      ),
      /: peri-hooks failed; refused because of --fail-closed$/,
    );
    await uninstall('opencode');
    assert.equal(existsSync(file), false);
  });

  test("opencode at project scope: the plugin names nothing of this machine; a colleague's checkout runs it, and without peri-hooks it refuses, naming the fix", async () => {
    await install('opencode');
    const file = join(project.dir, '.opencode/plugins/peri-hooks.js');
    const text = readFileSync(file, 'utf8');
    for (const local of [project.dir, ROOT, process.execPath])
      assert.ok(!text.includes(local), `${local} in the plugin`);
    const doctor = await cli(['doctor', '--output', 'json']);
    const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ title: string; status: string; detail: string }> })
      .checks;
    const registration = checks.find((entry) => entry.title === 'opencode (plugin) registration');
    assert.equal(registration?.status, 'pass', JSON.stringify(checks));
    // Another checkout: the same files in another folder.
    const other = join(dirname(project.dir), 'checkout');
    cpSync(project.dir, other, { recursive: true });
    const moved = join(other, '.opencode/plugins/peri-hooks.js');
    process.env.PERI_HOOKS_STATE_DIR = join(other, 'state');
    const plugin = (await import(pathToFileURL(moved).href)).default as (context: {
      directory: string;
    }) => Promise<Record<string, (input: object, output: { args: object }) => Promise<void>>>;
    const before = (await plugin({ directory: other }))['tool.execute.before']!;
    await assert.rejects(
      before({ tool: 'bash', sessionID: 's1', callID: 'c1' }, { args: { command: 'git push --force' } }),
      /no force pushes/,
    );
    rmSync(join(other, 'node_modules'), { recursive: true });
    const path = process.env.PATH;
    const write = process.stderr.write;
    let said = '';
    process.env.PATH = '/nonexistent';
    process.stderr.write = ((chunk: string) => {
      said += chunk;
      return true;
    }) as typeof process.stderr.write;
    try {
      await assert.rejects(
        before({ tool: 'read', sessionID: 's1', callID: 'c2' }, { args: { filePath: 'README.md' } }),
        /peri-hooks failed; refused/,
      );
    } finally {
      process.stderr.write = write;
      process.env.PATH = path;
    }
    assert.match(
      said,
      /peri-hooks cannot start here: neither node_modules\/\.bin\/peri-hooks \(with node on PATH\) nor peri-hooks on PATH; fix: /,
    );
    rmSync(other, { recursive: true });
    await uninstall('opencode');
  });

  test("doctor warns about another agent's fail-open registration and says what it lets through, except where the agent refuses the action itself", async () => {
    const hosts = ['codex', 'gemini', 'copilot', 'qwen', 'cursor', 'opencode'] as const;
    // A project of its own: the files of the other tests stay as they are.
    const own = makeProject();
    own.write('node_modules/.bin/peri-hooks', readFileSync(join(project.dir, 'node_modules/.bin/peri-hooks'), 'utf8'));
    chmodSync(join(own.dir, 'node_modules/.bin/peri-hooks'), 0o755);
    own.write('policy.json', readFileSync(policy, 'utf8'));
    const cli = (args: string[]) => runCli([...args, '--project-dir', own.dir], { env: own.env(), cwd: own.dir });
    const install = (host: string, ...extra: string[]) =>
      cli(['install', '--host', host, '--policy', join(own.dir, 'policy.json'), ...extra]);
    const warnings = async () => {
      const result = await cli(['doctor', '--output', 'json']);
      return (
        JSON.parse(result.stdout) as { checks: Array<{ title: string; status: string; detail: string; fix?: string }> }
      ).checks
        .filter((entry) => entry.status === 'warn' && / fail-open: /.test(entry.detail))
        .map((entry) => [entry.title, entry.detail.replace(/ fail-open: .*/, ''), entry.fix]);
    };
    for (const host of hosts) assert.equal((await install(host, '--fail-open')).code, 0, host);
    const open = await warnings();
    const lets = (title: string, file: string, events: string, host: string) => [
      title,
      `${file} registers ${events}`,
      `peri-hooks install --host ${host} again without --fail-open (fail-closed is the default): each of those then blocks`,
    ];
    assert.deepEqual(open, [
      lets('Codex CLI registration', '.codex/hooks.json', 'PreToolUse, Stop', 'codex'),
      lets('Cursor registration', '.cursor/hooks.json', 'preToolUse, stop', 'cursor'),
      lets('Gemini CLI registration', '.gemini/settings.json', 'BeforeTool, AfterAgent', 'gemini'),
      // Copilot refuses a call whose preToolUse hook fails: only its Stop is let through.
      lets('GitHub Copilot CLI registration', '.github/hooks/peri-hooks.json', 'agentStop', 'copilot'),
      lets('Qwen Code registration', '.qwen/settings.json', 'PreToolUse, Stop', 'qwen'),
      // opencode refuses a call whose plugin fails: nothing is let through.
    ]);
    const result = await cli(['doctor', '--output', 'json']);
    assert.match(
      result.stdout,
      /registers PreToolUse, Stop fail-open: a policy that does not load, a hook that fails or times out, and a peri-hooks that cannot start each let the action through in Codex CLI \(said only on stderr\)/,
    );
    for (const host of hosts) assert.equal((await install(host)).code, 0, host);
    assert.deepEqual(await warnings(), []);
    own.cleanup();
  });

  test('doctor: Copilot loads .github/hooks/ only in a folder it trusts (config.json trustedFolders, or one above)', async () => {
    await install('copilot');
    const gate = async (env: Record<string, string> = {}) => {
      const result = await runCli(['doctor', '--output', 'json', '--project-dir', project.dir], {
        env: project.env(env),
        cwd: project.dir,
      });
      const report = JSON.parse(result.stdout) as {
        ok: boolean;
        checks: Array<{ title: string; status: string; detail: string; fix?: string }>;
      };
      return {
        ok: report.ok,
        check: report.checks.find((entry) => entry.title === 'GitHub Copilot CLI folder trust')!,
      };
    };
    const untrusted = await gate();
    assert.equal(untrusted.ok, false);
    assert.equal(untrusted.check.status, 'fail');
    assert.match(
      untrusted.check.detail,
      /is not a trusted folder in .*config\.json: Copilot CLI skips \.github\/hooks\/ there without a word/,
    );
    assert.match(untrusted.check.fix!, /--trust-folder/);
    // As Copilot writes the file: a comment first; the folder above the project trusted.
    const config = project.write(
      'copilot-home/config.json',
      `// This file is managed automatically.\n${JSON.stringify({ trustedFolders: [join(project.dir, '..')] })}\n`,
    );
    const trusted = await gate({ COPILOT_HOME: join(config, '..') });
    assert.equal(trusted.check.status, 'pass', trusted.check.detail);
    assert.match(trusted.check.detail, /is trusted/);
    await uninstall('copilot');
  });

  test("doctor checks Gemini CLI's trust gate once for a registration in both scopes, and fails where Gemini would not run it", async () => {
    await install('gemini');
    await install('gemini', '--scope', 'user');
    const gate = async () => {
      const result = await cli(['doctor', '--output', 'json']);
      return (
        JSON.parse(result.stdout) as { checks: Array<{ title: string; status: string; detail: string }> }
      ).checks.filter((entry) => entry.title === 'Gemini CLI trust');
    };
    const untrusted = await gate();
    assert.equal(untrusted.length, 1);
    assert.equal(untrusted[0]!.status, 'fail');
    assert.match(untrusted[0]!.detail, /is not trusted \(no rule in .*trustedFolders\.json trusts it\)/);
    const home = project.env().HOME!;
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project.dir]: 'TRUST_FOLDER' }));
    assert.equal((await gate())[0]!.status, 'pass');
    rmSync(join(home, '.gemini', 'trustedFolders.json'));
    await uninstall('gemini');
    await uninstall('gemini', '--scope', 'user');
  });

  test('doctor finds the registrations of other agents and checks what they run', async () => {
    await install('cursor');
    await install('cline');
    const result = await cli(['doctor', '--output', 'json']);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      checks: Array<{ title: string; status: string; detail: string }>;
    };
    assert.equal(report.ok, true, result.stdout);
    assert.deepEqual(
      report.checks
        .filter((entry) => entry.title.endsWith(' registration'))
        .map((entry) => [entry.title, entry.status, entry.detail]),
      [
        // The file of the comments test, with its own stop hook first.
        ['Cursor registration', 'pass', '.cursor/hooks.json: stop, preToolUse'],
        ['Cline registration', 'pass', '.clinerules/hooks: PreToolUse'],
      ],
    );
    assert.equal(
      report.checks.find((entry) => entry.title === 'registration')!.status,
      'warn',
      'no Claude Code registration is no failure then',
    );
    assert.match(report.checks.find((entry) => entry.title === 'policy')!.detail, /policy\.json: 2 hooks load/);
    await uninstall('cursor');
    await uninstall('cline');
  });
});
