// A small end-to-end set for every artefact: it runs against whichever CLI PERI_HOOKS_CLI selects (the
// sources, the bundle, `deno`, or a path such as dist/peri-hooks), and CI runs it on the SEA and under Deno.
// A command joins by adding cases to COMMAND_SMOKES; a command that `--help` does not list fails its cases.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { VERSION } from '../../src/platform/version.ts';
import { cliTarget, makeProject, type Project, runCli } from '../helpers/cli.ts';

let project: Project;
let server: Server;
let base = '';
let listed = new Set<string>();

before(async () => {
  project = makeProject();
  // An http hook target on loopback: the deny route answers like a policy server would.
  server = createServer((request, response) => {
    request.resume().on('end', () => {
      response.setHeader('content-type', 'application/json');
      response.end(
        request.url === '/deny'
          ? JSON.stringify({
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                permissionDecision: 'deny',
                permissionDecisionReason: 'http says no',
              },
            })
          : '{}',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const help = await runCli(['--help'], { env: project.env() });
  listed = new Set([...help.stdout.matchAll(/^ {2}(\w+)\b/gm)].map((match) => match[1]!));
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  project.cleanup();
});

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
const bashHooks = (...hooks: object[]) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks }] } });
const fire = (settings: object, stdin = project.input('PreToolUse.tool_name-Bash')) =>
  runCli(['fire', 'PreToolUse', '--setting-sources', '', '--settings', JSON.stringify(settings)], {
    stdin,
    env: project.env(),
  });

describe(`smoke: fire (${cliTarget()})`, () => {
  test('--version and --help', async () => {
    const version = await runCli(['--version'], { env: project.env() });
    assert.equal(version.code, 0);
    assert.match(version.stdout, new RegExp(`peri-hooks/${VERSION.replaceAll('.', '\\.')}`));
    assert.ok(listed.has('fire'), 'fire is listed in --help');
  });

  test('hooks that do not match: exit 0, nothing on stdout', async () => {
    const result = await fire({ hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [cmd('exit 2')] }] } });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
  });

  test('a command hook that exits 2 blocks with its reason', async () => {
    const result = await fire(bashHooks(cmd('cat >/dev/null; echo "no force pushes" >&2; exit 2')));
    assert.equal(result.code, 2);
    assert.deepEqual(JSON.parse(result.stdout).hookSpecificOutput, {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'no force pushes',
    });
  });

  test('a JSON allow reaches stdout', async () => {
    const result = await fire(
      bashHooks(cmd(`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`)),
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).hookSpecificOutput.permissionDecision, 'allow');
  });

  test('an http hook on 127.0.0.1 denies (the lazily loaded HTTP client works)', async () => {
    const result = await fire(bashHooks({ type: 'http', url: `${base}/deny` }));
    assert.equal(result.code, 2, result.stderr);
    assert.equal(JSON.parse(result.stdout).hookSpecificOutput.permissionDecisionReason, 'http says no');
  });

  test('a hook past its timeout is killed with its children', async () => {
    const tag = `sleep 30.${process.pid}7`;
    const result = await fire(bashHooks(cmd(`(${tag}) & ${tag}`, { timeout: 1 })));
    assert.equal(result.code, 0);
    assert.match(result.stderr, /timed out/);
    assert.throws(() => execFileSync('pgrep', ['-f', tag]), 'no process of the hook survives');
  });

  test('bad stdin: exit 1 with a fix', async () => {
    const result = await fire({}, '{"session_id": ');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /not valid JSON[\s\S]*fix: /);
  });
});

/** Smoke cases of the other commands; each command's cases run once its --help lists it. */
const COMMAND_SMOKES: Record<string, Array<[name: string, run: () => Promise<void>]>> = {
  validate: [
    [
      'validate: good settings pass, a broken entry fails',
      async () => {
        const good = project.write('validate/good.json', bashHooks(cmd('true')));
        const bad = project.write('validate/bad.json', bashHooks(cmd('true', { timeout: 'soon' })));
        const ok = await runCli(['validate', '--setting-sources', '', '--settings', good], { env: project.env() });
        assert.equal(ok.code, 0, ok.stderr + ok.stdout);
        const broken = await runCli(['validate', '--setting-sources', '', '--settings', bad], { env: project.env() });
        assert.equal(broken.code, 1);
        assert.match(broken.stdout + broken.stderr, /timeout/);
      },
    ],
  ],
  test: [
    [
      'test: a case file with a passing and a failing case',
      async () => {
        const settings = bashHooks(cmd(`grep -q 'rm -rf' && { echo "no rm -rf" >&2; exit 2; }; exit 0`));
        const passing = project.write('cases/pass.hooks.test.json', {
          settings,
          cases: [
            { name: 'rm is denied', tool: 'Bash', toolInput: { command: 'rm -rf /' }, expect: { decision: 'deny' } },
            { name: 'ls goes on', tool: 'Bash', toolInput: { command: 'ls' }, expect: { decision: 'none' } },
          ],
        });
        const failing = project.write('cases/fail.hooks.test.json', {
          settings,
          cases: [
            { name: 'ls is denied (wrong)', tool: 'Bash', toolInput: { command: 'ls' }, expect: { decision: 'deny' } },
          ],
        });
        const ok = await runCli(['test', passing], { env: project.env(), cwd: project.dir });
        assert.equal(ok.code, 0, ok.stderr + ok.stdout);
        const failed = await runCli(['test', failing], { env: project.env(), cwd: project.dir });
        assert.notEqual(failed.code, 0);
      },
    ],
  ],
};

describe(`smoke: other commands (${cliTarget()})`, () => {
  for (const [command, cases] of Object.entries(COMMAND_SMOKES)) {
    for (const [name, run] of cases) {
      test(name, async () => {
        // A command missing from --help fails here: a skip would let a lost command pass unseen.
        assert.ok(listed.has(command), `peri-hooks ${command} is listed in --help`);
        await run();
      });
    }
  }
});
