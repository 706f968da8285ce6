// Start-up is a budget: each command's code is imported inside its action, so a firing never loads the
// modules of validate, explain, the test cases or replay. Read from a real run of the sources, module by module.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeProject, type Project, ROOT, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

/** The project's own modules (relative to src/) that one run of the CLI loaded. */
async function sourcesLoaded(args: string[], stdin = ''): Promise<string[]> {
  const probe = project.write(
    'probe.mjs',
    `import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ load(url, context, nextLoad) { loaded.push(url); return nextLoad(url, context); } });
process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(loaded) + '\\n'));
`,
  );
  const result = await runCli(args, {
    stdin,
    env: project.env(),
    cli: [process.execPath, ['--import', probe, join(ROOT, 'src/cli/bin.ts')]],
  });
  const line = /^LOADED (.*)$/m.exec(result.stderr);
  assert.ok(line, `no probe output; stderr: ${result.stderr}`);
  const src = new URL('../../src/', import.meta.url).href;
  return (JSON.parse(line[1]!) as string[]).filter((url) => url.startsWith(src)).map((url) => url.slice(src.length));
}

const OTHER_COMMANDS =
  /^(validate|cases|replay|serve)\/|^explain\.ts$|^schema-export\.ts$|^cli\/commands\/(?!fire\.ts$)/;

test('fire loads no code of the other commands', async () => {
  const loaded = await sourcesLoaded(
    ['fire', 'PreToolUse', '--setting-sources', '', '--settings', '{"hooks":{}}'],
    project.input('PreToolUse.tool_name-Bash'),
  );
  assert.ok(loaded.includes('cli/commands/fire.ts'), `the probe sees the fire command: ${loaded.join(', ')}`);
  assert.deepEqual(
    loaded.filter((file) => OTHER_COMMANDS.test(file)),
    [],
  );
});

test("the probe sees another command's modules when that command runs", async () => {
  const loaded = await sourcesLoaded(['validate', '--setting-sources', '']);
  assert.ok(
    loaded.some((file) => file.startsWith('validate/')),
    loaded.join(', '),
  );
  assert.ok(!loaded.includes('cli/commands/fire.ts'), 'validate does not load the fire command');
});

test('a Claude Code firing loads of the host adapters only the detection and its markers, not the hosts table', async () => {
  const args = ['fire', 'PreToolUse', '--setting-sources', '', '--settings', '{"hooks":{}}'];
  const loaded = await sourcesLoaded(args, project.input('PreToolUse.tool_name-Bash'));
  assert.deepEqual(loaded.filter((file) => file.startsWith('hosts/')).sort(), ['hosts/detect.ts', 'hosts/types.ts']);
  // A payload with a marker's name in it loads the table to check the host's events.
  assert.ok(
    (await sourcesLoaded(args, project.input('PreToolUse.tool_name-Bash', { turn_id: 't' }))).includes(
      'hosts/table.ts',
    ),
  );
});

test('only a firing with a redis:// state loads the Redis store (and its client)', async () => {
  const args = ['fire', 'PreToolUse', '--setting-sources', '', '--settings', '{"hooks":{}}'];
  const input = project.input('PreToolUse.tool_name-Bash');
  assert.ok(!(await sourcesLoaded(args, input)).includes('session/redis-store.ts'));
  // A store nobody listens on: the firing fails, after loading the store's code.
  assert.ok(
    (await sourcesLoaded([...args, '--state', 'redis://127.0.0.1:1'], input)).includes('session/redis-store.ts'),
  );
});
