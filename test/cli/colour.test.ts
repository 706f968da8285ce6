// Colour follows --color/--no-color, then FORCE_COLOR, then NO_COLOR (set and non-empty), then the terminal.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { useColour } from '../../src/cli/io.ts';
import { parseArgs } from '../../src/cli/parse.ts';
import { hooksSettings, makeProject, runCli } from '../helpers/cli.ts';

const terminal = { isTTY: true } as NodeJS.WriteStream;
const pipe = { isTTY: false } as NodeJS.WriteStream;

const ROWS: Array<
  [stream: NodeJS.WriteStream, choice: string | undefined, env: Record<string, string>, colour: boolean]
> = [
  [terminal, undefined, {}, true],
  [pipe, undefined, {}, false],
  [terminal, undefined, { NO_COLOR: '1' }, false],
  // no-color.org: only a non-empty NO_COLOR turns colour off.
  [terminal, undefined, { NO_COLOR: '' }, true],
  [terminal, undefined, { TERM: 'dumb' }, false],
  [pipe, undefined, { FORCE_COLOR: '1' }, true],
  [pipe, undefined, { FORCE_COLOR: '' }, true],
  [terminal, undefined, { FORCE_COLOR: '0' }, false],
  [terminal, undefined, { FORCE_COLOR: 'false' }, false],
  [pipe, undefined, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
  [pipe, 'always', { NO_COLOR: '1' }, true],
  [terminal, 'never', { FORCE_COLOR: '1' }, false],
];

for (const [stream, choice, env, colour] of ROWS) {
  test(`useColour: ${stream.isTTY ? 'terminal' : 'pipe'}, ${choice ?? 'no flag'}, ${JSON.stringify(env)} → ${colour}`, () => {
    assert.equal(useColour(stream, choice, env), colour);
  });
}

test('parseArgs: --color, --color=WHEN and --no-color for every command, the last one winning', () => {
  const flags = (argv: string[]) => {
    const parsed = parseArgs(argv);
    assert.equal(parsed.kind, 'command', argv.join(' '));
    return (parsed as Extract<typeof parsed, { kind: 'command' }>).flags;
  };
  assert.equal(flags(['validate', '--color']).color, 'always');
  assert.equal(flags(['fire', 'Stop', '--no-color']).color, 'never');
  assert.equal(flags(['doctor', '--color=never']).color, 'never');
  assert.equal(flags(['list', '--no-color', '--color=always']).color, 'always');
  assert.equal(flags(['list', '--color', '--color=auto']).color, undefined);
  const bad = parseArgs(['list', '--color=blue']);
  assert.equal(bad.kind, 'usage-error');
});

const project = makeProject();
after(() => project.cleanup());
project.write(
  '.claude/settings.json',
  hooksSettings({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] }),
);
const explain = (flags: string[], env: Record<string, string> = {}) =>
  runCli(['explain', 'PreToolUse', '--tool', 'Bash', '--output', 'human', '--project-dir', project.dir, ...flags], {
    env: project.env(env),
    cwd: project.dir,
  });
const ANSI = /\x1b\[/;

test('explain piped: no colour by default, colour with --color or FORCE_COLOR, none with --no-color', async () => {
  const plain = await explain([]);
  assert.equal(plain.code, 0, plain.stderr);
  assert.doesNotMatch(plain.stdout, ANSI);
  assert.match(plain.stdout, /true/);
  assert.match((await explain(['--color'])).stdout, ANSI);
  assert.match((await explain([], { FORCE_COLOR: '1' })).stdout, ANSI);
  assert.doesNotMatch((await explain(['--no-color'], { FORCE_COLOR: '1' })).stdout, ANSI);
});

test('fire --verbose piped: the trace is coloured with FORCE_COLOR or --color, plain otherwise', async () => {
  const fire = (flags: string[], env: Record<string, string> = {}) =>
    runCli(['fire', 'PreToolUse', '--verbose', '--project-dir', project.dir, ...flags], {
      stdin: project.input('PreToolUse.tool_name-Bash'),
      env: project.env(env),
      cwd: project.dir,
    });
  const plain = await fire([]);
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stderr, /peri-hooks: trace .* input: PreToolUse/);
  assert.doesNotMatch(plain.stderr, ANSI);
  for (const [flags, env] of [
    [[], { FORCE_COLOR: '1' }],
    [['--color'], {}],
  ] as const) {
    const coloured = await fire([...flags], { ...env });
    assert.match(
      coloured.stderr,
      /\x1b\[2mperi-hooks: trace .*\x1b\[22m \x1b\[1minput\x1b\[22m: PreToolUse/,
      JSON.stringify({ flags, env }),
    );
  }
  assert.doesNotMatch((await fire(['--no-color'], { FORCE_COLOR: '1' })).stderr, ANSI);
});
