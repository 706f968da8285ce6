// The organisation's recipe (docs/guide/trust.md) for another agent, with the real Gemini CLI 0.61.0: the project's
// registration (`peri-hooks install --host gemini`, committed) runs the project's Claude Code policy, and the
// developer's environment requires trust (PERI_HOOKS_REQUIRE_TRUST=1, which no commit can change). A commit that
// changes a policy hook's script: the changed hook does not run and the call is refused (fail-closed); after
// `peri-hooks trust` it runs.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FAIL_CLOSED_REASON } from '../../../src/hosts/gemini.ts';
import type { GeminiScript } from '../../helpers/gemini-api-server.ts';
import { periHooks } from './common.ts';
import { geminiFolder, made, runGemini } from './gemini.ts';

const folder = geminiFolder('trust');
after(() => folder.cleanup());

const env = { ...folder.env, PERI_HOOKS_REQUIRE_TRUST: '1' };
const shell = (command: string) => ({ name: 'run_shell_command', args: { command, description: `run ${command}` } });
const script = (file: string): GeminiScript => [{ calls: [shell(`touch ${file}`)] }, { text: 'FINAL' }];
const marks = join(folder.root, 'marks');
const trust = (...args: string[]) => periHooks(['trust', ...args], { cwd: folder.project, env });
const run = (file: string) => runGemini({ ...folder, env }, script(file), 'make the file');

test('Gemini CLI through peri-hooks with trust required: a committed change of a policy script is refused until trusted', {
  timeout: 300_000,
}, async () => {
  const guard = folder.write(
    '.claude/hooks/guard.sh',
    `#!/bin/sh\nmkdir -p ${marks}; touch ${marks}/guard-v1\nexit 0\n`,
  );
  folder.write('.claude/policy.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh .claude/hooks/guard.sh' }] }] },
  });
  const installed = await periHooks(
    [
      'install',
      '--host',
      'gemini',
      '--policy',
      '.claude/policy.json',
      '--project-dir',
      folder.project,
      '--fail-closed',
    ],
    { cwd: folder.project, env },
  );
  assert.equal(installed.code, 0, installed.stderr);

  // trust finds the policy through Gemini's registration in the project.
  const approved = await trust('--output', 'json');
  assert.equal(approved.code, 0, approved.stderr);
  assert.deepEqual(
    JSON.parse(approved.stdout).hooks.map((hook: { file: string; trust: { scripts: Array<{ file: string }> } }) => [
      hook.file.slice(folder.project.length),
      hook.trust.scripts.map((s) => s.file),
    ]),
    [['/.claude/policy.json', ['.claude/hooks/guard.sh']]],
  );
  const first = await run('MADE1');
  assert.equal(first.code, 0, first.stderr);
  assert.ok(existsSync(join(marks, 'guard-v1')), 'the approved hook ran');
  assert.ok(made(folder, 'MADE1'));

  writeFileSync(guard, `#!/bin/sh\nmkdir -p ${marks}; touch ${marks}/guard-v2\nexit 0\n`);
  const second = await run('MADE2');
  assert.ok(!existsSync(join(marks, 'guard-v2')), 'the changed script did not run');
  assert.ok(!made(folder, 'MADE2'), 'the call was refused (fail-closed)');
  // Gemini shows the model only its fail-closed reason, and the user that the peri-hooks hook failed; the detail
  // (which hook, which file changed, the command that approves it) is the hook's stderr, in Gemini's debug drawer.
  assert.match(second.modelSaw, new RegExp(FAIL_CLOSED_REASON.replace(/[()]/g, '\\$&')));
  assert.match(second.stderr, /Hook\(s\) \[peri-hooks\] failed for event BeforeTool/);
  assert.match((await trust('--diff')).stdout, /\.claude\/hooks\/guard\.sh changed \(sha256 /);

  assert.equal((await trust()).code, 0);
  const third = await run('MADE3');
  assert.equal(third.code, 0, third.stderr);
  assert.ok(existsSync(join(marks, 'guard-v2')), 'approved again, the new script runs');
  assert.ok(made(folder, 'MADE3'));
});
