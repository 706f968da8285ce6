// Codex's gate: the hash it trusts a hook by (checked here against values the real Codex 0.171.0 listed in
// `hooks/list`, and in test/hosts/real/codex.real.ts against the live one), install --trust writing it, and
// doctor failing where Codex would not run peri-hooks' registration.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { codexHooks, readToml, withTrustedHashes } from '../../src/hosts/codex-trust.ts';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

describe('Codex hook hash', () => {
  // `currentHash` of `codex app-server` hooks/list (Codex CLI 0.171.0) for these hooks.json entries.
  const rows = [
    {
      name: 'a matcher and a timeout',
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/bin/true x', timeout: 5 }] }] },
      key: 'pre_tool_use:0:0',
      hash: 'sha256:0bd30840098d07304c4432e071d43515ba1a9889f094cf3578f593ed63954986',
    },
    {
      name: "SessionEnd's timeout clamped to 3 s, as Codex does",
      hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: 'true', timeout: 5 }] }] },
      key: 'session_end:0:0',
      hash: 'sha256:0408973db4c606ef0b942b13de03431201c09e7746a6fbf2d078370f1af83d68',
    },
    {
      name: 'no matcher, no timeout (600 s)',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: '/bin/true' }] }] },
      key: 'stop:0:0',
      hash: 'sha256:fef68b1a8a8090019e0421bcd64cfac1f7b7c21980e2f35d49b46427395a6dda',
    },
    {
      name: 'an mcp_tool hook: its server, tool, input and timeout',
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'mcp_tool',
                server: 'peri-hooks',
                tool: 'fire',
                input: Object.fromEntries(
                  [
                    'session_id',
                    'turn_id',
                    'transcript_path',
                    'cwd',
                    'hook_event_name',
                    'model',
                    'permission_mode',
                    'tool_name',
                    'tool_input',
                    'tool_use_id',
                  ].map((field) => [field, `\${${field}}`]),
                ),
                timeout: 30,
              },
            ],
          },
        ],
      },
      key: 'pre_tool_use:0:0',
      hash: 'sha256:5613aaae4af6c98c6b216048f9bfa34677d498b73d6cfbf7dfc5c1f33a290d62',
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const [hook] = codexHooks('/p/.codex/hooks.json', JSON.stringify({ hooks: row.hooks }));
      assert.deepEqual(
        { key: hook!.key, hash: hook!.hash },
        { key: `/p/.codex/hooks.json:${row.key}`, hash: row.hash },
      );
    });
  }

  test('a second group and a second handler are keyed by their positions; the timeout is part of the hash', () => {
    const hooks = codexHooks(
      '/f',
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: 'command', command: 'a' }] },
            {
              hooks: [
                { type: 'command', command: 'b', timeout: 5 },
                { type: 'command', command: 'b', timeout: 6 },
              ],
            },
          ],
        },
      }),
    );
    assert.deepEqual(
      hooks.map((hook) => hook.key),
      ['/f:user_prompt_submit:0:0', '/f:user_prompt_submit:1:0', '/f:user_prompt_submit:1:1'],
    );
    assert.notEqual(hooks[1]!.hash, hooks[2]!.hash);
  });
});

describe('config.toml trusted_hash', () => {
  const hook = { key: '/p/.codex/hooks.json:stop:0:0', hash: 'sha256:new', command: 'x' };
  const rows = [
    {
      name: 'an empty file gets the table',
      before: '',
      after: '[hooks.state."/p/.codex/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:new"\n',
    },
    {
      name: 'other settings stay; the table goes after them',
      before: 'model = "m"\n',
      after: 'model = "m"\n\n[hooks.state."/p/.codex/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:new"\n',
    },
    {
      name: 'an old hash is replaced in place, enabled kept',
      before:
        '[hooks.state."/p/.codex/hooks.json:stop:0:0"]\nenabled = true\ntrusted_hash = "sha256:old"\n\n[x]\ny = 1\n',
      after:
        '[hooks.state."/p/.codex/hooks.json:stop:0:0"]\nenabled = true\ntrusted_hash = "sha256:new"\n\n[x]\ny = 1\n',
    },
    {
      name: 'a table without a hash gets one',
      before: '[hooks.state."/p/.codex/hooks.json:stop:0:0"]\nenabled = true\n',
      after: '[hooks.state."/p/.codex/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:new"\nenabled = true\n',
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const after = withTrustedHashes(row.before, [hook]);
      assert.equal(after, row.after);
      assert.equal(readToml(after).get(['hooks', 'state', hook.key].join('\0'))?.get('trusted_hash'), 'sha256:new');
    });
  }
});

describe("install --host codex and doctor: Codex's gate", () => {
  let project: Project;
  let policy: string;
  before(() => {
    project = makeProject();
    policy = project.write('policy.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', timeout: 20 }] }] },
    });
  });
  after(() => project.cleanup());
  const codexHome = () => join(project.home, 'codex-home');
  const cli = (args: string[]) =>
    runCli([...args, '--project-dir', project.dir], {
      env: project.env({ CODEX_HOME: codexHome() }),
      cwd: project.dir,
    });
  const gate = (output: string) => output.split('\n').filter((line) => /Codex CLI (project|hook) trust/.test(line));

  test('without --trust: install says Codex will not run the hooks, and how; doctor fails on both gates', async () => {
    const installed = await cli(['install', '--host', 'codex', '--policy', policy]);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(
      installed.stdout,
      /Codex CLI will not run this registration yet: .*pre_tool_use:0:0: not trusted by Codex \(never reviewed\)/,
    );
    assert.match(
      installed.stdout,
      /fix: review them in Codex \(\/hooks\), or run peri-hooks install --host codex --trust/,
    );
    assert.match(
      installed.stdout,
      /the project .* is not trusted in .*config\.toml\n {2}fix: .*trust_level = "trusted"/,
    );
    const checked = await cli(['doctor']);
    assert.equal(checked.code, 1);
    assert.deepEqual(
      gate(checked.stdout + checked.stderr).map((line) => line.slice(0, 1)),
      ['✗', '✗'],
    );
  });

  test('with --trust and a trusted project: the hash Codex computes is in config.toml, doctor passes the gate', async () => {
    project.writeHome('codex-home/config.toml', `[projects."${project.dir}"]\ntrust_level = "trusted"\n`);
    const installed = await cli(['install', '--host', 'codex', '--policy', policy, '--trust']);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /trusted: .*config\.toml/);
    assert.doesNotMatch(installed.stdout, /will not run/);
    const file = join(project.dir, '.codex/hooks.json');
    const [hook] = codexHooks(file, readFileSync(file, 'utf8'));
    const config = readToml(readFileSync(join(codexHome(), 'config.toml'), 'utf8'));
    assert.equal(
      config.get(['hooks', 'state', `${file}:pre_tool_use:0:0`].join('\0'))?.get('trusted_hash'),
      hook!.hash,
    );
    const checked = await cli(['doctor']);
    assert.deepEqual(
      gate(checked.stdout + checked.stderr).map((line) => line.slice(0, 1)),
      ['✓', '✓'],
    );
  });

  test('a policy whose timeout changed is a modified hook until trusted again', async () => {
    project.write('policy.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', timeout: 30 }] }] },
    });
    const installed = await cli(['install', '--host', 'codex', '--policy', policy]);
    assert.match(installed.stdout, /modified since Codex trusted it/);
    const trusted = await cli(['install', '--host', 'codex', '--policy', policy, '--trust']);
    assert.doesNotMatch(trusted.stdout, /will not run/);
  });

  test('user scope: a hooks.json beside ~/.codex that CODEX_HOME moved away from is one Codex never reads', async () => {
    const installed = await cli(['install', '--host', 'codex', '--scope', 'user', '--policy', policy, '--trust']);
    assert.equal(installed.code, 0, installed.stderr);
    assert.match(installed.stdout, /Codex reads .*codex-home\/hooks\.json \(CODEX_HOME\), not .*\.codex\/hooks\.json/);
    const checked = await cli(['doctor']);
    assert.match(checked.stdout + checked.stderr, /✗ Codex CLI user hooks/);
    await cli(['uninstall', '--host', 'codex', '--scope', 'user']);
  });

  test('--trust is for Codex only', async () => {
    const result = await cli(['install', '--host', 'cursor', '--policy', policy, '--trust']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /--trust is for --host codex/);
  });
});
