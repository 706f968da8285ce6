// The argument parser: options.ts wired into cac. Parsing prints nothing and runs nothing, so it is tested as a
// function; printing help and the version is the caller's choice.
import { type CAC, cac } from 'cac';
import { PeriHooksError } from '../errors.ts';
import { EVENT_NAMES } from '../events.ts';
import { closest } from '../platform/suggest.ts';
import { VERSION } from '../platform/version.ts';
import { wrap } from '../text.ts';
import type { ColourChoice } from './io.ts';
import {
  COMMANDS,
  type CommandName,
  type CommandSpec,
  FLAGS,
  type FlagName,
  type FlagSpec,
  flagHelp,
} from './options.ts';

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
    const colour = colourChoice(argv);
    if ('problem' in colour) return usageError(colour.problem.message, colour.problem.fix);
    const normalised = emptySourcesAsNone(colour.rest);
    cli.parse(['node', 'peri-hooks', ...normalised], { run: false });
    if (cli.options.help) return { kind: 'help' };
    if (cli.options.version) return { kind: 'version' };
    const command = cli.matchedCommand;
    if (!command) {
      const [first] = cli.args;
      if (first === undefined)
        return usageError('no command given', 'peri-hooks fire <Event> < input.json (see peri-hooks --help)');
      const near = closest(
        String(first),
        COMMANDS.map((spec) => spec.name),
      );
      return usageError(
        `unknown command "${first}"`,
        near ? `did you mean peri-hooks ${near}? (see peri-hooks --help)` : 'see peri-hooks --help',
      );
    }
    const spec = COMMANDS.find((candidate) => candidate.name === command.name)!;
    const options = longOptions(normalised, spec);
    if ('problem' in options) return usageError(options.problem.message, options.problem.fix);
    // The checks cac makes before it runs an action, in its order (short options are left to it).
    command.checkUnknownOptions();
    command.checkOptionValue();
    command.checkRequiredArgs();
    command.checkUnusedArgs();
    return {
      kind: 'command',
      command: spec.name,
      args: cli.args.map(String),
      flags: withColour({ ...cli.options, ...options.values }, colour.choice),
    };
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
      command.option(
        `${flag.short ? `-${flag.short}, ` : ''}--${name}${flag.value ? ` ${flag.value}` : ''}`,
        flagHelp(name, spec.name),
        flag.repeatable ? { type: [String] } : undefined,
      );
    }
    for (const example of spec.examples ?? []) command.example(example);
  }
  cli.help((sections) => {
    const spec = COMMANDS.find((candidate) => candidate.name === cli.matchedCommand?.name);
    // The parser gives a --no-x switch the default true, which reads as if it were on.
    for (const section of sections) {
      section.body = section.body.replace(/^(\s+--no-\S+.*?) \(default: true\)$/gm, '$1');
      if (section.title === 'Examples') section.body = section.body.replace(/^/gm, '  ');
    }
    if (!spec || spec.args?.includes('event') || spec.flags.some((flag) => flag === 'event' || flag === 'events')) {
      sections.push({ title: 'Events', body: wrap(EVENT_NAMES.join(', '), 100, '  ') });
    }
    const exits = Object.entries(spec?.exits ?? EXIT_CODES).map(([code, meaning]) => `  ${code}  ${meaning}`);
    sections.push({ title: 'Exit codes', body: exits.join('\n') });
  });
  // Taken out of the command line before the parser sees it (colourChoice); declared for the help only.
  cli.option('--color', 'Colour even when not on a terminal; --color=auto|always|never');
  cli.option('--no-color', 'No colour (also NO_COLOR=1)');
  cli.version(VERSION);
  return cli;
}

/**
 * The command's `--option`s as typed: an option it does not take (with the nearest one it does) or one that
 * needs a value and has none is a problem (the parser would read `--settings` alone as the file `true`); each
 * value is kept as text (the parser reads `--project-dir 0123` as the number 123), the last one for a
 * single-value option given twice, as in most command lines.
 */
function longOptions(
  argv: readonly string[],
  spec: CommandSpec,
): { problem: { message: string; fix: string } } | { values: Flags } {
  const help = `see peri-hooks ${spec.name} --help`;
  const values: Flags = {};
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') break;
    if (!arg.startsWith('--')) continue;
    const [name, inline] = splitOnce(arg.slice(2), '=');
    if (name === 'help' || name === 'version') continue;
    if (!(spec.flags as readonly string[]).includes(name)) {
      const near = closest(name, spec.flags);
      return {
        problem: {
          message: `unknown option --${name} for peri-hooks ${spec.name}`,
          fix: near ? `did you mean --${near}? (${help})` : help,
        },
      };
    }
    const flag: FlagSpec = FLAGS[name as FlagName];
    if (!flag.value?.startsWith('<')) continue;
    let value = inline;
    if (value === undefined) {
      const next = argv[index + 1];
      if (next === undefined || next.startsWith('-')) {
        return {
          problem: {
            message: `--${name} needs a value: --${name} ${flag.value}`,
            fix: `give it one (--${name}=<value> for a value that starts with -)`,
          },
        };
      }
      value = next;
      index++;
    }
    const key = camelCase(name);
    values[key] = flag.repeatable ? [...((values[key] as string[] | undefined) ?? []), value] : value;
  }
  return { values };
}

/** `--color`, `--color=always|never|auto` and `--no-color`, for every command; the last one wins. */
function colourChoice(
  argv: readonly string[],
): { rest: string[]; choice: ColourChoice } | { problem: { message: string; fix: string } } {
  const end = argv.indexOf('--');
  const rest: string[] = [];
  let choice: ColourChoice;
  for (const [index, arg] of argv.entries()) {
    const [name, when] = splitOnce(arg, '=');
    if ((end >= 0 && index > end) || (name !== '--color' && name !== '--no-color')) {
      rest.push(arg);
      continue;
    }
    if (name === '--no-color' || when === 'never') choice = 'never';
    else if (when === undefined || when === 'always') choice = 'always';
    else if (when === 'auto') choice = undefined;
    else
      return {
        problem: {
          message: `--color=${when} is not a colour choice`,
          fix: 'use --color (always), --color=auto, --color=never or --no-color',
        },
      };
  }
  return { rest, choice };
}

/** The colour choice as the flag `color`, in place of the parser's own reading of the help-only options. */
function withColour(flags: Flags, choice: ColourChoice): Flags {
  delete flags.color;
  return choice ? { ...flags, color: choice } : flags;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

const camelCase = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The main help's exit codes: those of fire, which the other commands share but for 2. */
const EXIT_CODES = {
  0: 'go on (nothing blocked)',
  1: 'peri-hooks could not run: bad usage, bad input; for the other commands, see their --help',
  2: 'fire: the reduced decision blocks (or --fail-closed turned a failure into a block)',
};

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
