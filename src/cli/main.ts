// The command line: cac wiring only. Each command lives in commands/ and is loaded when it runs.
import { cac } from 'cac';
import { config } from 'zod';
import { EVENT_NAMES } from '../events.ts';
import { EXIT, formatError } from '../errors.ts';
import { wrap } from '../text.ts';
import { VERSION } from '../version.ts';

// A CLI process parses each schema a handful of times: zod's eval-compiled fast path costs more to build than it saves.
config({ jitless: true });

/** Runs the command line and sets the exit code; what the entry points (bin.ts, sea.ts) call. */
export function run(argv: readonly string[]): void {
  main(argv).then(
    (code) => { process.exitCode = code; },
    (error: unknown) => {
      process.stderr.write(`peri-hooks: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

export async function main(argv: readonly string[]): Promise<number> {
  // The detached supervisor of an async hook: internal, so not a cac command and not in the help.
  if (argv[0] === '__async-run') return (await import('../run/supervisor.ts')).superviseJob(argv[1] ?? '');
  const cli = cac('peri-hooks');
  let exitCode: number = EXIT.ok;
  let pending: Promise<number> | undefined;

  cli
    .command('fire <event>', 'Run the hooks for one event: hook input JSON on stdin, decision on stdout')
    .option('--output <form>', 'decision (default) | claude | json')
    .option('--input <file>', 'Read the hook input from a file instead of stdin')
    .option('--settings <file-or-json>', 'Extra settings file or inline JSON (repeatable)', { type: [String] })
    .option('--plugin-dir <dir>', 'Load a plugin\'s hooks from this folder (repeatable)', { type: [String] })
    .option('--setting-sources <list>', 'Comma-separated subset of managed,user,project,local; \'\' for none')
    .option('--project-dir <dir>', 'Project root (default: $CLAUDE_PROJECT_DIR, else the input cwd)')
    .option('--managed-dir <dir>', 'Folder of managed-settings.json (default: /etc/claude-code; $PERI_HOOKS_MANAGED_DIR)')
    .option('--fail-closed', 'Hook failures and runner errors block (exit 2) where the event can block')
    .option('--sequential', 'Run the hooks in order: the first block skips the rest, each updatedInput reaches the next hook')
    .option('--state-dir <dir>', 'Session state folder (default: $PERI_HOOKS_STATE_DIR, else $XDG_STATE_HOME/peri-hooks)')
    .option('--no-state', 'Remember nothing: no once, no Stop-block count, no async results across firings')
    .example(`peri-hooks fire PreToolUse < input.json`)
    .example(`peri-hooks fire PreToolUse --output claude --settings policy.json --setting-sources ''`)
    .action((event: string, flags: Record<string, unknown>) => {
      pending = import('./commands/fire.ts').then(({ fireCommand }) => fireCommand(event, flags));
    });

  cli
    .command('state <session_id>', 'Print the state peri-hooks keeps for one session (once, Stop-block counts, async results), as JSON')
    .option('--state-dir <dir>', 'Session state folder (default: $PERI_HOOKS_STATE_DIR, else $XDG_STATE_HOME/peri-hooks)')
    .example('peri-hooks state 8f0c5b1e-0000-4000-8000-000000000000')
    .action((sessionId: string, flags: Record<string, unknown>) => {
      pending = import('./commands/state.ts').then(({ stateCommand }) => stateCommand(String(sessionId), flags));
    });

  withSources(cli.command('validate', 'Check every settings source fire would read, without running a hook; exit 1 on errors'))
    .option('--strict', 'Warnings fail too')
    .option('--output <form>', 'human (default) | json')
    .example('peri-hooks validate --project-dir .')
    .action((flags: Record<string, unknown>) => {
      pending = import('./commands/validate.ts').then(({ validateCommand }) => validateCommand(flags));
    });

  withSources(cli.command('explain <event>', 'Show which hooks would run for one input, and why the others would not; runs nothing'))
    .option('--input <file>', 'Read the hook input from a file instead of stdin')
    .option('--tool <name>', 'Build a tool-event input for this tool instead of reading one')
    .option('--tool-input <json>', 'The tool_input object for --tool (default {})')
    .option('--output <form>', 'human (on a terminal) | json (otherwise)')
    .option('--state-dir <dir>', 'Session state folder, read to show once hooks that already ran (default: as fire)')
    .option('--no-state', 'Ignore session state')
    .example(`peri-hooks explain PreToolUse --tool Bash --tool-input '{"command":"git push"}'`)
    .example('peri-hooks explain Stop < input.json')
    .action((event: string, flags: Record<string, unknown>) => {
      pending = import('./commands/explain.ts').then(({ explainCommand }) => explainCommand(event, flags));
    });

  withSources(cli.command('list', 'The hooks panel: hooks per event, with type, matcher, source and command'))
    .option('--output <form>', 'human (default) | json')
    .action((flags: Record<string, unknown>) => {
      pending = import('./commands/list.ts').then(({ listCommand }) => listCommand(flags));
    });

  cli
    .command('schema [kind]', 'Print a JSON Schema: settings (default), input or output (--event for one event)')
    .option('--event <event>', 'The event of an input or output schema')
    .example('peri-hooks schema settings > settings.schema.json')
    .example('peri-hooks schema input --event PreToolUse')
    .action((kind: string | undefined, flags: Record<string, unknown>) => {
      pending = import('./commands/schema.ts').then(({ schemaCommand }) => schemaCommand(kind, flags));
    });

  cli
    .command('test [...paths]', 'Run hook test cases (hooks.test.json, *.hooks.test.json, .claude/hooks-tests/*.json); exit 1 unless all pass')
    .option('--jobs <n>', 'Cases run at once (default: the number of cores)')
    .option('--reporter <name>', 'default | tap | github (console), junit (file); repeatable', { type: [String] })
    .option('--output-file <file>', 'Where --reporter junit writes (default: peri-hooks-junit.xml)')
    .option('--update', 'Write the actual decision into cases that have no expectations yet; never changes existing ones')
    .example('peri-hooks test')
    .example('peri-hooks test fixtures/policies/guard --reporter github --reporter junit --output-file junit.xml')
    .action((paths: string[], flags: Record<string, unknown>) => {
      pending = import('./commands/test.ts').then(({ testCommand }) => testCommand(paths, flags));
    });

  withSources(cli.command('replay <...transcripts>', 'Fire the hooks of today\'s settings for every tool call of Claude Code transcripts; runs the hooks for real'))
    .option('--post', 'Also fire PostToolUse (PostToolUseFailure for errors) for every call with a result')
    .option('--dry-run', 'Only plan: which hooks would run for every call; runs nothing')
    .option('--output <form>', 'table (default) | json')
    .option('--jobs <n>', 'Calls fired at once (default 1: in transcript order)')
    .example('peri-hooks replay ~/.claude/projects/-home-me-repo/*.jsonl --dry-run')
    .example('peri-hooks replay session.jsonl --post --output json')
    .action((transcripts: string[], flags: Record<string, unknown>) => {
      pending = import('./commands/replay.ts').then(({ replayCommand }) => replayCommand(transcripts, flags));
    });

  cli.help((sections) => {
    sections.push({ title: 'Events', body: wrap(EVENT_NAMES.join(', '), 100, '  ') });
    sections.push({ title: 'Exit codes', body: '  0  go on (nothing blocked)\n  1  peri-hooks could not run: bad usage, bad input\n  2  the reduced decision blocks (or --fail-closed turned a failure into a block)' });
  });
  cli.version(VERSION);

  try {
    cli.parse(['node', 'peri-hooks', ...emptySourcesAsNone(argv)], { run: false });
    if (cli.options.help || cli.options.version) return EXIT.ok;
    if (!cli.matchedCommand) {
      const [first] = cli.args;
      process.stderr.write(first === undefined
        ? 'peri-hooks: no command given\n  fix: peri-hooks fire <Event> < input.json (see peri-hooks --help)\n'
        : `peri-hooks: unknown command "${first}"\n  fix: see peri-hooks --help\n`);
      return EXIT.runnerError;
    }
    await cli.runMatchedCommand();
    if (pending) exitCode = await pending;
  } catch (error) {
    const message = error instanceof Error && error.name === 'CACError' ? `peri-hooks: ${error.message}\n  fix: see peri-hooks --help\n` : `${formatError(error)}\n`;
    process.stderr.write(message);
    return EXIT.runnerError;
  }
  return exitCode;
}

/** The settings-source options that fire takes, for the commands that read the same sources. */
function withSources<T extends { option: (name: string, description: string, config?: { type?: unknown[] }) => T }>(command: T): T {
  return command
    .option('--settings <file-or-json>', 'Extra settings file or inline JSON (repeatable)', { type: [String] })
    .option('--plugin-dir <dir>', 'Load a plugin\'s hooks from this folder (repeatable)', { type: [String] })
    .option('--setting-sources <list>', 'Comma-separated subset of managed,user,project,local; \'\' for none')
    .option('--project-dir <dir>', 'Project root (default: $CLAUDE_PROJECT_DIR, else the current directory)')
    .option('--managed-dir <dir>', 'Folder of managed-settings.json (default: /etc/claude-code; $PERI_HOOKS_MANAGED_DIR)');
}

/** The option parser reads an empty value as 0; `--setting-sources ''` must mean "no sources". */
function emptySourcesAsNone(argv: readonly string[]): string[] {
  return argv.map((arg, index) => {
    if (arg === '--setting-sources=') return '--setting-sources=none';
    return arg === '' && argv[index - 1] === '--setting-sources' ? 'none' : arg;
  });
}
