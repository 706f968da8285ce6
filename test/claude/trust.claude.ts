// `npm run test:claude`: the organisation's recipe of docs/guide/trust.md against the real Claude Code 2.1.332. Managed
// settings hold `allowManagedHooksOnly: true` and peri-hooks' registration (`install --scope managed
// --project-hooks`), so Claude Code runs the project's hooks only through peri-hooks, which runs them only as
// approved. A commit changes a project hook script: the changed hook does not run and the call is refused
// (fail-closed); after `peri-hooks trust` it runs.
//
// Claude Code 2.1.332 reads managed settings only from /etc/claude-code (its CLAUDE_CODE_MANAGED_SETTINGS_PATH is
// compiled out of this build), so each run gets that folder in a private mount namespace: /etc overlaid with a
// temporary upper folder, the machine's /etc untouched. That takes root (CAP_SYS_ADMIN); elsewhere the test skips.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { installClaudeCode } from '../../scripts/install-claude-code.ts';
import { ROOT } from '../helpers/cli.ts';
import { bash, DEAD_PROXY, killStragglers, runClaude, startFakeApi } from './harness.ts';

const PERI_HOOKS = join(ROOT, 'dist', 'peri-hooks.cjs');
const root = mkdtempSync(join(tmpdir(), 'peri-hooks-trust-claude-'));
const home = join(root, 'home');
const project = join(root, 'project');
const hookLog = join(root, 'hook-log');
// The overlay's upper folder: what it holds under claude-code/ is /etc/claude-code inside the namespace.
const upper = join(root, 'etc-upper');
const managedDir = join(upper, 'claude-code');

/** Why the recipe cannot run here, or undefined. */
function unsupported(): string | undefined {
  if (process.platform !== 'linux') return 'the recipe test runs on Linux (/etc/claude-code)';
  if (process.getuid?.() !== 0)
    return 'needs root: Claude Code 2.1.332 reads managed settings only from /etc/claude-code, given here in a private mount namespace (unshare -m); run npm run test:claude as root (CI containers are)';
  const probe = spawnSync('unshare', ['-m', 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) return `unshare -m is not allowed here (${probe.stderr.trim() || probe.error?.message})`;
  return undefined;
}
const skip = unsupported();

let claude = '';
before(() => {
  if (skip) return;
  claude = installClaudeCode((text) => console.error(text));
});
after(() => {
  killStragglers(root);
  rmSync(root, { recursive: true, force: true });
});

const env = (apiUrl: string): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: home,
  XDG_STATE_HOME: join(home, '.local', 'state'),
  TMPDIR: join(root, 'tmp'),
  HOOK_LOG: hookLog,
  ANTHROPIC_BASE_URL: apiUrl,
  ANTHROPIC_API_KEY: 'sk-ant-test-offline',
  HTTP_PROXY: DEAD_PROXY,
  HTTPS_PROXY: DEAD_PROXY,
  NO_PROXY: '127.0.0.1,localhost',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
});

const peri = (...args: string[]) =>
  spawnSync(process.execPath, [PERI_HOOKS, ...args], {
    cwd: project,
    env: { ...env('http://127.0.0.1:9'), PERI_HOOKS_MANAGED_DIR: managedDir },
    encoding: 'utf8',
  });

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=dev', '-c', 'user.email=dev@example.invalid', ...args], { cwd: project });

/** One headless session whose model runs `touch <made>` through Bash, in the namespace where /etc/claude-code is ours. */
async function session(made: string) {
  const api = await startFakeApi([[bash('t1', `touch ${made}`)]]);
  try {
    const work = join(root, `work-${made}`);
    mkdirSync(join(work, 'upper'), { recursive: true });
    mkdirSync(join(work, 'work'), { recursive: true });
    // The overlay's upper layer is a fresh copy each run, since overlayfs wants its own work folder.
    execFileSync('cp', ['-a', `${managedDir}`, join(work, 'upper')]);
    const script = `mount -t overlay overlay -o lowerdir=/etc,upperdir=${join(work, 'upper')},workdir=${join(work, 'work')} /etc && exec "$0" "$@"`;
    const run = await runClaude(
      'unshare',
      ['-m', 'sh', '-c', script, claude, '-p', 'go', '--output-format', 'json'],
      project,
      env(api.url),
    );
    const result = JSON.parse(run.stdout || '{}') as { is_error?: boolean };
    return { run, result, requests: JSON.stringify(api.mainLoop().map((request) => request.body.messages)) };
  } finally {
    await api.close();
  }
}

const logged = () => readdirSync(hookLog).sort();

test('managed allowManagedHooksOnly + peri-hooks with trust required: a committed change of a hook script is refused until trusted', {
  skip: skip ?? false,
  timeout: 600_000,
}, async () => {
  for (const folder of [home, project, hookLog, managedDir, join(root, 'tmp')]) mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({ hasCompletedOnboarding: true, projects: { [project]: { hasTrustDialogAccepted: true } } }),
  );
  mkdirSync(join(project, '.claude', 'hooks'), { recursive: true });
  const guard = join(project, '.claude', 'hooks', 'guard.sh');
  writeFileSync(guard, '#!/bin/sh\ntouch "$HOOK_LOG/guard-v1"\nexit 0\n', { mode: 0o755 });
  writeFileSync(
    join(project, '.claude', 'settings.json'),
    JSON.stringify({
      permissions: { allow: ['Bash'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh .claude/hooks/guard.sh' }] }],
      },
    }),
  );
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'the team guard');

  const installed = peri('install', '--scope', 'managed', '--project-hooks', '--events', 'PreToolUse');
  assert.equal(installed.status, 0, installed.stderr);
  const managed = JSON.parse(readFileSync(join(managedDir, 'managed-settings.json'), 'utf8'));
  assert.equal(managed.allowManagedHooksOnly, true);
  assert.match(
    managed.hooks.PreToolUse[0].hooks[0].command,
    /--setting-sources project,local --fail-closed --require-trust$/,
  );

  // Approved as committed: the hook runs, through peri-hooks, and the call goes on.
  assert.equal(peri('trust').status, 0);
  const first = await session('made-1');
  assert.equal(first.run.exitCode, 0, first.run.stderr);
  assert.deepEqual(logged(), ['guard-v1']);
  assert.ok(existsSync(join(project, 'made-1')), 'the approved hook lets the call through');

  // A commit changes the script: it does not run, and the call is refused with the reason and the fix.
  writeFileSync(guard, '#!/bin/sh\ntouch "$HOOK_LOG/guard-v2"\nexit 0\n');
  git('commit', '-qam', 'a contributor changes the guard');
  const second = await session('made-2');
  assert.deepEqual(logged(), ['guard-v1'], 'neither Claude Code nor peri-hooks runs the changed script');
  assert.ok(!existsSync(join(project, 'made-2')), 'the call is refused (fail-closed)');
  assert.match(
    second.requests,
    /did not run: trust is required \(--require-trust\), and it is not approved: \.claude\/hooks\/guard\.sh changed/,
  );
  assert.match(second.requests, /peri-hooks trust --project-dir /);

  // The developer reviews the change and approves it: now it runs.
  const diff = peri('trust', '--diff');
  assert.match(diff.stdout, /\.claude\/hooks\/guard\.sh changed \(sha256 /);
  assert.equal(peri('trust').status, 0);
  const third = await session('made-3');
  assert.equal(third.run.exitCode, 0, third.run.stderr);
  assert.deepEqual(logged(), ['guard-v1', 'guard-v2']);
  assert.ok(existsSync(join(project, 'made-3')));
});
