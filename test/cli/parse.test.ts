// The argument parser as a function: no process is spawned. Rows: argv → command, positional args, flags.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { sourceOptions } from '../../src/cli/io.ts';
import { COMMANDS, type CommandName, FLAGS, type FlagName, type FlagSpec, flagHelp } from '../../src/cli/options.ts';
import { type ParsedArgs, parseArgs, printHelpOrVersion } from '../../src/cli/parse.ts';

function command(argv: string[]): Extract<ParsedArgs, { kind: 'command' }> {
  const parsed = parseArgs(argv);
  assert.equal(
    parsed.kind,
    'command',
    `${argv.join(' ')}: ${parsed.kind === 'usage-error' ? parsed.error.message : parsed.kind}`,
  );
  return parsed as Extract<ParsedArgs, { kind: 'command' }>;
}

const COMMAND_ROWS: Array<[argv: string[], name: CommandName, args: string[], flags: Record<string, unknown>]> = [
  [['fire', 'PreToolUse'], 'fire', ['PreToolUse'], { state: true }],
  [
    [
      'fire',
      'PreToolUse',
      '--output',
      'claude',
      '--input',
      'in.json',
      '--fail-closed',
      '--sequential',
      '--state-dir',
      '/s',
      '--no-state',
    ],
    'fire',
    ['PreToolUse'],
    { output: 'claude', input: 'in.json', failClosed: true, sequential: true, stateDir: '/s', state: false },
  ],
  [
    ['fire', 'Stop', '--project-dir', '/p', '--managed-dir', '/m', '--setting-sources', 'user,project'],
    'fire',
    ['Stop'],
    { projectDir: '/p', managedDir: '/m', settingSources: 'user,project' },
  ],
  // A positional argument stays text even when it looks like a number.
  [['state', '123'], 'state', ['123'], {}],
  [['state', '8f0c5b1e', '--state-dir', '/s'], 'state', ['8f0c5b1e'], { stateDir: '/s' }],
  [['validate'], 'validate', [], {}],
  [
    ['validate', '--strict', '--output', 'json', '--project-dir', '.'],
    'validate',
    [],
    { strict: true, output: 'json', projectDir: '.' },
  ],
  [
    ['explain', 'PreToolUse', '--tool', 'Bash', '--tool-input', '{"command":"ls"}', '--no-state'],
    'explain',
    ['PreToolUse'],
    { tool: 'Bash', toolInput: '{"command":"ls"}', state: false },
  ],
  [
    ['explain', 'Stop', '--input', 'in.json', '--output', 'json', '--state-dir', '/s'],
    'explain',
    ['Stop'],
    { input: 'in.json', output: 'json', stateDir: '/s' },
  ],
  [['list', '--output', 'json'], 'list', [], { output: 'json' }],
  [['trust', '--diff', '--state-dir', '/s'], 'trust', [], { diff: true, stateDir: '/s' }],
  [['fire', 'Stop', '--require-trust'], 'fire', ['Stop'], { requireTrust: true }],
  [['schema'], 'schema', [], {}],
  [['schema', 'input', '--event', 'PreToolUse'], 'schema', ['input'], { event: 'PreToolUse' }],
  [['test'], 'test', [], {}],
  [
    ['test', 'a', 'b.hooks.test.json', '--update', '--output-file', 'j.xml'],
    'test',
    ['a', 'b.hooks.test.json'],
    { update: true, outputFile: 'j.xml' },
  ],
  [
    ['test', '-t', 'force push', '--bail', '--shard', '2/3', '--watch'],
    'test',
    [],
    { filter: 'force push', bail: true, shard: '2/3', watch: true },
  ],
  [['record', '--into', 'cases.json'], 'record', [], { into: 'cases.json' }],
  [['replay', 'one.jsonl'], 'replay', ['one.jsonl'], {}],
  [
    ['replay', 'one.jsonl', 'two.jsonl', '--post', '--dry-run', '--output', 'json'],
    'replay',
    ['one.jsonl', 'two.jsonl'],
    { post: true, dryRun: true, output: 'json' },
  ],
  [
    [
      'install',
      '--policy',
      'a.json',
      '--policy',
      'b.json',
      '--scope',
      'user',
      '--events',
      'Stop',
      '--fail-closed',
      '--move-hooks',
      '--dry-run',
    ],
    'install',
    [],
    { policy: ['a.json', 'b.json'], scope: 'user', events: 'Stop', failClosed: true, moveHooks: true, dryRun: true },
  ],
  [['uninstall', '--scope', 'local', '--dry-run'], 'uninstall', [], { scope: 'local', dryRun: true }],
  [['init', '--dry-run'], 'init', [], { dryRun: true }],
  [['doctor', '--output', 'json', '--project-dir', '/p'], 'doctor', [], { output: 'json', projectDir: '/p' }],
  [
    [
      'serve',
      '--listen',
      '127.0.0.1:0',
      '--token-file',
      't',
      '--max-active',
      '2',
      '--max-queued',
      '0',
      '--stop-grace',
      '1',
      '--fail-closed',
      '--no-state',
    ],
    'serve',
    [],
    {
      listen: '127.0.0.1:0',
      tokenFile: 't',
      maxActive: '2',
      maxQueued: '0',
      stopGrace: '1',
      failClosed: true,
      state: false,
    },
  ],
  [
    ['mcp', '--settings', 'p.json', '--setting-sources', '', '--fail-closed', '--state-dir', '/s'],
    'mcp',
    [],
    { settings: ['p.json'], settingSources: 'none', failClosed: true, stateDir: '/s' },
  ],
  [
    ['audit', 'search', 'a.jsonl', '--decision', 'deny', '--since', '2026-12-01', '-n', '5', '--output', 'json'],
    'audit',
    ['search', 'a.jsonl'],
    { decision: 'deny', since: '2026-12-01', lines: 5, output: 'json' },
  ],
  [['completion', 'bash'], 'completion', ['bash'], {}],
];

for (const [argv, name, args, flags] of COMMAND_ROWS) {
  test(`parseArgs: ${argv.join(' ')}`, () => {
    const parsed = command(argv);
    assert.equal(parsed.command, name);
    assert.deepEqual(parsed.args, args);
    for (const [key, value] of Object.entries(flags)) assert.deepEqual(parsed.flags[key], value, `flag ${key}`);
  });
}

test('parseArgs: every command in the table is a row above', () => {
  assert.deepEqual(new Set(COMMAND_ROWS.map(([, name]) => name)), new Set(COMMANDS.map((spec) => spec.name)));
});

test('parseArgs: each command takes every flag it declares, and no other', () => {
  const camel = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  for (const spec of COMMANDS) {
    const positional = spec.args?.startsWith('<') ? ['X'] : [];
    for (const name of Object.keys(FLAGS) as FlagName[]) {
      const argv = [spec.name, ...positional, `--${name}`, ...('value' in FLAGS[name] ? ['v'] : [])];
      const parsed = parseArgs(argv);
      if (!spec.flags.includes(name)) {
        assert.equal(parsed.kind, 'usage-error', `${argv.join(' ')} is refused`);
        continue;
      }
      const { flags } = command(argv);
      const [key, value] = name.startsWith('no-')
        ? [camel(name.slice(3)), false]
        : [camel(name), 'value' in FLAGS[name] ? 'v' : true];
      assert.deepEqual('repeatable' in FLAGS[name] ? flags[key] : [flags[key]], [value], argv.join(' '));
    }
  }
});

test('parseArgs: a repeatable flag is an array, for one use as for several', () => {
  assert.deepEqual(command(['fire', 'Stop', '--settings', 'a.json']).flags.settings, ['a.json']);
  const { flags } = command([
    'fire',
    'Stop',
    '--settings',
    'a.json',
    '--settings',
    '{"hooks":{}}',
    '--plugin-dir',
    'p1',
    '--plugin-dir',
    'p2',
  ]);
  assert.deepEqual(flags.settings, ['a.json', '{"hooks":{}}']);
  assert.deepEqual(flags.pluginDir, ['p1', 'p2']);
  assert.deepEqual(command(['test', '--reporter', 'tap', '--reporter', 'junit']).flags.reporter, ['tap', 'junit']);
});

test('parseArgs: a single-value option given twice takes its last value; a repeatable one keeps all', () => {
  assert.equal(command(['fire', 'Stop', '--output', 'json', '--output', 'claude']).flags.output, 'claude');
  assert.equal(command(['validate', '--project-dir', 'a', '--project-dir=b']).flags.projectDir, 'b');
  assert.deepEqual(command(['fire', 'Stop', '--settings', 'a', '--settings', 'b']).flags.settings, ['a', 'b']);
  // Values stay as typed, numbers included; one that starts with a dash is given with =.
  assert.equal(command(['explain', 'PreToolUse', '--tool-input', '1e3']).flags.toolInput, '1e3');
  assert.equal(command(['test', '--jobs', '4']).flags.jobs, '4');
  assert.equal(command(['explain', 'PreToolUse', '--tool-input=-1']).flags.toolInput, '-1');
});

test('parseArgs: --setting-sources \'\' (or an empty =value) means no sources, not "0"', () => {
  for (const argv of [
    ['validate', '--setting-sources', ''],
    ['validate', '--setting-sources='],
    ['fire', 'Stop', '--setting-sources', '', '--settings', '{}'],
  ]) {
    const { flags } = command(argv);
    assert.equal(flags.settingSources, 'none', argv.join(' '));
    assert.deepEqual(sourceOptions(flags).settingSources, [], argv.join(' '));
  }
  // Only the value of --setting-sources: an empty positional argument stays empty.
  assert.deepEqual(command(['schema', '']).args, ['']);
});

const USAGE_ROWS: Array<[argv: string[], message: string, fix: string]> = [
  [[], 'no command given', 'peri-hooks fire <Event> < input.json (see peri-hooks --help)'],
  [['frob'], 'unknown command "frob"', 'see peri-hooks --help'],
  [['Fire', 'PreToolUse'], 'unknown command "Fire"', 'did you mean peri-hooks fire? (see peri-hooks --help)'],
  [['frie', 'PreToolUse'], 'unknown command "frie"', 'did you mean peri-hooks fire? (see peri-hooks --help)'],
  [['validat'], 'unknown command "validat"', 'did you mean peri-hooks validate? (see peri-hooks --help)'],
  [['fire', 'PreToolUse', '--bogus'], 'unknown option --bogus for peri-hooks fire', 'see peri-hooks fire --help'],
  [
    ['fire', 'PreToolUse', '--outptu', 'json'],
    'unknown option --outptu for peri-hooks fire',
    'did you mean --output? (see peri-hooks fire --help)',
  ],
  [
    ['fire', 'PreToolUse', '--fail-closd'],
    'unknown option --fail-closd for peri-hooks fire',
    'did you mean --fail-closed? (see peri-hooks fire --help)',
  ],
  [
    ['install', '--polcy=a.json'],
    'unknown option --polcy for peri-hooks install',
    'did you mean --policy? (see peri-hooks install --help)',
  ],
  [['state', 'abc', '--output', 'json'], 'unknown option --output for peri-hooks state', 'see peri-hooks state --help'],
  [
    ['fire', 'PreToolUse', '--output'],
    '--output needs a value: --output <form>',
    'give it one (--output=<value> for a value that starts with -)',
  ],
  // A repeatable option alone is no exception: the parser would read it as the file "true".
  [
    ['validate', '--settings'],
    '--settings needs a value: --settings <file-or-json>',
    'give it one (--settings=<value> for a value that starts with -)',
  ],
  [
    ['fire', 'Stop', '--settings', '--fail-closed'],
    '--settings needs a value: --settings <file-or-json>',
    'give it one (--settings=<value> for a value that starts with -)',
  ],
  [['state'], 'missing required args for command `state <session_id>`', 'see peri-hooks --help'],
  [['explain'], 'missing required args for command `explain <event>`', 'see peri-hooks --help'],
  [['replay', '--dry-run'], 'missing required args for command `replay <...transcripts>`', 'see peri-hooks --help'],
  [['fire', 'PreToolUse', 'Stop'], 'Unused args: `Stop`', 'see peri-hooks --help'],
  [['validate', 'here'], 'Unused args: `here`', 'see peri-hooks --help'],
  // Unknown options are reported before missing arguments.
  [['fire', '--bogus'], 'unknown option --bogus for peri-hooks fire', 'see peri-hooks fire --help'],
];

for (const [argv, message, fix] of USAGE_ROWS) {
  test(`parseArgs: usage error for "${argv.join(' ')}"`, () => {
    const parsed = parseArgs(argv);
    assert.equal(parsed.kind, 'usage-error');
    const { error } = parsed as Extract<ParsedArgs, { kind: 'usage-error' }>;
    assert.equal(error.code, 'usage');
    assert.equal(error.message, message);
    assert.equal(error.fix, fix);
  });
}

test('parseArgs: --help and --version, with or without a command, run nothing', () => {
  for (const argv of [
    ['--help'],
    ['-h'],
    ['fire', '--help'],
    ['replay', '-h'],
    ['frob', '--help'],
    ['fire', '--bogus', '--help'],
  ]) {
    assert.deepEqual(parseArgs(argv), { kind: 'help' }, argv.join(' '));
  }
  for (const argv of [['--version'], ['-v'], ['fire', 'Stop', '--version']]) {
    assert.deepEqual(parseArgs(argv), { kind: 'version' }, argv.join(' '));
  }
});

/** What printHelpOrVersion writes (cac writes with console.info). */
function printed(argv: string[]): string {
  const info = mock.method(console, 'info', () => {});
  try {
    printHelpOrVersion(argv);
    return info.mock.calls.map((call) => String(call.arguments[0])).join('\n');
  } finally {
    info.mock.restore();
  }
}

test("each command's help lists its flags in its order, with the text of options.ts", () => {
  for (const spec of COMMANDS) {
    const help = printed([spec.name, '--help']);
    const lines = spec.flags.map((name) => {
      const short: string | undefined = (FLAGS[name] as FlagSpec).short;
      const line = help
        .split('\n')
        .find((text) => text.trimStart().startsWith(`${short ? `-${short}, ` : ''}--${name} `));
      assert.ok(line, `${spec.name} --help lists --${name}`);
      assert.ok(line.includes(flagHelp(name, spec.name)), `${spec.name} --help: ${line}`);
      return help.indexOf(line);
    });
    assert.deepEqual(
      lines,
      [...lines].sort((a, b) => a - b),
      `${spec.name} --help keeps the order of options.ts`,
    );
    for (const example of spec.examples ?? [])
      assert.ok(help.includes(example), `${spec.name} --help shows ${example}`);
  }
});

test("each command's help lists only the exit codes it can return, and its examples", () => {
  for (const spec of COMMANDS) {
    const help = printed([spec.name, '--help']);
    const codes = help
      .slice(help.indexOf('Exit codes:'))
      .split('\n')
      .slice(1)
      .map((line) => /^ {2}(\d) /.exec(line)?.[1])
      .filter(Boolean);
    assert.deepEqual(codes, Object.keys(spec.exits), `${spec.name} --help`);
    assert.ok(spec.examples.length > 0, `${spec.name} has an example`);
    assert.match(help, /^Examples:\n {2}peri-hooks /m, `${spec.name} --help indents its examples`);
  }
  assert.deepEqual(Object.keys(COMMANDS.find((spec) => spec.name === 'fire')!.exits), ['0', '1', '2']);
  assert.doesNotMatch(printed(['validate', '--help']), /^ {2}2 /m);
});

test('a --no-x switch does not read as on by default; the event list shows where events are named', () => {
  const fire = printed(['fire', '--help']);
  const noState = fire.split('\n').find((line) => line.trimStart().startsWith('--no-state'));
  assert.ok(noState && !noState.includes('default'), noState);
  assert.match(fire, /^Events:/m);
  assert.doesNotMatch(printed(['doctor', '--help']), /^Events:/m);
});

test('the main help lists every command, the events and the exit codes; --version prints the version', () => {
  const help = printed(['--help']);
  for (const spec of COMMANDS)
    assert.match(
      help,
      new RegExp(`^ {2}${spec.name}\\b.*${spec.description.slice(0, 20).replace(/[()]/g, '\\$&')}`, 'm'),
    );
  assert.match(help, /^Events:\n {2}PreToolUse, PostToolUse,/m);
  assert.match(help, /^Exit codes:\n {2}0 /m);
  assert.match(printed(['--version']), /^peri-hooks\/\d+\.\d+\.\d+ /);
});

test("flagHelp: a command's variant wins; repeatable and the default follow the description", () => {
  assert.equal(flagHelp('settings', 'fire'), 'Extra settings file or inline JSON (repeatable)');
  assert.equal(
    flagHelp('project-dir', 'validate'),
    'Project root (default: $CLAUDE_PROJECT_DIR, else the current directory)',
  );
  assert.equal(flagHelp('project-dir', 'fire'), 'Project root (default: $CLAUDE_PROJECT_DIR, else the input cwd)');
  assert.equal(
    flagHelp('state-dir', 'state'),
    'Session state folder (default: $PERI_HOOKS_STATE_DIR, else $XDG_STATE_HOME/peri-hooks)',
  );
  assert.equal(
    flagHelp('state-dir', 'explain'),
    'Session state folder, read to show once hooks that already ran (default: as fire)',
  );
  assert.equal(flagHelp('output', 'list'), 'human (default) | json');
  assert.equal(flagHelp('output', 'fire'), 'decision (default) | claude | json');
  assert.equal(flagHelp('jobs', 'replay'), 'Calls fired at once (default: 1, in transcript order)');
});
