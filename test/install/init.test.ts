// `peri-hooks init`: the starter policy, its tests and a CI workflow; the tests it writes pass, the policy
// validates clean and guards from a subfolder once installed; a second init, or a file of the user's, changes nothing.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';
import { linkIntoProject, packageCopy, readSettings } from './setup.ts';

const FILES = [
  '.claude/peri-hooks/policy.json',
  '.claude/peri-hooks/guard-bash.sh',
  '.claude/peri-hooks/guard-files.sh',
  '.claude/peri-hooks/policy.hooks.test.json',
  '.github/workflows/peri-hooks.yml',
];
const run = (project: Project, args: string[]) => runCli(args, { cwd: project.dir, env: project.env() });

test('init writes a starter policy whose tests pass, that validates clean, and that guards from a subfolder once installed', async () => {
  const project = makeProject();
  const pkg = packageCopy();
  try {
    const first = await run(project, ['init']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(
      first.stdout
        .split('\n')
        .filter((line) => line.startsWith('wrote '))
        .join('\n'),
      FILES.map((file) => `wrote ${file}`).join('\n'),
    );
    assert.match(first.stdout, /\nenforce: {3}peri-hooks install --policy \.claude\/peri-hooks\/policy\.json/);
    assert.equal(statSync(join(project.dir, '.claude/peri-hooks/guard-bash.sh')).mode & 0o111, 0o111);

    const tested = await run(project, ['test', '.claude/peri-hooks']);
    assert.equal(tested.code, 0, tested.stdout + tested.stderr);
    assert.match(tested.stdout, /7 passed, 0 failed/);
    const validated = await run(project, [
      'validate',
      '--setting-sources',
      'none',
      '--settings',
      '.claude/peri-hooks/policy.json',
    ]);
    assert.match(validated.stdout, /ok: 0 errors, 0 warnings, 0 notes/);
    assert.match(
      readFileSync(join(project.dir, '.github/workflows/peri-hooks.yml'), 'utf8'),
      /- run: npm ci\n {6}- run: npx peri-hooks validate --setting-sources none --settings \.claude\/peri-hooks\/policy\.json\n {6}- run: npx peri-hooks test \.claude\/peri-hooks\n/,
    );

    // Installed as init says, the registration guards a session in a subfolder.
    linkIntoProject(pkg, project.dir);
    assert.equal((await pkg.run(['install', '--policy', '.claude/peri-hooks/policy.json'], project)).code, 0);
    const command = readSettings(join(project.dir, '.claude/settings.json')).hooks!.PreToolUse![0]!.hooks[0]!
      .command as string;
    const sub = join(project.dir, 'src/deep');
    mkdirSync(sub, { recursive: true });
    const fire = (fixture: string, overrides: Record<string, unknown>) =>
      spawnSync('sh', ['-c', command], {
        cwd: sub,
        input: project.input(fixture, { cwd: sub, ...overrides }),
        env: project.env({ CLAUDE_PROJECT_DIR: project.dir }),
        encoding: 'utf8',
      });
    const push = fire('PreToolUse.tool_name-Bash', { tool_input: { command: 'git push --force origin main' } });
    assert.equal(push.status, 2, push.stderr);
    assert.match(push.stderr, /force pushes are not allowed here/);
    const env = fire('PreToolUse.tool_name-Bash', {
      tool_name: 'Write',
      tool_input: { file_path: join(project.dir, '.env.local'), content: 'KEY=1' },
    });
    assert.equal(env.status, 2, env.stderr);
    assert.equal(fire('PreToolUse.tool_name-Bash', { tool_input: { command: 'ls' } }).status, 0);
  } finally {
    pkg.cleanup();
    project.cleanup();
  }
});

test('init never overwrites: a second run keeps every file, one the user changed included; --dry-run writes nothing', async () => {
  const project = makeProject();
  try {
    const dry = await run(project, ['init', '--dry-run']);
    assert.equal(dry.stdout.split('\n').filter((line) => line.startsWith('would write ')).length, FILES.length);
    assert.equal((await run(project, ['validate'])).stdout.includes('policy.json'), false);
    project.write('.claude/peri-hooks/policy.json', '{ "hooks": {} }\n');
    const partly = await run(project, ['init']);
    assert.match(partly.stdout, /^kept \.claude\/peri-hooks\/policy\.json \(it exists; init never overwrites\)$/m);
    assert.equal(readFileSync(join(project.dir, '.claude/peri-hooks/policy.json'), 'utf8'), '{ "hooks": {} }\n');
    const again = await run(project, ['init']);
    assert.equal(again.stdout.split('\n').filter((line) => line.startsWith('kept ')).length, FILES.length);
  } finally {
    project.cleanup();
  }
});
