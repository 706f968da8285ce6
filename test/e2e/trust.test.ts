// Content-pinned trust of project hooks (issue 33): `peri-hooks trust` records the project's hooks as they are, and a
// firing that requires trust runs only those, exactly as they were approved.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cliCommand, makeProject, type Project, runCli } from '../helpers/cli.ts';
import { call, startServe } from '../helpers/serve.ts';
import { until } from '../helpers/wait.ts';

const projects: Project[] = [];
after(() => {
  for (const project of projects) project.cleanup();
});

type Cli = (args: string[], stdin?: string) => ReturnType<typeof runCli>;

function setUp(): { project: Project; env: Record<string, string>; cli: Cli } {
  const project = makeProject();
  projects.push(project);
  const env = project.env({ XDG_STATE_HOME: join(project.home, '.local', 'state') });
  const cli = (args: string[], stdin?: string) =>
    runCli(args, { env, cwd: project.dir, ...(stdin === undefined ? {} : { stdin }) });
  return { project, env, cli };
}

const bashLs = ['fire', '--tool', 'Bash', '--command', 'ls'];

interface TrustDocument {
  hooks: Array<{ trust: { scripts: Array<{ file: string }>; notes: string[] } }>;
}

/** `trust --diff --output json`: the document, and the files each hook pins, in order. */
async function trustDiff(cli: Cli): Promise<{ document: TrustDocument; files: string[][] }> {
  const document: TrustDocument = JSON.parse((await cli(['trust', '--diff', '--output', 'json'])).stdout);
  return { document, files: document.hooks.map((hook) => hook.trust.scripts.map((script) => script.file)) };
}

/** Edits an approved file and fires where trust is required: the hook is skipped (exit 0), and `skipped` says why. */
async function firedAfterEdit(cli: Cli, file: string, content: string, skipped: RegExp): ReturnType<Cli> {
  writeFileSync(file, content);
  const fired = await cli([...bashLs, '--require-trust']);
  assert.equal(fired.code, 0, fired.stderr);
  assert.match(fired.stderr, skipped);
  return fired;
}

test('an unapproved project hook does not run where trust is required; trust approves it; a changed script is skipped again, naming the file', async () => {
  const { project, cli } = setUp();
  const script = project.write('.claude/hooks/check.sh', '#!/bin/sh\necho "check ran" >&2\nexit 2\n');
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh' }] },
      ],
    },
  });
  project.writeHome('.claude/settings.json', {
    hooks: {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'touch "$CLAUDE_PROJECT_DIR/user-ran"' }] }],
    },
  });

  // Without --require-trust nothing changes.
  assert.equal((await cli(bashLs)).code, 2);
  const skipped = await cli([...bashLs, '--require-trust']);
  assert.equal(skipped.code, 0, skipped.stderr);
  assert.doesNotMatch(skipped.stderr, /check ran/);
  assert.ok(existsSync(join(project.dir, 'user-ran')), 'user hooks are not affected');
  assert.match(
    skipped.stderr,
    /settings\.json \(\/hooks\/PreToolUse\/0\/hooks\/0\): the project hook .*check\.sh" did not run: trust is required \(--require-trust\), and it is not approved: never approved; review it, then approve it with: peri-hooks trust --project-dir /,
  );
  const closed = await cli([...bashLs, '--require-trust', '--fail-closed', '--output', 'claude']);
  // Claude Code's exit-2 block, its reason on stderr.
  assert.equal(closed.code, 2);
  assert.match(closed.stderr, /check\.sh" did not run: trust is required.*blocking because of --fail-closed\)\n$/);

  const approved = await cli(['trust']);
  assert.equal(approved.code, 0, approved.stderr);
  assert.match(approved.stdout, /runs \.claude\/hooks\/check\.sh sha256 [0-9a-f]{64}\n {2}not approved \(new\)/);
  assert.match(
    approved.stdout,
    /approved 1 hook of .* as shown \(.*\.local\/state\/peri-hooks\/trust\/[0-9a-f]{32}\.json\)/,
  );
  const ran = await cli([...bashLs, '--require-trust']);
  assert.equal(ran.code, 2);
  assert.match(ran.stderr, /check ran/);

  const changed = await firedAfterEdit(
    cli,
    script,
    '#!/bin/sh\necho "check changed" >&2\nexit 2\n',
    /not approved: \.claude\/hooks\/check\.sh changed \(sha256 [0-9a-f]{12} → [0-9a-f]{12}\)/,
  );
  assert.doesNotMatch(changed.stderr, /check changed/);
  const diff = await cli(['trust', '--diff', '--output', 'json']);
  assert.equal(diff.code, 0, diff.stderr);
  const document = JSON.parse(diff.stdout);
  assert.equal(document.action, 'diff');
  assert.equal(document.hooks.length, 1, 'only project and local hooks');
  assert.equal(document.hooks[0].trust.status, 'changed');
  assert.equal(document.hooks[0].trust.scripts[0].file, '.claude/hooks/check.sh');

  // An edit of the entry itself is a change too.
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash|Write',
          hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh' }],
        },
      ],
    },
  });
  assert.match(
    (await cli(['trust', '--diff'])).stdout,
    /changed since approved: its entry in \.claude\/settings\.json changed; \.claude\/hooks\/check\.sh changed/,
  );

  assert.equal((await cli(['trust'])).code, 0);
  assert.equal((await cli([...bashLs, '--require-trust'])).code, 2);
  const revoked = await cli(['trust', '--revoke']);
  assert.match(revoked.stdout, /revoked the approval/);
  assert.equal((await cli([...bashLs, '--require-trust'])).code, 0);
});

test('peri_hooks_require_trust in user settings requires trust; in the project file it is ignored with a note', async () => {
  const { project, cli } = setUp();
  project.write('.claude/settings.json', {
    peri_hooks_require_trust: false,
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo blocked >&2; exit 2' }] }] },
  });
  project.writeHome('.claude/settings.json', { peri_hooks_require_trust: true });
  const skipped = await cli(bashLs);
  assert.equal(skipped.code, 0);
  assert.match(skipped.stderr, /trust is required \(peri_hooks_require_trust in .*home\/\.claude\/settings\.json\)/);

  project.writeHome('.claude/settings.json', {});
  project.write('.claude/settings.local.json', { peri_hooks_require_trust: true });
  assert.equal((await cli(bashLs)).code, 2, 'a project cannot vouch for itself, nor ask');
  const listed = await cli(['validate', '--output', 'json']);
  assert.match(listed.stdout, /trust-setting-ignored/);
});

test('a script that leads out of the project, through .. or a symlink, or that is too big to hash, is never approved', async () => {
  const { project, cli } = setUp();
  const outside = join(project.dir, '..', 'outside.sh');
  writeFileSync(outside, '#!/bin/sh\nexit 2\n', { mode: 0o755 });
  mkdirSync(join(project.dir, 'hooks'), { recursive: true });
  symlinkSync(outside, join(project.dir, 'hooks', 'linked.sh'));
  project.write('hooks/huge.sh', `#!/bin/sh\n${'# padding\n'.repeat(110_000)}exit 2\n`);
  project.write('hooks/fine.sh', '#!/bin/sh\necho fine >&2\nexit 2\n');
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: 'sh ../outside.sh' },
            { type: 'command', command: '"$CLAUDE_PROJECT_DIR"/hooks/linked.sh' },
            { type: 'command', command: 'sh hooks/huge.sh' },
            { type: 'command', command: 'sh hooks/fine.sh' },
          ],
        },
      ],
    },
  });
  const approved = await cli(['trust', '--output', 'json']);
  assert.equal(approved.code, 1, 'not everything could be approved');
  const states = JSON.parse(approved.stdout).hooks.map((hook: { trust: { status: string; changes: string[] } }) => [
    hook.trust.status,
    hook.trust.changes.join('; '),
  ]);
  assert.deepEqual(
    states.map(([status]: string[]) => status),
    ['unapprovable', 'unapprovable', 'unapprovable', 'new'],
  );
  assert.match(states[0][1], /\.\.\/outside\.sh leads out of the project/);
  assert.match(states[1][1], /hooks\/linked\.sh leads out of the project \(to .*outside\.sh\)/);
  assert.match(states[2][1], /hooks\/huge\.sh cannot be pinned \(it is larger than 1048576 bytes\)/);
  const fired = await cli([...bashLs, '--require-trust']);
  assert.equal(fired.code, 2, 'the approved hook still blocks');
  assert.match(fired.stderr, /fine/);
  assert.equal(fired.stderr.match(/it cannot be approved/g)?.length, 3, fired.stderr);
});

test('what runs is what was hashed: a script named twice, rewritten by its first run, runs the approved bytes both times', async () => {
  const { project, cli } = setUp();
  // Its first run replaces itself in the project; the second run would print the new text if it read the project's file.
  const script = project.write(
    'hooks/twice.sh',
    '#!/bin/sh\necho approved >&2\nprintf \'#!/bin/sh\\necho swapped >&2\\n\' > "$CLAUDE_PROJECT_DIR/hooks/twice.sh"\n',
  );
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          hooks: [
            {
              type: 'command',
              command: '"$CLAUDE_PROJECT_DIR"/hooks/twice.sh; "$CLAUDE_PROJECT_DIR"/hooks/twice.sh; exit 2',
            },
          ],
        },
      ],
    },
  });
  const approved = await cli(['trust', '--output', 'json']);
  assert.equal(JSON.parse(approved.stdout).hooks[0].trust.scripts.length, 1, 'one file named twice is read once');
  const fired = await cli([...bashLs, '--require-trust']);
  assert.equal(fired.code, 2, fired.stderr);
  assert.equal(fired.stderr.match(/approved/g)?.length, 2, fired.stderr);
  assert.doesNotMatch(fired.stderr, /swapped/);
  assert.match(readFileSync(script, 'utf8'), /swapped/, 'the project file did change');
  // Now it is a change: skipped until approved again.
  assert.equal((await cli([...bashLs, '--require-trust'])).code, 0);
});

test('install --scope managed --project-hooks: Claude Code runs only the registration, which runs the approved project hooks; list and explain show trust', async () => {
  const { project, env, cli } = setUp();
  project.write('hooks/deny.sh', '#!/bin/sh\necho "denied by the project" >&2\nexit 2\n');
  project.write('.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh hooks/deny.sh' }] }] },
  });
  const installed = await cli(['install', '--scope', 'managed', '--project-hooks', '--events', 'PreToolUse']);
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /trust required/);
  const managed = JSON.parse(readFileSync(join(project.managed, 'managed-settings.json'), 'utf8'));
  assert.equal(managed.allowManagedHooksOnly, true);
  const command: string = managed.hooks.PreToolUse[0].hooks[0].command;
  assert.match(
    command,
    / fire PreToolUse --output claude --setting-sources project,local --fail-closed --require-trust$/,
  );
  assert.equal((await cli(['install', '--project-hooks'])).code, 1, 'only the managed scope');

  // As Claude Code runs it: sh -c, the input on stdin, the project in CLAUDE_PROJECT_DIR.
  const registration = (input: string) =>
    runCli(['-c', command], {
      cli: ['/bin/sh', []],
      env: { ...env, CLAUDE_PROJECT_DIR: project.dir },
      cwd: project.dir,
      stdin: input,
    });
  const input = project.input('PreToolUse');
  const refused = await registration(input);
  assert.equal(refused.code, 2);
  assert.match(
    refused.stderr,
    /the project hook "sh hooks\/deny\.sh" did not run: trust is required \(--require-trust\).*blocking because of --fail-closed/,
  );

  const listed = await cli(['list', '--output', 'json']);
  const pre = JSON.parse(listed.stdout).events.find((e: { event: string }) => e.event === 'PreToolUse');
  assert.equal(pre.hooks[0].disabledReason, null, 'run through peri-hooks, not off');
  assert.equal(pre.hooks[0].trust.status, 'new');

  assert.equal((await cli(['trust'])).code, 0);
  const ran = await registration(input);
  assert.equal(ran.code, 2);
  assert.match(ran.stderr, /^denied by the project/);
  assert.match((await cli(['list'])).stdout, /sh hooks\/deny\.sh {2}\(trust: approved\)/);
  const explained = JSON.parse((await cli(['explain', 'PreToolUse', '--tool', 'Bash', '--output', 'json'])).stdout);
  assert.equal(explained.hooks[0].trust.status, 'approved');
  assert.equal(explained.hooks[0].trust.scripts[0].file, 'hooks/deny.sh');
});

test('doctor shows the trust state of every project hook', async () => {
  const { project, cli } = setUp();
  project.write('hooks/a.sh', '#!/bin/sh\nexit 0\n');
  project.write('.claude/settings.json', {
    hooks: { Stop: [{ hooks: [{ type: 'command', command: 'sh hooks/a.sh' }] }] },
  });
  project.write('.claude/settings.local.json', {
    hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo local' }] }] },
  });
  assert.equal((await cli(['trust'])).code, 0);
  project.write('hooks/a.sh', '#!/bin/sh\nexit 1\n');
  const doctor = JSON.parse((await cli(['doctor', '--output', 'json'])).stdout);
  const trust = doctor.checks.filter((entry: { id: string }) => entry.id === 'trust');
  assert.deepEqual(
    trust.map((entry: { status: string }) => entry.status),
    ['warn', 'pass'],
  );
  assert.match(
    trust[0].detail,
    /Stop "sh hooks\/a\.sh" \(\.claude\/settings\.json\): changed \(hooks\/a\.sh changed .*\); it would not run where trust is required/,
  );
  assert.match(trust[0].fix, /^review it, then: peri-hooks trust --project-dir /);
  assert.match(trust[1].detail, /\.claude\/settings\.local\.json\): approved/);
});

test('PERI_HOOKS_REQUIRE_TRUST requires trust of a policy file inside the project (another agent registration names it); one outside is not the project’s', async () => {
  const { project, env } = setUp();
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    runCli(args, { env: { ...env, ...extra }, cwd: project.dir });
  const inside = project.write('.claude/policy.json', {
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo inside >&2; exit 2' }] }] },
  });
  const outside = project.writeHome('policy.json', {
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'touch "$CLAUDE_PROJECT_DIR/outside-ran"' }] }] },
  });
  const fire = [...bashLs, '--setting-sources', '', '--settings', inside, '--settings', outside];
  const required = { PERI_HOOKS_REQUIRE_TRUST: '1' };
  const skipped = await cli(fire, required);
  assert.equal(skipped.code, 0, skipped.stderr);
  assert.match(
    skipped.stderr,
    /the flag hook "echo inside >&2; exit 2" did not run: trust is required \(PERI_HOOKS_REQUIRE_TRUST\), and it is not approved: never approved; review it, then approve it with: peri-hooks trust --project-dir \S+ --settings \S+\.claude\/policy\.json/,
  );
  assert.ok(existsSync(join(project.dir, 'outside-ran')), 'a policy outside the project is not subject to trust');
  assert.equal((await cli(fire, { PERI_HOOKS_REQUIRE_TRUST: '0' })).code, 2, '0 turns it off');
  const approved = await cli(['trust', '--settings', inside, '--output', 'json']);
  assert.deepEqual(
    JSON.parse(approved.stdout).hooks.map((hook: { layer: string }) => hook.layer),
    ['flag'],
  );
  assert.equal((await cli(fire, required)).code, 2);
});

test('serve --require-trust: an unapproved project hook is skipped and said in the answer and the log, runs once approved', async () => {
  const { project, env, cli } = setUp();
  project.write('hooks/deny.sh', '#!/bin/sh\necho "denied by the project" >&2\nexit 2\n');
  project.write('.claude/settings.json', {
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'sh hooks/deny.sh' }] }] },
  });
  const served = await startServe(
    [
      '--listen',
      '127.0.0.1:0',
      '--project-root',
      project.dir,
      '--project-dir',
      project.dir,
      '--require-trust',
      '--no-state',
    ],
    env,
  );
  try {
    const input = project.input('PreToolUse');
    const skipped = await call(`${served.url}/hooks/PreToolUse`, 'POST', input);
    assert.equal(skipped.status, 200, skipped.text + served.stderr());
    assert.match(
      skipped.json().systemMessage,
      /the project hook "sh hooks\/deny\.sh" did not run: trust is required \(--require-trust\)/,
    );
    // Logged once the answer is on its way.
    await until('the log line', () =>
      /PreToolUse: policy not enforced, it did not load: .*did not run: trust is required/.test(served.stderr()),
    );
    assert.equal((await cli(['trust'])).code, 0);
    const denied = await call(`${served.url}/hooks/PreToolUse`, 'POST', input);
    assert.equal(denied.json().hookSpecificOutput.permissionDecision, 'deny');
    assert.match(denied.json().hookSpecificOutput.permissionDecisionReason, /denied by the project/);
  } finally {
    await served.stop();
  }
});

test('a script that names its own path beside more than 64 files is pinned alone, with a note; one beside a file that leads out of the project is never approved', async () => {
  const { project, cli } = setUp();
  project.write('many/guard.sh', '#!/bin/sh\n. "${BASH_SOURCE%/*}/lib.sh"\n');
  for (let i = 0; i < 64; i++) project.write(`many/data/${i}.txt`, `${i}\n`);
  project.write('linked/guard.sh', '#!/bin/sh\n. "$(dirname "$0")/lib.sh"\n');
  const outside = join(project.dir, '..', 'outside-lib.sh');
  writeFileSync(outside, 'exit 0\n');
  symlinkSync(outside, join(project.dir, 'linked', 'lib.sh'));
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: 'sh many/guard.sh' },
            { type: 'command', command: 'sh linked/guard.sh' },
          ],
        },
      ],
    },
  });
  const approved = await cli(['trust', '--output', 'json']);
  assert.equal(approved.code, 1, 'not everything could be approved');
  const [many, linked] = JSON.parse(approved.stdout).hooks.map((hook: { trust: object }) => hook.trust);
  assert.equal(many.status, 'new');
  assert.deepEqual(
    many.scripts.map((script: { file: string }) => script.file),
    ['many/guard.sh'],
  );
  assert.deepEqual(many.notes, [
    'many/guard.sh loads files beside it (BASH_SOURCE), but its folder is not pinned (it holds more than 64 files): they are not there when it runs; give it and them a folder of their own',
  ]);
  assert.equal(linked.status, 'unapprovable');
  assert.match(linked.changes.join('; '), /^linked\/lib\.sh leads out of the project \(to .*outside-lib\.sh\)$/);
});

test('mcp --require-trust: an unapproved project hook is skipped and said in the tool answer (a deny under --fail-closed), runs once approved, and is skipped again when its script changes', async () => {
  const { project, env, cli } = setUp();
  const script = project.write('hooks/deny.sh', '#!/bin/sh\necho "denied by the project" >&2\nexit 2\n');
  project.write('.claude/settings.json', {
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'sh hooks/deny.sh' }] }] },
  });
  // As the agent starts it: in the project, with the project's hooks loaded by the server.
  const connect = async (extra: string[]) => {
    const [command, prefix] = cliCommand('fire');
    const transport = new StdioClientTransport({
      command,
      args: [...prefix, 'mcp', '--require-trust', '--no-state', ...extra],
      env,
      cwd: project.dir,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    return client;
  };
  const args = {
    hook_event_name: 'PreToolUse',
    session_id: 'mcp-session',
    transcript_path: '',
    cwd: project.dir,
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: JSON.stringify({ command: 'ls' }),
    tool_use_id: 'toolu_1',
  };
  const fire = async (client: Client) => {
    const result = (await client.callTool({ name: 'fire', arguments: args })) as {
      content: Array<{ text: string }>;
      isError?: boolean;
    };
    assert.notEqual(result.isError, true, result.content[0]?.text);
    return JSON.parse(result.content[0]!.text) as Record<string, any>;
  };
  const open = await connect([]);
  const closed = await connect(['--fail-closed']);
  try {
    const skipped = await fire(open);
    assert.equal(skipped.hookSpecificOutput?.permissionDecision, undefined, JSON.stringify(skipped));
    assert.match(
      skipped.systemMessage,
      /the project hook "sh hooks\/deny\.sh" did not run: trust is required \(--require-trust\), and it is not approved: never approved; review it, then approve it with: peri-hooks trust --project-dir /,
    );
    const refused = await fire(closed);
    assert.equal(refused.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(
      refused.hookSpecificOutput.permissionDecisionReason,
      /the project hook "sh hooks\/deny\.sh" did not run: trust is required.*blocking because of --fail-closed/s,
    );
    assert.doesNotMatch(refused.hookSpecificOutput.permissionDecisionReason, /denied by the project/);

    assert.equal((await cli(['trust'])).code, 0);
    for (const client of [open, closed]) {
      const denied = await fire(client);
      assert.equal(denied.hookSpecificOutput.permissionDecision, 'deny');
      assert.match(denied.hookSpecificOutput.permissionDecisionReason, /denied by the project/);
    }

    writeFileSync(script, '#!/bin/sh\necho "changed" >&2\nexit 2\n');
    const changed = await fire(open);
    assert.equal(changed.hookSpecificOutput?.permissionDecision, undefined, JSON.stringify(changed));
    assert.match(changed.systemMessage, /not approved: hooks\/deny\.sh changed \(sha256/);
  } finally {
    await Promise.all([open.close(), closed.close()]);
  }
});

test('a pinned copy keeps the file executable or not, as it was: a script without its x bit fails as it would', async () => {
  const { project, cli } = setUp();
  writeFileSync(join(project.dir, 'plain.sh'), '#!/bin/sh\necho ran >&2\nexit 2\n', { mode: 0o644 });
  project.write('.claude/settings.json', {
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/plain.sh' }] }] },
  });
  const unpinned = await cli(bashLs);
  assert.equal((await cli(['trust'])).code, 0);
  const pinned = await cli([...bashLs, '--require-trust']);
  assert.equal(pinned.code, unpinned.code);
  assert.match(pinned.stderr, /Permission denied/);
  assert.doesNotMatch(pinned.stderr, /ran/);
});

test('peri-hooks test is not subject to PERI_HOOKS_REQUIRE_TRUST: a suite tests the policy the developer runs on purpose', async () => {
  const { project } = setUp();
  project.write('.claude/settings.json', {
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }] },
  });
  project.write('hooks.test.json', [
    { name: 'denied', tool: 'Bash', toolInput: { command: 'ls' }, expect: { decision: 'deny', exitCode: 2 } },
  ]);
  const result = await runCli(['test'], {
    env: { ...project.env({ XDG_STATE_HOME: join(project.home, 'state') }), PERI_HOOKS_REQUIRE_TRUST: '1' },
    cwd: project.dir,
  });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  // The same hook in a firing is skipped.
  assert.equal(
    (await runCli(bashLs, { env: { ...project.env(), PERI_HOOKS_REQUIRE_TRUST: '1' }, cwd: project.dir })).code,
    0,
  );
});

test('a script that loads files by its own path ($0) runs from a copy of its folder: the files beside it are approved with it, and a change to one is a change to the hook', async () => {
  const { project, cli } = setUp();
  project.write(
    '.claude/hooks/guard.sh',
    '#!/bin/sh\n. "$(dirname "$0")/lib/deny.sh"\ndeny "$(cat "${0%/*}/reason.txt")"\n',
  );
  const lib = project.write('.claude/hooks/lib/deny.sh', 'deny() { echo "denied by lib: $1" >&2; exit 2; }\n');
  project.write('.claude/hooks/reason.txt', 'no ls\n');
  // A script that names no path of its own is pinned alone: the file beside it is not its business.
  project.write('hooks/plain.sh', '#!/bin/sh\necho "plain ran" >&2\n');
  project.write('hooks/notes.txt', 'not loaded\n');
  // At the project root its folder is the project: not pinned, and trust says so.
  project.write('root.sh', '#!/bin/sh\n[ -f "$(dirname "$0")/root.sh" ] && echo "root sees its folder" >&2\n');
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' },
            { type: 'command', command: 'sh hooks/plain.sh' },
            { type: 'command', command: 'sh root.sh' },
          ],
        },
      ],
    },
  });
  const unpinned = await cli(bashLs);
  assert.equal(unpinned.code, 2);
  assert.match(unpinned.stderr, /denied by lib: no ls/);

  const approved = await cli(['trust']);
  assert.equal(approved.code, 0, approved.stderr);
  assert.match(
    approved.stdout,
    /runs \.claude\/hooks\/guard\.sh sha256 [0-9a-f]{64}\n {2}runs \.claude\/hooks\/lib\/deny\.sh sha256 [0-9a-f]{64}\n {2}runs \.claude\/hooks\/reason\.txt sha256 [0-9a-f]{64}\n/,
  );
  assert.match(approved.stdout, /runs hooks\/plain\.sh sha256 [0-9a-f]{64}\n {2}not approved/);
  assert.match(
    approved.stdout,
    /runs root\.sh sha256 [0-9a-f]{64}\n {2}note: root\.sh loads files beside it \(\$0\), but its folder is not pinned \(it is the project root\): they are not there when it runs; give it and them a folder of their own\n/,
  );
  const diff = await trustDiff(cli);
  assert.deepEqual(diff.files, [
    ['.claude/hooks/guard.sh', '.claude/hooks/lib/deny.sh', '.claude/hooks/reason.txt'],
    ['hooks/plain.sh'],
    ['root.sh'],
  ]);
  assert.equal(diff.document.hooks[2]!.trust.notes.length, 1);

  const pinned = await cli([...bashLs, '--require-trust']);
  assert.equal(pinned.code, 2, pinned.stderr);
  assert.match(pinned.stderr, /denied by lib: no ls/);
  assert.doesNotMatch(pinned.stderr, /No such file|can't open|cannot open/);

  // The file beside it changed: the hook does not run, and says which file.
  const changed = await firedAfterEdit(
    cli,
    lib,
    'deny() { echo "changed lib" >&2; exit 2; }\n',
    /guard\.sh" did not run: .*not approved: \.claude\/hooks\/lib\/deny\.sh changed \(sha256/,
  );
  assert.doesNotMatch(changed.stderr, /changed lib/);
});

test('a Python hook that imports a module beside it runs from a copy of its folder: the module is approved with it, and a change to it is a change to the hook', async () => {
  const { project, cli } = setUp();
  project.write('.claude/hooks/guard.py', 'import sys\nimport policy\n\nsys.exit(policy.check())\n');
  const policy = project.write(
    '.claude/hooks/policy.py',
    'import sys\n\ndef check():\n    print("denied by policy.py", file=sys.stderr)\n    return 2\n',
  );
  // Only stdlib imports: pinned alone.
  project.write('hooks/plain.py', '#!/usr/bin/env python3\nimport sys, json\nprint("plain ran", file=sys.stderr)\n');
  project.write('hooks/notes.txt', 'not loaded\n');
  project.write('.claude/settings.json', {
    hooks: {
      PreToolUse: [
        {
          hooks: [
            { type: 'command', command: 'python3 .claude/hooks/guard.py' },
            { type: 'command', command: 'python3 hooks/plain.py' },
          ],
        },
      ],
    },
  });
  assert.equal((await cli(['trust'])).code, 0);
  assert.deepEqual((await trustDiff(cli)).files, [
    ['.claude/hooks/guard.py', '.claude/hooks/policy.py'],
    ['hooks/plain.py'],
  ]);

  const pinned = await cli([...bashLs, '--require-trust']);
  assert.equal(pinned.code, 2, pinned.stderr);
  assert.match(pinned.stderr, /denied by policy\.py/);
  assert.doesNotMatch(pinned.stderr, /ModuleNotFoundError/);

  await firedAfterEdit(
    cli,
    policy,
    'def check():\n    return 0\n',
    /guard\.py" did not run: .*not approved: \.claude\/hooks\/policy\.py changed \(sha256/,
  );
});

test('files a pinned shell script runs from the project by a path (sourced, run, given to an interpreter; and theirs) are approved with it, and a change to one is a change to the hook; a file it writes is not', async () => {
  const { project, cli } = setUp();
  project.write(
    '.claude/hooks/guard.sh',
    [
      '#!/bin/sh',
      "# Don't edit the lines below without a review.",
      '. "$CLAUDE_PROJECT_DIR/.claude/lib/common.sh"',
      'if [ -n "$NEVER" ]; then . .claude/lib/more.sh; fi',
      'python3 "$CLAUDE_PROJECT_DIR"/.claude/lib/check.py',
      'echo ran >> "$CLAUDE_PROJECT_DIR/.claude/hooks.log"',
      'deny "$(cat .claude/reason.txt)"',
      '',
    ].join('\n'),
  );
  project.write('.claude/lib/common.sh', '. .claude/lib/nested.sh\n');
  const nested = project.write('.claude/lib/nested.sh', 'deny() { echo "denied: $1" >&2; exit 2; }\n');
  project.write('.claude/lib/more.sh', 'true\n');
  project.write('.claude/lib/check.py', 'print("checked")\n');
  project.write('.claude/hooks.log', '');
  project.write('.claude/reason.txt', 'no ls\n');
  project.write('.claude/settings.json', {
    hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'sh .claude/hooks/guard.sh' }] }] },
  });
  assert.equal((await cli(['trust'])).code, 0);
  assert.deepEqual((await trustDiff(cli)).files, [
    [
      '.claude/hooks/guard.sh',
      '.claude/lib/common.sh',
      '.claude/lib/more.sh',
      '.claude/lib/check.py',
      '.claude/lib/nested.sh',
    ],
  ]);

  // Twice: the log it appends to is not part of the hook.
  for (let run = 0; run < 2; run++) {
    const pinned = await cli([...bashLs, '--require-trust']);
    assert.equal(pinned.code, 2, pinned.stderr);
    assert.match(pinned.stderr, /denied: no ls/);
  }

  await firedAfterEdit(
    cli,
    nested,
    'deny() { exit 0; }\n',
    /guard\.sh" did not run: .*not approved: \.claude\/lib\/nested\.sh changed \(sha256/,
  );
});
