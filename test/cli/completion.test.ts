// The completion scripts, exercised in the real shells: bash through compgen (its completion function run on
// prepared COMP_WORDS), fish through `complete -C`, zsh as an interactive shell in a zpty. fish and zsh are skipped only
// outside CI when they are not installed (.ci/run installs them).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { COMMANDS, SCHEMA_KINDS } from '../../src/cli/options.ts';
import { EVENT_NAMES } from '../../src/events.ts';
import { HOST_NAMES } from '../../src/hosts/types.ts';
import { makeProject, runCli } from '../helpers/cli.ts';
import { skipWithout } from '../helpers/required.ts';

const project = makeProject();
after(() => project.cleanup());
const scripts: Record<string, string> = {};
before(async () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['completion', shell], { env: project.env() });
    assert.equal(result.code, 0, result.stderr);
    scripts[shell] = project.write(`completion.${shell}`, result.stdout);
  }
});

const installed = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const skipUnless = (shell: string) => skipWithout(shell, installed(shell), `apt-get install -y ${shell}`);

/** What bash completes for the words typed so far (the last one is being typed; '' after a space). */
function bashComplete(...typed: string[]): string[] {
  const words = ['peri-hooks', ...typed].map((word) => `'${word}'`).join(' ');
  const script = `source '${scripts.bash}'; COMP_WORDS=(${words}); COMP_CWORD=${typed.length}; _peri_hooks; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { cwd: project.dir, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout.split('\n').filter(Boolean).sort();
}

test('bash: commands, events, options and their values', () => {
  assert.deepEqual(bashComplete('fi'), ['fire']);
  assert.deepEqual(bashComplete('re'), ['record', 'replay']);
  assert.deepEqual(bashComplete(''), [...COMMANDS.map((spec) => spec.name), '--help', '--version'].sort());
  assert.deepEqual(bashComplete('fire', 'PreT'), ['PreToolUse']);
  assert.deepEqual(bashComplete('explain', ''), [...EVENT_NAMES].sort());
  assert.deepEqual(bashComplete('fire', 'PreToolUse', '--out'), ['--output']);
  assert.deepEqual(bashComplete('fire', 'PreToolUse', '--output', ''), ['claude', 'decision', 'json']);
  assert.deepEqual(bashComplete('replay', 'x.jsonl', '--output', ''), ['json', 'table']);
  assert.deepEqual(bashComplete('install', '--scope', ''), ['local', 'managed', 'project', 'user']);
  assert.deepEqual(bashComplete('install', '--events', 'Sto'), ['Stop', 'StopFailure']);
  assert.deepEqual(bashComplete('schema', ''), [...SCHEMA_KINDS].sort());
  assert.deepEqual(bashComplete('completion', ''), ['bash', 'fish', 'zsh']);
  assert.deepEqual(bashComplete('fire', 'Stop', '--only-async', ''), ['async', 'asyncRewake']);
  assert.deepEqual(bashComplete('fire', '--host', ''), [...HOST_NAMES].sort());
  assert.deepEqual(bashComplete('install', '--host', 'cu'), ['cursor']);
});

test('bash: file and folder values complete from the file system', () => {
  mkdirSync(join(project.dir, 'policies'), { recursive: true });
  writeFileSync(join(project.dir, 'policy.json'), '{}');
  assert.deepEqual(bashComplete('validate', '--project-dir', 'pol'), ['policies']);
  assert.deepEqual(bashComplete('install', '--policy', 'policy.'), ['policy.json']);
});

test('bash: every command offers each of its options, and --help', () => {
  for (const spec of COMMANDS) {
    const offered = bashComplete(spec.name, '--');
    for (const flag of [...spec.flags, 'help'])
      assert.ok(offered.includes(`--${flag}`), `${spec.name} offers --${flag}: ${offered.join(' ')}`);
  }
});

test('fish: complete -C gives commands, events and option values', { skip: skipUnless('fish') }, () => {
  const complete = (line: string) => {
    const result = spawnSync('fish', ['--no-config', '-c', `source '${scripts.fish}'; complete -C '${line}'`], {
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout
      .split('\n')
      .filter(Boolean)
      .map((entry) => entry.split('\t')[0]!)
      .sort();
  };
  assert.deepEqual(complete('peri-hooks fi'), ['fire']);
  assert.deepEqual(complete('peri-hooks fire PreT'), ['PreToolUse']);
  assert.deepEqual(complete('peri-hooks fire Stop --output '), ['claude', 'decision', 'json']);
  assert.deepEqual(complete('peri-hooks install --scope '), ['local', 'managed', 'project', 'user']);
});

/** What an interactive zsh offers at TAB after the line typed so far (test/cli/zsh-complete.zsh, through zpty). */
function zshComplete(line: string): string[] {
  const driver = fileURLToPath(new URL('zsh-complete.zsh', import.meta.url));
  // The timeout only stops a broken run: every read waits for its line, nothing waits for time.
  const result = spawnSync('zsh', ['-f', driver, scripts.zsh!, join(project.home, 'zcompdump'), `peri-hooks ${line}`], {
    encoding: 'utf8',
    env: { ...process.env, HOME: project.home },
    cwd: project.dir,
    timeout: 60_000,
  });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout.split('\n').filter(Boolean).sort();
}

test('zsh: a real interactive zsh completes commands, events, options and --host names', {
  skip: skipUnless('zsh'),
}, () => {
  assert.equal(spawnSync('zsh', ['-n', scripts.zsh!]).status, 0);
  assert.deepEqual(zshComplete('fi'), ['fire']);
  assert.deepEqual(zshComplete(''), COMMANDS.map((spec) => spec.name).sort());
  assert.deepEqual(zshComplete('fire PreT'), ['PreToolUse']);
  assert.deepEqual(zshComplete('explain Sto'), ['Stop', 'StopFailure']);
  assert.deepEqual(zshComplete('fire PreToolUse --out'), ['--output']);
  assert.deepEqual(zshComplete('fire PreToolUse --output '), ['claude', 'decision', 'json']);
  assert.deepEqual(zshComplete('fire --host '), [...HOST_NAMES].sort());
  assert.deepEqual(zshComplete('install --host cu'), ['cursor']);
  assert.deepEqual(zshComplete('schema '), [...SCHEMA_KINDS].sort());
});

test('completion of an unknown shell is a usage error', async () => {
  const result = await runCli(['completion', 'powershell'], { env: project.env() });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /no completion for the shell "powershell"\n {2}fix: use one of: bash, zsh, fish/);
});
