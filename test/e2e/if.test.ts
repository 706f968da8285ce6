// `if` end to end: the CLI runs a hook only for the calls its rule matches, and never starts the others.

import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

/** Fires PreToolUse for one tool call against one hook guarded by `rule`; says whether the hook ran. */
async function ran(rule: string, tool: string, toolInput: Record<string, unknown>, matcher = '*'): Promise<boolean> {
  const marker = `${project.dir}/ran`;
  rmSync(marker, { force: true });
  const settings = JSON.stringify({
    hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command: `touch ${marker}`, if: rule }] }] },
  });
  const result = await runCli(['fire', 'PreToolUse', '--setting-sources', '', '--settings', settings, '--no-state'], {
    stdin: project.input('PreToolUse', { tool_name: tool, tool_input: toolInput }),
    env: project.env(),
  });
  assert.equal(result.code, 0, result.stderr);
  return existsSync(marker);
}

test('Bash rules check every part of a compound command', async () => {
  assert.equal(await ran('Bash(git push *)', 'Bash', { command: 'npm test && git push origin main' }), true);
  assert.equal(await ran('Bash(git push *)', 'Bash', { command: 'ls -la;git push' }), true);
  assert.equal(await ran('Bash(git push *)', 'Bash', { command: 'git status' }), false);
  assert.equal(await ran('Bash(rm -rf *)', 'Bash', { command: 'echo x | xargs rm -rf' }), true);
});

test('an unparsable command fails open: the hook runs', async () => {
  assert.equal(await ran('Bash(git push *)', 'Bash', { command: 'echo ${HOME}' }), true);
});

test('file rules: gitignore semantics inside the cwd, case-insensitive, no tool families', async () => {
  assert.equal(
    await ran('Edit(src/**)', 'Edit', { file_path: `${project.dir}/SRC/a.ts`, old_string: 'a', new_string: 'b' }),
    true,
  );
  assert.equal(
    await ran('Edit(src/**)', 'Edit', { file_path: `${project.dir}/lib/a.ts`, old_string: 'a', new_string: 'b' }),
    false,
  );
  assert.equal(await ran('Edit(*.ts)', 'Write', { file_path: `${project.dir}/a.ts`, content: '' }), false);
});

test('specifiers on tools without a permission matcher never match; legacy names do', async () => {
  assert.equal(
    await ran('WebFetch(domain:example.com)', 'WebFetch', { url: 'https://example.com', prompt: 'p' }),
    false,
  );
  assert.equal(await ran('Task', 'Agent', { prompt: 'p', description: 'd', subagent_type: 'Explore' }), true);
});

test('if and matcher combine as AND; a malformed rule never runs the hook', async () => {
  assert.equal(await ran('Write(*.txt)', 'Write', { file_path: `${project.dir}/a.txt`, content: '' }, 'Edit'), false);
  assert.equal(await ran('Bash(ls) || Bash(echo *)', 'Bash', { command: 'ls' }), false);
});
