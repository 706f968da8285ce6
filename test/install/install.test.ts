// `peri-hooks install` and `uninstall` on real temporary projects: the edit keeps every other byte of the
// settings file, installing twice changes nothing, uninstall gives the file back as it was, a file that does
// not parse is never touched, and the registration is what Claude Code runs: the policy applies through it.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { VERSION } from '../../src/platform/version.ts';
import { makeProject, type Project } from '../helpers/cli.ts';
import {
  linkIntoProject,
  NOT_FOUND,
  type Package,
  packageCopy,
  portable,
  readSettings,
  registration,
} from './setup.ts';

let pkg: Package;
let project: Project;
before(() => {
  pkg = packageCopy();
});
after(() => pkg.cleanup());
beforeEach(() => {
  project = makeProject();
});
afterEach(() => project.cleanup());

const SETTINGS = '.claude/settings.json';
const settingsFile = () => join(project.dir, SETTINGS);
const read = (file: string) => readFileSync(file, 'utf8');
/** A policy that denies Bash calls with exit 2, logging each run to `log`. */
const denyPolicy = (log: string) => ({
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [{ type: 'command', command: `echo policy >> ${log}; echo "no Bash here" >&2; exit 2` }],
      },
    ],
  },
});

function policy(content: object = denyPolicy(join(project.dir, 'policy.log'))): string {
  return project.write('team-policy.json', content);
}

/** The registration group for PreToolUse, as JSON text indented with `indent`, after `unit` per level. */
function pretty(value: unknown, unit: string, indent: string, eol = '\n'): string {
  return JSON.stringify(value, null, unit)
    .split('\n')
    .join(eol + indent);
}

describe('the edit', () => {
  test('a tab-indented file with comments: the registration is added after the last key, every other byte stays; uninstall gives the file back', async () => {
    const original =
      '{\n\t// team settings\n\t"model": "opus",   "env": {"A": "1"},\n\t"permissions": {\n\t\t"allow": ["Bash(ls)"] /* keep */\n\t} // last\n}\n';
    const file = project.write(SETTINGS, original);
    const _policyFile = policy();
    const result = await pkg.run(['install', '--policy', 'team-policy.json'], project);
    assert.equal(result.code, 0, result.stderr);
    const hooks = {
      PreToolUse: [
        { hooks: [{ type: 'command', command: portable('PreToolUse', ['team-policy.json']), timeout: 602 }] },
      ],
    };
    assert.equal(
      read(file),
      `{\n\t// team settings\n\t"model": "opus",   "env": {"A": "1"},\n\t"permissions": {\n\t\t"allow": ["Bash(ls)"] /* keep */\n\t}, // last\n\t"hooks": ${pretty(hooks, '\t', '\t')}\n}\n`,
    );
    assert.match(
      result.stdout,
      /^peri-hooks: registered in \.claude\/settings\.json:\n {2}PreToolUse {2}added {2}timeout 602 s\n/,
    );
    assert.match(
      result.stdout,
      /\nruns: peri-hooks from the project's node_modules\/\.bin\/peri-hooks, else from PATH \(nothing of this machine is written\)\n/,
    );
    assert.match(result.stdout, /\nbackup: \.claude\/settings\.json\.peri-hooks\.bak\n/);
    assert.equal(read(`${file}.peri-hooks.bak`), original);
    // Claude Code rejects a settings file with comments as a whole: install says so.
    assert.match(
      result.stderr,
      /warning: .*settings\.json:2:2: this file is not strict JSON .*Claude Code rejects it as malformed and ignores all of it, the registration included\n {2}fix: remove the comments/,
    );

    const removed = await pkg.run(['uninstall'], project);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(
      removed.stdout,
      'peri-hooks: removed the registration of PreToolUse from .claude/settings.json\nbackup: .claude/settings.json.peri-hooks.bak\n',
    );
    assert.equal(read(file), original);
  });

  test('CRLF, four spaces, hooks of other events: the event goes in beside them, the rest stays', async () => {
    const original =
      '{\r\n    "hooks": {\r\n        "Notification": [\r\n            { "hooks": [ { "type": "command", "command": "notify-send hi" } ] }\r\n        ]\r\n    },\r\n    "theme": "dark"\r\n}\r\n';
    const file = project.write(SETTINGS, original);
    const policyFile = policy();
    assert.equal((await pkg.run(['install', '--policy', policyFile], project)).code, 0);
    const group = [
      { hooks: [{ type: 'command', command: portable('PreToolUse', ['team-policy.json']), timeout: 602 }] },
    ];
    assert.equal(
      read(file),
      `{\r\n    "hooks": {\r\n        "Notification": [\r\n            { "hooks": [ { "type": "command", "command": "notify-send hi" } ] }\r\n        ],\r\n        "PreToolUse": ${pretty(group, '    ', '        ', '\r\n')}\r\n    },\r\n    "theme": "dark"\r\n}\r\n`,
    );
    assert.equal((await pkg.run(['uninstall'], project)).code, 0);
    assert.equal(read(file), original);
  });

  test('a one-line file stays on one line; a missing file is created, and uninstall removes it, its backup and the folder it made', async () => {
    const policyFile = policy();
    const command = registration(pkg.runner, 'PreToolUse', [policyFile], ['--fail-closed']);
    const file = project.write(SETTINGS, '{"model":"x"}');
    assert.equal((await pkg.run(['install', '--policy', policyFile], project)).code, 0);
    assert.equal(
      read(file),
      `{"model":"x", "hooks": ${JSON.stringify({ PreToolUse: [{ hooks: [{ type: 'command', command: portable('PreToolUse', ['team-policy.json']), timeout: 602 }] }] })}}`,
    );
    assert.equal((await pkg.run(['uninstall'], project)).code, 0);
    assert.equal(read(file), '{"model":"x"}');

    const local = join(project.dir, '.claude/settings.local.json');
    const created = await pkg.run(['install', '--scope', 'local', '--policy', policyFile], project);
    assert.equal(created.code, 0, created.stderr);
    assert.doesNotMatch(created.stdout, /backup/);
    assert.equal(
      read(local),
      `{\n  "hooks": ${pretty({ PreToolUse: [{ hooks: [{ type: 'command', command, timeout: 602 }] }] }, '  ', '  ')}\n}\n`,
    );
    assert.equal(existsSync(`${local}.peri-hooks.bak`), false);
    // Installed again with other options: the backup is install's own text, the file still install's.
    assert.equal(
      (await pkg.run(['install', '--scope', 'local', '--policy', policyFile, '--fail-open'], project)).code,
      0,
    );
    assert.equal(existsSync(`${local}.peri-hooks.bak`), true);
    const removed = await pkg.run(['uninstall', '--scope', 'local'], project);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(
      removed.stdout,
      'peri-hooks: removed the registration of PreToolUse from .claude/settings.local.json\nremoved .claude/settings.local.json too: install created it, and nothing else is in it\n',
    );
    assert.equal(existsSync(local), false);
    assert.equal(existsSync(`${local}.peri-hooks.bak`), false);
    assert.deepEqual(
      readdirSync(join(project.dir, '.claude')).sort(),
      ['settings.json', 'settings.json.peri-hooks.bak'],
      'the file that existed before keeps its backup',
    );

    // In a project with no .claude/ at all, the folder install made goes too.
    rmSync(join(project.dir, '.claude'), { recursive: true });
    assert.equal((await pkg.run(['install', '--policy', policyFile], project)).code, 0);
    assert.equal((await pkg.run(['uninstall'], project)).code, 0);
    assert.equal(existsSync(join(project.dir, '.claude')), false);
  });

  test('installing twice changes nothing; an install with other options updates the entry in place', async () => {
    const original = '{\n  "model": "opus"\n}\n';
    const file = project.write(SETTINGS, original);
    const policyFile = policy();
    assert.equal((await pkg.run(['install', '--policy', policyFile], project)).code, 0);
    const installed = read(file);
    const mtime = statSync(file).mtimeMs;
    const again = await pkg.run(['install', '--policy', policyFile], project);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, 'peri-hooks: already registered in .claude/settings.json; nothing changed\n');
    assert.equal(read(file), installed);
    assert.equal(statSync(file).mtimeMs, mtime);
    assert.equal(read(`${file}.peri-hooks.bak`), original);

    const open = await pkg.run(['install', '--policy', policyFile, '--fail-open'], project);
    assert.match(open.stdout, / {2}PreToolUse {2}updated {2}timeout 602 s\n/);
    assert.match(
      open.stdout,
      /\nfail-open \(--fail-open\): a policy that does not load, a hook that fails, or a peri-hooks that cannot start lets the call through\n/,
    );
    assert.equal(
      read(file),
      installed.replace(
        JSON.stringify(portable('PreToolUse', ['team-policy.json'])),
        JSON.stringify(portable('PreToolUse', ['team-policy.json'], [], false)),
      ),
    );
    assert.notEqual(read(file), installed);
    const both = await pkg.run(['install', '--policy', policyFile, '--fail-open', '--fail-closed'], project);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /--fail-closed and --fail-open contradict each other/);
    // The first backup is kept: it is the file before peri-hooks touched it.
    assert.equal(read(`${file}.peri-hooks.bak`), original);
  });

  test('--dry-run prints the diff and writes nothing, not even a new file', async () => {
    const policyFile = policy();
    linkIntoProject(pkg, project.dir);
    const result = await pkg.run(['install', '--policy', policyFile, '--dry-run'], project);
    assert.equal(result.code, 0, result.stderr);
    const command = JSON.stringify(portable('PreToolUse', ['team-policy.json']));
    assert.equal(
      result.stdout,
      [
        '--- /dev/null',
        `+++ b${settingsFile()}`,
        '@@ -0,0 +1,15 @@',
        '+{',
        '+  "hooks": {',
        '+    "PreToolUse": [',
        '+      {',
        '+        "hooks": [',
        '+          {',
        '+            "type": "command",',
        `+            "command": ${command},`,
        '+            "timeout": 602',
        '+          }',
        '+        ]',
        '+      }',
        '+    ]',
        '+  }',
        '+}',
        '',
      ].join('\n'),
    );
    assert.equal(result.stderr, 'peri-hooks: dry run: nothing was written\n');
    assert.equal(existsSync(join(project.dir, '.claude')), false);
  });

  test('a symlinked settings file stays a link; the file it points to is edited, its mode kept', async () => {
    const target = project.write('dotfiles/claude-settings.json', '{\n  "model": "opus"\n}\n');
    chmodSync(target, 0o600);
    mkdirSync(join(project.dir, '.claude'));
    symlinkSync(target, settingsFile());
    assert.equal((await pkg.run(['install', '--policy', policy()], project)).code, 0);
    assert.ok(lstatSync(settingsFile()).isSymbolicLink());
    assert.ok(readSettings(target).hooks?.PreToolUse);
    assert.equal(statSync(target).mode & 0o777, 0o600);
    assert.equal(read(`${target}.peri-hooks.bak`), '{\n  "model": "opus"\n}\n');
  });
});

describe('refusals', () => {
  test('a settings file that does not parse is never touched: exit 1, the file and the place named', async () => {
    const broken = '{\n  "model": "opus",\n  "hooks": {\n}\n';
    const file = project.write(SETTINGS, broken);
    const mtime = statSync(file).mtimeMs;
    const result = await pkg.run(['install', '--policy', policy()], project);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `peri-hooks: ${file} does not parse: close brace expected at line 5, column 1; nothing was changed\n  fix: fix the file (comments are fine, trailing commas are not), then run the command again\n`,
    );
    assert.equal(result.stdout, '');
    assert.equal(read(file), broken);
    assert.equal(statSync(file).mtimeMs, mtime);
    assert.deepEqual(readdirSync(join(project.dir, '.claude')), ['settings.json']);
    assert.equal((await pkg.run(['uninstall'], project)).code, 1);
    assert.equal(read(file), broken);
  });

  test('hooks of its own for the same events: refused (both would run), nothing changed', async () => {
    const own = { hooks: { PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'lint.sh' }] }] } };
    const file = project.write(SETTINGS, own);
    const before = read(file);
    const result = await pkg.run(['install', '--policy', policy()], project);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `peri-hooks: ${file} still holds hooks of its own for the events to register (/hooks/PreToolUse/0): Claude Code would run them and the policy both; nothing was changed\n` +
        `  fix: add --move-hooks to move them into ${join(project.dir, '.claude/settings.peri-hooks-policy.json')}, which the registration runs, or leave those events out with --events\n`,
    );
    assert.equal(read(file), before);
  });

  test('a policy that does not load, a missing policy, no policy, no events: exit 1 and nothing written', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['--policy', project.write('bad.json', '{ "hooks": ')],
        /the policy does not load, so nothing was changed:\n {2}warning: .*bad\.json:1:12: .*is not valid JSON/,
      ],
      [
        [
          '--policy',
          project.write('guard.json', { hooks: { PreToolUse: [{ hooks: [{ type: 'comand', command: 'x' }] }] } }),
        ],
        /the policy does not load, so nothing was changed:\n {2}error: .*guard\.json:\d+:\d+ \(\/hooks\/PreToolUse\/0\/hooks\/0\/type\): Unknown hook type "comand"/,
      ],
      [['--policy', join(project.dir, 'missing.json')], /policy file .*missing\.json does not exist/],
      [[], /no policy to register/],
      [
        ['--policy', project.write('empty.json', { hooks: {} })],
        /validate rejects the policy, so nothing was changed:\n {2}error: .*empty\.json holds no hooks/,
      ],
      [['--policy', policy(), '--events', 'pretooluse'], /unknown hook event "pretooluse"; did you mean PreToolUse\?/],
      [
        ['--policy', policy(), '--scope', 'team'],
        /unknown --scope "team"\n {2}fix: use one of: project, local, user, managed/,
      ],
      [['--policy', join(project.dir, SETTINGS)], /is the settings file install writes to/],
    ];
    project.write(SETTINGS, '{}\n');
    for (const [args, expected] of cases) {
      const result = await pkg.run(['install', ...args], project);
      assert.equal(result.code, 1, args.join(' '));
      assert.match(result.stderr, expected);
      assert.equal(read(settingsFile()), '{}\n');
    }
  });
});

describe("moving the hooks out of Claude Code's reach", () => {
  test("--move-hooks: the file's hooks go to a policy file next to it, the registration runs them and the team policy", async () => {
    const log = join(project.dir, 'ran.log');
    const file = project.write(SETTINGS, {
      model: 'opus',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo own >> ${log}` }] }],
        Stop: [{ hooks: [{ type: 'command', command: `echo stop >> ${log}` }] }],
      },
    });
    const policyFile = policy(denyPolicy(log));
    const result = await pkg.run(['install', '--policy', policyFile, '--move-hooks'], project);
    assert.equal(result.code, 0, result.stderr);
    const moved = join(project.dir, '.claude/settings.peri-hooks-policy.json');
    assert.match(
      result.stdout,
      /moved: the hooks of PreToolUse, Stop from \.claude\/settings\.json into \.claude\/settings\.peri-hooks-policy\.json\n/,
    );
    assert.deepEqual(readSettings(moved), {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo own >> ${log}` }] }],
        Stop: [{ hooks: [{ type: 'command', command: `echo stop >> ${log}` }] }],
      },
    });
    const settings = readSettings(file);
    assert.equal(settings.model, 'opus');
    assert.deepEqual(Object.keys(settings.hooks!), ['PreToolUse', 'Stop']);
    const command = settings.hooks!.PreToolUse![0]!.hooks[0]!.command as string;
    assert.equal(command, portable('PreToolUse', ['team-policy.json', '.claude/settings.peri-hooks-policy.json']));

    // Claude Code runs the command line with sh; the moved hook and the policy both run, and the deny blocks.
    linkIntoProject(pkg, project.dir);
    const fired = spawnSync('sh', ['-c', command], {
      input: project.input('PreToolUse.tool_name-Bash'),
      env: project.env({ CLAUDE_PROJECT_DIR: project.dir }),
      encoding: 'utf8',
    });
    assert.equal(fired.status, 2, fired.stderr);
    assert.equal(fired.stderr, 'no Bash here\n');
    assert.deepEqual(read(log).split('\n').sort(), ['', 'own', 'policy']);

    // Nothing left to move: the same install changes nothing, and keeps the moved file in the registration.
    const again = await pkg.run(['install', '--policy', policyFile], project);
    assert.equal(again.stdout, 'peri-hooks: already registered in .claude/settings.json; nothing changed\n');
    const removed = await pkg.run(['uninstall'], project);
    assert.match(
      removed.stdout,
      /note: the hooks that install --move-hooks moved are still in \.claude\/settings\.peri-hooks-policy\.json; to have Claude Code run them directly again, copy its "hooks" back into \.claude\/settings\.json\n$/,
    );
    assert.deepEqual(readSettings(file), { model: 'opus' });
  });
});

describe('what is registered', () => {
  test('the registered command is what Claude Code runs: the policy decides, from any subfolder, on a checkout elsewhere', async () => {
    const log = join(project.dir, 'policy.log');
    policy(denyPolicy('"$CLAUDE_PROJECT_DIR"/policy.log'));
    assert.equal((await pkg.run(['install', '--policy', 'team-policy.json'], project)).code, 0);
    const text = read(settingsFile());
    assert.doesNotMatch(text, new RegExp(`${project.dir}|${pkg.dir}|${process.execPath}`), 'no path of this machine');
    const command = readSettings(settingsFile()).hooks!.PreToolUse![0]!.hooks[0]!.command as string;
    linkIntoProject(pkg, project.dir);
    const sub = join(project.dir, 'src/deep');
    mkdirSync(sub, { recursive: true });
    // Claude Code runs the command with sh in the session's folder, with CLAUDE_PROJECT_DIR set.
    const fire = (fixture: string, cwd = sub, env = project.env({ CLAUDE_PROJECT_DIR: project.dir })) =>
      spawnSync('sh', ['-c', command], { input: project.input(fixture, { cwd }), env, cwd, encoding: 'utf8' });
    const deny = fire('PreToolUse.tool_name-Bash');
    assert.equal(deny.status, 2, deny.stderr);
    assert.equal(deny.stderr, 'no Bash here\n');
    const allow = fire('PreToolUse.tool_name-Read');
    assert.equal(allow.status, 0, allow.stderr);
    assert.equal(read(log), 'policy\n');

    // A colleague's checkout: the same committed files at another path, with its own npm install.
    const moved = `${project.dir}-checkout`;
    execFileSync('cp', ['-a', project.dir, moved]);
    try {
      rmSync(join(moved, 'policy.log'));
      const there = fire('PreToolUse.tool_name-Bash', moved, project.env({ CLAUDE_PROJECT_DIR: moved }));
      assert.equal(there.status, 2, there.stderr);
      assert.equal(read(join(moved, 'policy.log')), 'policy\n');
    } finally {
      rmSync(moved, { recursive: true, force: true });
    }
  });

  test("--audit: the project's registration names the log from the home of whoever runs it (its folder made) or from the project; the firing appends to it; a path elsewhere is refused; other scopes name it whole", async () => {
    policy();
    const installed = await pkg.run(
      ['install', '--policy', 'team-policy.json', '--audit', join(project.home, '.local/state/peri-hooks/audit.jsonl')],
      project,
    );
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /audit log: .*\.local\/state\/peri-hooks\/audit\.jsonl/);
    const command = () => readSettings(settingsFile()).hooks!.PreToolUse![0]!.hooks[0]!.command as string;
    assert.equal(
      command(),
      portable('PreToolUse', ['team-policy.json'], ['--audit', '"$HOME"/.local/state/peri-hooks/audit.jsonl']),
    );
    assert.doesNotMatch(read(settingsFile()), new RegExp(project.home), 'no path of this machine');
    linkIntoProject(pkg, project.dir);
    // A colleague: another home, where the log's folder does not exist yet.
    const colleague = join(project.home, '..', 'colleague');
    mkdirSync(colleague);
    const fired = spawnSync('sh', ['-c', command()], {
      input: project.input('PreToolUse.tool_name-Bash'),
      env: project.env({ CLAUDE_PROJECT_DIR: project.dir, HOME: colleague }),
      encoding: 'utf8',
    });
    assert.equal(fired.status, 2, fired.stderr);
    const log = join(colleague, '.local/state/peri-hooks/audit.jsonl');
    const entry = JSON.parse(read(log));
    assert.deepEqual(
      [entry.event, entry.tool, entry.decision, entry.reason],
      ['PreToolUse', 'Bash', 'deny', 'no Bash here'],
    );
    assert.equal(statSync(join(colleague, '.local/state/peri-hooks')).mode & 0o777, 0o700);

    // In the project: relative to it.
    assert.equal(
      (await pkg.run(['install', '--policy', 'team-policy.json', '--audit', 'logs/audit.jsonl'], project)).code,
      0,
    );
    assert.equal(command(), portable('PreToolUse', ['team-policy.json'], ['--audit', '"$d"/logs/audit.jsonl']));
    // Anywhere else: this machine's path in a committed file, refused, nothing changed.
    const before = read(settingsFile());
    const elsewhere = await pkg.run(
      ['install', '--policy', 'team-policy.json', '--audit', '/var/tmp/audit.jsonl'],
      project,
    );
    assert.equal(elsewhere.code, 1);
    assert.match(
      elsewhere.stderr,
      /the audit log \/var\/tmp\/audit\.jsonl is neither in the project nor in the home folder/,
    );
    assert.equal(read(settingsFile()), before);
    // The local scope names this machine's paths: the log too.
    assert.equal(
      (
        await pkg.run(
          ['install', '--scope', 'local', '--policy', 'team-policy.json', '--audit', '/var/tmp/a.jsonl'],
          project,
        )
      ).code,
      0,
    );
    assert.match(
      readSettings(join(project.dir, '.claude/settings.local.json')).hooks!.PreToolUse![0]!.hooks[0]!.command as string,
      / --fail-closed --audit \/var\/tmp\/a\.jsonl$/,
    );
    // Another agent's registration, and --serve (where the server runs the firings) refuses it.
    const gemini = await pkg.run(
      [
        'install',
        '--host',
        'gemini',
        '--policy',
        'team-policy.json',
        '--audit',
        join(project.home, 'a.jsonl'),
        '--dry-run',
      ],
      project,
    );
    assert.equal(gemini.code, 0, gemini.stderr);
    assert.match(gemini.stdout, /--fail-closed --audit \\"\$HOME\\"\/a\.jsonl/);
    const serve = await pkg.run(
      ['install', '--policy', 'team-policy.json', '--serve', 'http://127.0.0.1:7387', '--audit', 'a.jsonl'],
      project,
    );
    assert.equal(serve.code, 1);
    assert.match(serve.stderr, /--audit belongs on the server/);
  });

  test('a machine where peri-hooks cannot start: the command says what is missing and how to fix it, and blocks (fail-closed by default; not with --fail-open)', async () => {
    policy();
    const installed = await pkg.run(['install', '--policy', 'team-policy.json'], project);
    assert.match(
      installed.stderr,
      /warning: .*settings\.json: on this machine the registration finds no peri-hooks \(neither .*node_modules\/\.bin\/peri-hooks with node on PATH nor peri-hooks on PATH\)/,
    );
    const command = () => readSettings(settingsFile()).hooks!.PreToolUse![0]!.hooks[0]!.command as string;
    const env = project.env({ CLAUDE_PROJECT_DIR: project.dir });
    const closed = spawnSync('sh', ['-c', command()], {
      input: project.input('PreToolUse.tool_name-Bash'),
      env,
      encoding: 'utf8',
    });
    assert.equal(closed.status, 2);
    assert.equal(closed.stderr, `${NOT_FOUND}; blocking because the registration is --fail-closed\n`);
    assert.equal((await pkg.run(['install', '--policy', 'team-policy.json', '--fail-open'], project)).code, 0);
    const open = spawnSync('sh', ['-c', command()], {
      input: project.input('PreToolUse.tool_name-Bash'),
      env,
      encoding: 'utf8',
    });
    assert.equal(open.status, 1);
    assert.equal(open.stderr, `${NOT_FOUND}\n`);
    assert.equal((await pkg.run(['install', '--policy', 'team-policy.json'], project)).code, 0);
    // Installed, but with no node on PATH for the npm bin: the same.
    linkIntoProject(pkg, project.dir);
    const noNode = spawnSync('/bin/sh', ['-c', command()], {
      input: project.input('PreToolUse.tool_name-Bash'),
      env: { ...env, PATH: '/nonexistent' },
      encoding: 'utf8',
    });
    assert.equal(noNode.status, 2);
    assert.match(noNode.stderr, /^peri-hooks cannot start here/);
    // A project whose package.json lists peri-hooks: the fix is its npm install.
    project.write('package.json', { devDependencies: { 'peri-hooks': '^0.1.0' } });
    assert.equal((await pkg.run(['install', '--policy', 'team-policy.json'], project)).code, 0);
    assert.match(command(), /; fix: run npm install in the project; blocking/);
  });

  test('a firing that loads the settings holding the registration does not start peri-hooks again', async () => {
    const log = join(project.dir, 'policy.log');
    const policyFile = policy();
    assert.equal((await pkg.run(['install', '--policy', policyFile], project)).code, 0);
    // Hand-written, without --setting-sources none: run as a hook, it would load these settings again and again.
    project.write('.claude/settings.local.json', {
      hooks: {
        PreToolUse: [{ hooks: [{ type: 'command', command: `${pkg.runner} fire PreToolUse --output claude` }] }],
      },
    });
    const result = await pkg.run(['fire', 'PreToolUse', '--settings', policyFile], project, {
      stdin: project.input('PreToolUse.tool_name-Bash'),
    });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(read(log), 'policy\n');
    // The installed registration is followed to the policy, which is loaded once (it is a source already).
    assert.match(
      result.stderr,
      /note: .*settings\.json:\d+:\d+ \(\/hooks\/PreToolUse\/0\/hooks\/0\): peri-hooks' own registration for PreToolUse: its PreToolUse hooks in team-policy\.json \(in the project\) run here, as the registration runs them/,
    );
    assert.match(
      result.stderr,
      /warning: .*settings\.local\.json:\d+:\d+ \(\/hooks\/PreToolUse\/0\/hooks\/0\): peri-hooks' own registration for PreToolUse is not run by peri-hooks itself, and the policy it runs cannot be read from it \(it loads settings besides its policy files: add --setting-sources none\)/,
    );
    assert.doesNotMatch(result.stderr, /nested/);
    // Under --fail-closed that unfollowed registration is policy not enforced here: it blocks.
    const closed = await pkg.run(['fire', 'PreToolUse', '--fail-closed'], project, {
      stdin: project.input('PreToolUse.tool_name-Read'),
    });
    assert.equal(closed.code, 2, closed.stderr);
    assert.match(
      closed.stderr,
      /peri-hooks' own registration for PreToolUse is not run by peri-hooks itself.*\(blocking because of --fail-closed\)/,
    );
  });

  test('every command sees the installed policy: list, validate, explain, fire with the default sources, test --update', async () => {
    const log = join(project.dir, 'policy.log');
    policy();
    assert.equal((await pkg.run(['install', '--policy', 'team-policy.json'], project)).code, 0);
    const listed = await pkg.run(['list'], project);
    assert.match(
      listed.stdout,
      /^PreToolUse \(1\)\n {2}command {2}Bash {2}project team-policy\.json:\d+ via \.claude\/settings\.json \(peri-hooks' registration\) {2}echo policy/,
    );
    const json = JSON.parse((await pkg.run(['list', '--output', 'json'], project)).stdout) as {
      events: Array<{ event: string; hooks: Array<{ via: string | null }> }>;
    };
    assert.equal(
      json.events.find((entry) => entry.event === 'PreToolUse')!.hooks[0]!.via,
      `${settingsFile()}#/hooks/PreToolUse/0/hooks/0`,
    );
    const validated = await pkg.run(['validate'], project);
    assert.equal(validated.code, 0, validated.stderr);
    assert.match(validated.stdout, /project +.*team-policy\.json +1 hook/);
    const explained = await pkg.run(['explain', 'PreToolUse', '--tool', 'Bash'], project);
    assert.doesNotMatch(explained.stdout + explained.stderr, /nothing is enforced/);
    assert.match(explained.stdout, /"via": ".*settings\.json#\/hooks\/PreToolUse\/0\/hooks\/0"/);
    const fired = await pkg.run(['fire', 'PreToolUse'], project, { stdin: project.input('PreToolUse.tool_name-Bash') });
    assert.equal(fired.code, 2, fired.stderr);
    assert.match(fired.stderr, /no Bash here/);
    assert.equal(read(log), 'policy\n');
    // A recorded call becomes a case with the expectations the installed policy gives.
    const cases = join(project.dir, '.claude/hooks-tests/recorded.json');
    assert.equal(
      (await pkg.run(['record', '--into', cases], project, { stdin: project.input('PreToolUse.tool_name-Bash') })).code,
      0,
    );
    const updated = await pkg.run(['test', cases, '--update'], project);
    assert.equal(updated.code, 0, updated.stdout + updated.stderr);
    assert.match(
      read(cases),
      /"expect": \{\n\s+"decision": "deny",\n\s+"exitCode": 2,\n\s+"reasonContains": "no Bash here"/,
    );
  });

  test('timeouts cover the slowest hook; async hooks get their own async entry, the synchronous one skips them', async () => {
    const policyFile = policy({
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: 'true', timeout: 900 },
              { type: 'command', command: 'true' },
            ],
          },
        ],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true' }] }],
        SessionEnd: [{ hooks: [{ type: 'command', command: 'true' }] }],
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'check.sh' },
              { type: 'command', command: 'notify.sh', async: true, timeout: 30 },
              { type: 'command', command: 'review.sh', asyncRewake: true },
            ],
          },
        ],
        PostToolUse: [{ hooks: [{ type: 'command', command: 'log.sh', async: true }] }],
      },
    });
    const result = await pkg.run(['install', '--policy', policyFile], project);
    assert.equal(result.code, 0, result.stderr);
    const command = (event: string, extra: string[] = []) => portable(event, ['team-policy.json'], extra);
    assert.deepEqual(readSettings(settingsFile()).hooks, {
      PreToolUse: [{ hooks: [{ type: 'command', command: command('PreToolUse'), timeout: 902 }] }],
      PostToolUse: [
        { hooks: [{ type: 'command', command: command('PostToolUse', ['--only-async']), async: true, timeout: 602 }] },
      ],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: command('UserPromptSubmit'), timeout: 32 }] }],
      SessionEnd: [{ hooks: [{ type: 'command', command: command('SessionEnd'), timeout: 3.5 }] }],
      Stop: [
        {
          hooks: [
            { type: 'command', command: command('Stop', ['--skip-async']), timeout: 602 },
            { type: 'command', command: command('Stop', ['--only-async']), async: true, timeout: 32 },
            {
              type: 'command',
              command: command('Stop', ['--only-async', 'asyncRewake']),
              asyncRewake: true,
              timeout: 602,
            },
          ],
        },
      ],
    });
    assert.match(
      result.stdout,
      /\n {2}Stop {14}added {2}timeout 602 s; async entry, timeout 32 s; asyncRewake entry, timeout 602 s\n/,
    );
  });

  test('--events picks the events; uninstall --events removes only those', async () => {
    const policyFile = policy({
      hooks: {
        PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'true' }] }],
      },
    });
    assert.equal(
      (await pkg.run(['install', '--policy', policyFile, '--events', 'Stop,Notification'], project)).code,
      0,
    );
    assert.deepEqual(Object.keys(readSettings(settingsFile()).hooks!), ['Stop', 'Notification']);
    assert.equal((await pkg.run(['install', '--policy', policyFile], project)).code, 0);
    assert.deepEqual(Object.keys(readSettings(settingsFile()).hooks!), ['Stop', 'Notification', 'PreToolUse']);
    const removed = await pkg.run(['uninstall', '--events', 'Stop'], project);
    assert.equal(
      removed.stdout,
      'peri-hooks: removed the registration of Stop from .claude/settings.json\nbackup: .claude/settings.json.peri-hooks.bak\n',
    );
    assert.deepEqual(Object.keys(readSettings(settingsFile()).hooks!), ['Notification', 'PreToolUse']);
  });

  test('each scope writes its own file: user (CLAUDE_CONFIG_DIR too), managed', async () => {
    const policyFile = policy();
    assert.equal((await pkg.run(['install', '--scope', 'user', '--policy', policyFile], project)).code, 0);
    assert.ok(readSettings(join(project.home, '.claude/settings.json')).hooks?.PreToolUse);
    const config = join(project.home, 'config');
    assert.equal(
      (
        await pkg.run(['install', '--scope', 'user', '--policy', policyFile], project, {
          env: { CLAUDE_CONFIG_DIR: config },
        })
      ).code,
      0,
    );
    assert.ok(readSettings(join(config, 'settings.json')).hooks?.PreToolUse);
    assert.equal((await pkg.run(['install', '--scope', 'managed', '--policy', policyFile], project)).code, 0);
    assert.ok(readSettings(join(project.managed, 'managed-settings.json')).hooks?.PreToolUse);
    assert.equal(existsSync(settingsFile()), false);
  });

  test('from a subfolder, the project is found as validate finds it: the folder with .claude/settings.json', async () => {
    project.write(SETTINGS, '{}\n');
    const sub = join(project.dir, 'src/deep');
    mkdirSync(sub, { recursive: true });
    const result = await pkg.run(['install', '--policy', policy()], project, { cwd: sub });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(readSettings(settingsFile()).hooks?.PreToolUse);
    assert.equal(existsSync(join(sub, '.claude')), false);
  });

  test('local scope: the single binary next to the bin is registered when it runs as this version; otherwise Node, and why', async () => {
    const binary = join(pkg.dir, 'dist/peri-hooks');
    const policyFile = policy();
    try {
      writeFileSync(binary, `#!/bin/sh\necho peri-hooks/${VERSION} linux-x64 node-v24.21.0\n`);
      chmodSync(binary, 0o755);
      const result = await pkg.run(['install', '--scope', 'local', '--policy', policyFile], project);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`runs: the single binary ${binary}\n`));
      assert.equal(
        readSettings(join(project.dir, '.claude/settings.local.json')).hooks!.PreToolUse![0]!.hooks[0]!.command,
        registration(binary, 'PreToolUse', [policyFile], ['--fail-closed']),
      );

      writeFileSync(binary, '#!/bin/sh\necho peri-hooks/0.0.1 linux-x64 node-v24.21.0\n');
      const older = await pkg.run(['install', '--scope', 'local', '--policy', policyFile], project);
      assert.match(
        older.stdout,
        new RegExp(
          `runs: Node .* running ${pkg.dir}/dist/peri-hooks\\.cjs; ${binary} was not used: it is version 0\\.0\\.1, not ${VERSION.replace(/\./g, '\\.')}\n`,
        ),
      );
      assert.equal(
        readSettings(join(project.dir, '.claude/settings.local.json')).hooks!.PreToolUse![0]!.hooks[0]!.command,
        registration(pkg.runner, 'PreToolUse', [policyFile], ['--fail-closed']),
      );
    } finally {
      execFileSync('rm', ['-f', binary]);
    }
  });
});
