// The argument parser: options.ts wired into cac. Parsing prints nothing and runs nothing, so it is tested as a
// function; printing help and the version is the caller's choice.
import { cac, type CAC } from 'cac';
import { EVENT_NAMES } from '../events.ts';
import { PeriHooksError } from '../errors.ts';
import { wrap } from '../text.ts';
import { VERSION } from '../version.ts';
import { COMMANDS, FLAGS, flagHelp, type CommandName, type CommandSpec, type FlagSpec } from './options.ts';

/** Flags by camelCased name, as cac hands them over: `--no-state` is `state: false`, a repeatable flag an array. */
export type Flags = Record<string, unknown>;

export type ParsedArgs =
  | { kind: 'command'; command: CommandName; args: string[]; flags: Flags }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'usage-error'; error: PeriHooksError };

export function parseArgs(argv: readonly string[]): ParsedArgs {
  // A command named first is the one cac matches, whatever else is registered: the others' options need not be built.
  const named = COMMANDS.find((spec) => spec.name === argv[0]);
  const cli = program(named ? [named] : COMMANDS);
  cli.showHelpOnExit = false;
  cli.showVersionOnExit = false;
  try {
    cli.parse(['node', 'peri-hooks', ...emptySourcesAsNone(argv)], { run: false });
    if (cli.options.help) return { kind: 'help' };
    if (cli.options.version) return { kind: 'version' };
    const command = cli.matchedCommand;
    if (!command) {
      const [first] = cli.args;
      return first === undefined
        ? usageError('no command given', 'peri-hooks fire <Event> < input.json (see peri-hooks --help)')
        : usageError(`unknown command "${first}"`, 'see peri-hooks --help');
    }
    // The checks cac makes before it runs an action, in its order.
    command.checkUnknownOptions();
    command.checkOptionValue();
    command.checkRequiredArgs();
    command.checkUnusedArgs();
    return { kind: 'command', command: command.name as CommandName, args: cli.args.map(String), flags: cli.options };
  } catch (error) {
    if (error instanceof Error && error.name === 'CACError') return usageError(error.message, 'see peri-hooks --help');
    throw error;
  }
}

/** What `--help` and `--version` print, as cac writes it (nothing for `<command> --version`). */
export function printHelpOrVersion(argv: readonly string[]): void {
  program().parse(['node', 'peri-hooks', ...emptySourcesAsNone(argv)], { run: false });
}

function program(commands: readonly CommandSpec[] = COMMANDS): CAC {
  const cli = cac('peri-hooks');
  for (const spec of commands) {
    const command = cli.command(spec.args ? `${spec.name} ${spec.args}` : spec.name, spec.description);
    for (const name of spec.flags) {
      const flag: FlagSpec = FLAGS[name];
      command.option(`--${name}${flag.value ? ` ${flag.value}` : ''}`, flagHelp(name, spec.name), flag.repeatable ? { type: [String] } : undefined);
    }
    for (const example of spec.examples ?? []) command.example(example);
  }
  cli.help((sections) => {
    sections.push({ title: 'Events', body: wrap(EVENT_NAMES.join(', '), 100, '  ') });
    sections.push({ title: 'Exit codes', body: '  0  go on (nothing blocked)\n  1  peri-hooks could not run: bad usage, bad input\n  2  the reduced decision blocks (or --fail-closed turned a failure into a block)' });
  });
  cli.version(VERSION);
  return cli;
}

function usageError(message: string, fix: string): ParsedArgs {
  return { kind: 'usage-error', error: new PeriHooksError('usage', message, fix) };
}

/** The option parser reads an empty value as 0; `--setting-sources ''` must mean "no sources". */
function emptySourcesAsNone(argv: readonly string[]): string[] {
  return argv.map((arg, index) => {
    if (arg === '--setting-sources=') return '--setting-sources=none';
    return arg === '' && argv[index - 1] === '--setting-sources' ? 'none' : arg;
  });
}
