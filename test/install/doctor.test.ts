// `peri-hooks doctor` on a good and a broken setup, as JSON and as ✓/✗ lines. Targets are checked, never
// called: the loopback server of an http hook receives nothing.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, test } from 'node:test';
import { VERSION } from '../../src/platform/version.ts';
import { makeProject, type Project } from '../helpers/cli.ts';
import { linkIntoProject, type Package, packageCopy } from './setup.ts';

let pkg: Package;
let project: Project;
let server: Server;
let requests = 0;
let hookUrl: string;
before(async () => {
  pkg = packageCopy();
  server = createServer((_request, response) => {
    requests++;
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
after(() => {
  server.close();
  pkg.cleanup();
});
beforeEach(() => {
  project = makeProject();
});
afterEach(() => project.cleanup());

interface Report {
  ok: boolean;
  checks: Array<{ id: string; status: string; title: string; detail: string; fix?: string }>;
}

async function doctor(
  env: Record<string, string> = {},
): Promise<{ code: number | null; report: Report; stderr: string }> {
  const result = await pkg.run(['doctor', '--output', 'json'], project, { env });
  return { code: result.code, report: JSON.parse(result.stdout) as Report, stderr: result.stderr };
}

// The start-up is measured: on a loaded machine it may come out as a warning (more than half the budget).
const rows = (report: Report) =>
  report.checks.map((entry) => [
    entry.id,
    entry.id === 'startup' && entry.status === 'warn' ? 'pass' : entry.status,
    entry.title,
  ]);

test("a good setup: every check passes, the http hook's server is never called; exit 0", async () => {
  const policy = project.write('team-policy.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'command', command: 'true' },
            { type: 'http', url: hookUrl },
          ],
        },
      ],
      PostToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }],
    },
  });
  project.write('.claude/settings.json', '{\n  "model": "opus"\n}\n');
  assert.equal((await pkg.run(['install', '--policy', policy], project)).code, 0);
  // The project's registration looks for peri-hooks in the project, then on PATH: before npm install, neither.
  const before = await doctor();
  assert.equal(before.code, 1);
  assert.deepEqual(
    before.report.checks.find((entry) => entry.id === 'artefact'),
    {
      id: 'artefact',
      status: 'fail',
      title: 'artefact',
      detail:
        ".claude/settings.json starts peri-hooks from the project's node_modules/.bin/peri-hooks or from PATH, and on this machine neither is there (or node is not on PATH): its firings of PreToolUse, PostToolUse say so, and block where they are fail-closed",
      fix: 'put the peri-hooks single binary on PATH (or npm install --save-dev peri-hooks, Node >= 22.19)',
    },
  );
  linkIntoProject(pkg, project.dir);
  const bin = join(project.dir, 'node_modules/.bin/peri-hooks');
  const { code, report } = await doctor();
  assert.equal(code, 0, JSON.stringify(report, null, 2));
  assert.equal(report.ok, true);
  assert.deepEqual(rows(report), [
    ['runtime', 'pass', 'runtime'],
    ['registration', 'pass', 'project settings'],
    ['artefact', 'pass', 'artefact'],
    ['policy', 'pass', 'policy'],
    ['target', 'pass', 'PreToolUse http hook'],
    ['startup', 'pass', 'start-up'],
    ['state', 'pass', 'state folder'],
  ]);
  const detail = Object.fromEntries(report.checks.map((entry) => [entry.id, entry.detail]));
  assert.equal(detail.runtime, `peri-hooks ${VERSION} on Node ${process.version} (${process.execPath})`);
  assert.equal(detail.registration, '.claude/settings.json registers PreToolUse, PostToolUse');
  assert.equal(detail.artefact, `the registration starts ${bin} (peri-hooks ${VERSION})`);
  assert.equal(detail.policy, 'team-policy.json: 3 hooks load');
  assert.equal(detail.target, `${hookUrl}: allowed, 127.0.0.1 resolves to 127.0.0.1`);
  assert.match(
    detail.startup!,
    new RegExp(
      `^median \\d+ ms over 5 no-op firings of ${bin}: \\d+ % of SessionEnd's 1\\.5 s budget; a tool call starts 2 \\(PreToolUse, PostToolUse\\): about \\d+ ms(; less than half of it is left for the SessionEnd hooks)?$`,
    ),
  );
  assert.equal(detail.state, `${join(project.home, '.local/state/peri-hooks')} is writable`);
  assert.equal(requests, 0);
});

test('a broken setup: each problem is a ✗ with its reason and fix; exit 1', async () => {
  const policy = project.write('team-policy.json', {
    allowedHttpHookUrls: ['http://127.0.0.1:*/*', 'http://10.0.0.1/*'],
    hooks: {
      PreToolUse: [
        {
          hooks: [
            { type: 'http', url: 'http://10.0.0.1/hook' },
            { type: 'http', url: 'https://hooks.example.com/check' },
            { type: 'prompt', prompt: 'Is this call safe?' },
            { type: 'mcp_tool', server: 'memory', tool: 'check' },
          ],
        },
      ],
    },
  });
  project.write('.claude/settings.json', '{}\n');
  linkIntoProject(pkg, project.dir);
  // validate rejects it (an mcp_tool hook whose server is nowhere): install refuses, unless forced.
  const refused = await pkg.run(['install', '--policy', policy], project);
  assert.equal(refused.code, 1);
  assert.match(
    refused.stderr,
    /^peri-hooks: validate rejects the policy, so nothing was changed:\n {2}error: .*team-policy\.json:\d+:\d+ \(\/hooks\/PreToolUse\/0\/hooks\/3\/server\): no MCP configuration defines the server "memory"/,
  );
  assert.match(
    refused.stderr,
    /\n {2}fix: fix it \(peri-hooks validate --setting-sources none --settings .*team-policy\.json\), or register it as it is with --force\n$/,
  );
  assert.equal(readFileSync(join(project.dir, '.claude/settings.json'), 'utf8'), '{}\n');
  const forced = await pkg.run(['install', '--policy', policy, '--force'], project);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(
    forced.stderr,
    /warning: .*team-policy\.json:\d+:\d+ \(\/hooks\/PreToolUse\/0\/hooks\/3\/server\): REGISTERED ANYWAY \(--force\): no MCP configuration defines the server "memory"/,
  );
  // Claude Code ignores a settings file with comments, and a registration whose artefact is gone does nothing.
  project.write(
    '.claude/settings.local.json',
    `{\n  // mine\n  "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "${join(project.dir, 'gone/peri-hooks')} fire Stop --output claude" } ] } ] }\n}\n`,
  );
  const stateFile = project.write('state-is-a-file', '');
  const { code, report } = await doctor({ PERI_HOOKS_STATE_DIR: join(stateFile, 'state') });
  assert.equal(code, 1);
  assert.equal(report.ok, false);
  assert.deepEqual(rows(report), [
    ['runtime', 'pass', 'runtime'],
    ['registration', 'pass', 'project settings'],
    ['registration', 'fail', 'local settings'],
    ['registration', 'warn', 'local settings'],
    ['artefact', 'pass', 'artefact'],
    ['artefact', 'fail', 'artefact'],
    ['policy', 'fail', 'policy'],
    ['target', 'fail', 'PreToolUse http hook'],
    ['target', 'fail', 'PreToolUse http hook'],
    ['target', 'fail', 'PreToolUse prompt hook'],
    ['target', 'fail', 'PreToolUse mcp_tool hook'],
    ['startup', 'pass', 'start-up'],
    ['state', 'fail', 'state folder'],
  ]);
  // A hand-written registration without --fail-closed: what it lets through is said.
  assert.deepEqual(
    report.checks
      .filter((entry) => entry.id === 'registration' && entry.status === 'warn')
      .map((entry) => [entry.detail, entry.fix]),
    [
      [
        '.claude/settings.local.json registers Stop fail-open: a policy that does not load, a hook that fails or times out, and a peri-hooks that cannot start each let the call through (said only on stderr)',
        'peri-hooks install again without --fail-open (fail-closed is the default): each of those then blocks',
      ],
    ],
  );
  const failed = report.checks.filter((entry) => entry.status === 'fail').map((entry) => [entry.detail, entry.fix]);
  assert.deepEqual(failed, [
    [
      '.claude/settings.local.json:2:3 registers Stop, but this file is not strict JSON (a comment or a trailing comma): Claude Code rejects it as malformed and ignores all of it, the registration included',
      'remove the comments (keep the notes in another file), then run peri-hooks doctor',
    ],
    [
      `the registration starts ${join(project.dir, 'gone/peri-hooks')}, but it does not start (ENOENT)`,
      'run peri-hooks install again from the peri-hooks you want registered',
    ],
    [
      `team-policy.json: 1 error, so some hooks would not run as written:\n    error: ${policy}:24:13 (/hooks/PreToolUse/0/hooks/3/server): no MCP configuration defines the server "memory": this hook fails at every firing as "MCP server 'memory' not connected"\n  fix: no MCP server is configured; define it in .mcp.json, ~/.claude.json or a --mcp-config file (fire --mcp-config adds servers at run time) (docs/reference/diagnostics.md#mcp-server-unknown)`,
      `peri-hooks validate --setting-sources none --settings ${policy} shows every problem`,
    ],
    [
      'HTTP hook blocked: 10.0.0.1 resolves to 10.0.0.1 (private). Loopback (127.0.0.1, ::1) is allowed for local dev.',
      'point the hook at a public address, or at loopback for a local service',
    ],
    [
      'https://hooks.example.com/check does not match any pattern in allowedHttpHookUrls',
      'add a pattern for it to allowedHttpHookUrls in the policy, or fix the URL',
    ],
    [
      'Is this call safe?: no credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token) (in this environment)',
      null,
    ],
    [
      "memory/check: MCP server 'memory' not connected, so this hook fails at every firing",
      'no MCP server is configured; define it in .mcp.json, ~/.claude.json or a --mcp-config file',
    ],
    [
      'state-is-a-file/state is not writable (ENOTDIR): once hooks, the Stop loop guard and async results would be lost',
      'set PERI_HOOKS_STATE_DIR to a writable folder',
    ],
  ]);

  // A policy that no longer loads, and no registration at all.
  project.write('team-policy.json', '{ "hooks": ');
  const broken = await doctor();
  const policyCheck = broken.report.checks.find((entry) => entry.id === 'policy')!;
  assert.equal(policyCheck.status, 'fail');
  assert.match(
    policyCheck.detail,
    /^team-policy\.json: 1 error, so some hooks would not run as written:\n {4}error: .*team-policy\.json:1:12: .* is not valid JSON/,
  );
  assert.equal((await pkg.run(['uninstall'], project)).code, 0);
  project.write('.claude/settings.local.json', '{}\n');
  const none = await doctor();
  assert.deepEqual(
    none.report.checks.find((entry) => entry.id === 'registration'),
    {
      id: 'registration',
      status: 'fail',
      title: 'registration',
      detail: `peri-hooks is not registered in any Claude Code settings file (.claude/settings.json, .claude/settings.local.json, ${join(project.home, '.claude/settings.json')}, ${join(project.managed, 'managed-settings.json')})`,
      fix: 'peri-hooks install --policy <file>',
    },
  );
});

test('human output: one ✓ or ✗ line per check, the fix under each failure, then the verdict', async () => {
  project.write('.claude/settings.json', '{}\n');
  const result = await pkg.run(['doctor'], project);
  assert.equal(result.code, 1);
  const lines = result.stdout.split('\n');
  assert.match(lines[0]!, /^✓ runtime: peri-hooks .* on Node /);
  assert.equal(
    lines[1],
    `✗ registration: peri-hooks is not registered in any Claude Code settings file (.claude/settings.json, .claude/settings.local.json, ${join(project.home, '.claude/settings.json')}, ${join(project.managed, 'managed-settings.json')})`,
  );
  assert.equal(lines[2], '  fix: peri-hooks install --policy <file>');
  assert.match(lines[3]!, /^[✓!] start-up: median \d+ ms over 5 no-op firings/);
  assert.match(lines[4]!, /^✓ state folder: .* is writable$/);
  assert.equal(lines[5], '1 of 4 checks failed: the guard would not work as configured');
});

test('the same policy in two scopes, a registration naming its policy relatively, a registered file that does not parse: each said as it is', async () => {
  const policy = project.write('team-policy.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
  });
  linkIntoProject(pkg, project.dir);
  assert.equal((await pkg.run(['install', '--policy', policy], project)).code, 0);
  assert.equal((await pkg.run(['install', '--scope', 'local', '--policy', policy], project)).code, 0);
  const twice = await doctor();
  const warnings = twice.report.checks
    .filter((entry) => entry.status === 'warn' && entry.id === 'registration')
    .map((entry) => [entry.detail, entry.fix]);
  assert.deepEqual(warnings, [
    [
      'team-policy.json is registered for PreToolUse in the project and local settings: Claude Code runs each registration, so every PreToolUse hook of it runs 2 times',
      'keep one: peri-hooks uninstall --scope local',
    ],
  ]);
  assert.equal((await pkg.run(['uninstall', '--scope', 'local'], project)).code, 0);

  // By hand, with the policy named from the working folder.
  project.write('.claude/settings.local.json', {
    hooks: {
      Stop: [
        {
          hooks: [
            {
              type: 'command',
              command: `${pkg.runner} fire Stop --output claude --settings ./team-policy.json --setting-sources none --fail-closed`,
            },
          ],
        },
      ],
    },
  });
  const relative = await doctor();
  assert.deepEqual(
    relative.report.checks
      .filter((entry) => entry.status === 'warn' && entry.id === 'registration')
      .map((entry) => [entry.detail, entry.fix]),
    [
      [
        ".claude/settings.local.json names its policy relative to the folder the hook runs in (./team-policy.json): Claude Code runs hooks in the session's folder, so from a subfolder the policy is not found",
        'name it from the project, --settings "$CLAUDE_PROJECT_DIR"/team-policy.json, or run peri-hooks install, which does',
      ],
    ],
  );

  // A trailing comma: Claude Code ignores the file, registration and all; doctor says that, not "not registered".
  project.write(
    '.claude/settings.json',
    readFileSync(join(project.dir, '.claude/settings.json'), 'utf8').replace(/\n}\n$/, ',\n}\n'),
  );
  project.write('.claude/settings.local.json', '{}\n');
  const broken = await doctor();
  const failed = broken.report.checks
    .filter((entry) => entry.status === 'fail' && entry.id === 'registration')
    .map((entry) => [entry.title, entry.detail, entry.fix]);
  assert.equal(failed.length, 2);
  assert.match(
    failed[0]![1]!,
    /^\.claude\/settings\.json does not parse \(.*line \d+, column \d+\): Claude Code ignores all of it, so nothing it registers runs$/,
  );
  assert.equal(failed[0]![2], 'make it strict JSON (no comments, no trailing commas), then run peri-hooks doctor');
  assert.doesNotMatch(JSON.stringify(broken.report), /nothing was changed|comments are fine/);
  assert.equal(
    failed[1]![1],
    'peri-hooks is not registered in any Claude Code settings file that parses (.claude/settings.json does not)',
  );
});
