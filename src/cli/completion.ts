// `peri-hooks completion bash|zsh|fish`: a completion script generated from the command-line data (options.ts),
// so that it knows every command, option, event name, host name and option value without calling peri-hooks back.
import { ALL_SOURCES } from '../config/discover.ts';
import { EVENT_NAMES } from '../events.ts';
import { HOST_NAMES } from '../hosts/types.ts';
import { SCOPES } from '../install/settings-file.ts';
import { ASYNC_KINDS } from '../plan.ts';
import {
  COMMANDS,
  type CommandName,
  type CommandSpec,
  FLAGS,
  type FlagName,
  type FlagSpec,
  SCHEMA_KINDS,
  SHELLS,
} from './options.ts';

export type Shell = (typeof SHELLS)[number];

/** What completes a value: fixed words, file names or folder names. */
type Values = { words: readonly string[] } | { files: true } | { dirs: true } | undefined;

const SETTING_SOURCES = [...ALL_SOURCES, 'none'];

/** The values of `--name` in `command`: named lists first, then the choices its help lists, then files or folders by placeholder. */
export function flagValues(name: FlagName, command: CommandName): Values {
  const flag: FlagSpec = FLAGS[name];
  if (!flag.value) return undefined;
  const named: Partial<Record<FlagName, readonly string[]>> = {
    event: EVENT_NAMES,
    events: EVENT_NAMES,
    scope: SCOPES,
    'only-async': ASYNC_KINDS,
    'setting-sources': SETTING_SOURCES,
    host: HOST_NAMES,
  };
  if (named[name]) return { words: named[name]! };
  const choices = choicesIn(flag.variants?.[command]?.description ?? flag.description);
  if (choices) return { words: choices };
  if (flag.value.includes('dir')) return { dirs: true };
  if (flag.value.includes('file')) return { files: true };
  return undefined;
}

/** `decision (default) | claude | json` and `default | tap (console), junit (file)` list choices; other help text does not. */
function choicesIn(description: string): string[] | undefined {
  const words = description
    .replace(/\([^)]*\)/g, '')
    .split(/[|,]/)
    .map((word) => word.trim());
  return words.length > 1 && words.every((word) => /^[a-z][a-z0-9-]*$/.test(word)) ? words : undefined;
}

/** What completes the positional arguments of a command. */
function positionalValues(spec: CommandSpec): Values {
  if (spec.args?.includes('event')) return { words: EVENT_NAMES };
  if (spec.name === 'schema') return { words: SCHEMA_KINDS };
  if (spec.name === 'completion') return { words: SHELLS };
  if (spec.name === 'test' || spec.name === 'replay') return { files: true };
  return undefined;
}

const longOptions = (spec: CommandSpec) => [
  ...spec.flags.map((name) => `--${name}`),
  '--help',
  '--color',
  '--no-color',
];

export function completionScript(shell: Shell): string {
  return shell === 'bash' ? bash() : shell === 'zsh' ? zsh() : fish();
}

const words = (list: readonly string[]) => list.join(' ');

function bashValues(values: Values): string {
  if (values === undefined) return 'COMPREPLY=()';
  if ('files' in values) return 'COMPREPLY=($(compgen -f -- "$cur"))';
  if ('dirs' in values) return 'COMPREPLY=($(compgen -d -- "$cur"))';
  return `COMPREPLY=($(compgen -W "${words(values.words)}" -- "$cur"))`;
}

function bash(): string {
  const commands = COMMANDS.map((spec) => {
    const valueCases = spec.flags
      .filter((name) => (FLAGS[name] as FlagSpec).value)
      .map((name) => `        --${name}) ${bashValues(flagValues(name, spec.name))}; return ;;`);
    return [
      `    ${spec.name})`,
      '      case "$prev" in',
      ...valueCases,
      '      esac',
      `      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "${words(longOptions(spec))}" -- "$cur")); return; fi`,
      `      ${bashValues(positionalValues(spec))}`,
      '      ;;',
    ].join('\n');
  });
  return `# peri-hooks completion for bash: source <(peri-hooks completion bash)
_peri_hooks() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "${words(COMMANDS.map((spec) => spec.name))} --help --version" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${commands.join('\n')}
  esac
}
complete -o default -F _peri_hooks peri-hooks
`;
}

function zshValues(values: Values): string {
  if (values === undefined) return '';
  if ('files' in values) return '_files';
  if ('dirs' in values) return '_files -/';
  return `(${words(values.words)})`;
}

const zshQuote = (text: string) => `'${text.replace(/'/g, `'\\''`).replace(/[[\]:]/g, '\\$&')}'`;

function zsh(): string {
  const commands = COMMANDS.map((spec) => {
    const options = spec.flags.map((name) => {
      const flag: FlagSpec = FLAGS[name];
      const help = zshQuote(flag.variants?.[spec.name]?.description ?? flag.description).slice(1, -1);
      const value = flag.value
        ? `:${flag.value.replace(/[<>[\]]/g, '')}:${zshValues(flagValues(name, spec.name))}`
        : '';
      return `        '${'repeatable' in flag ? '*' : ''}--${name}[${help}]${value}'`;
    });
    const positional = positionalValues(spec);
    const args = positional
      ? [
          `        '${spec.args?.includes('...') ? '*' : '1'}:${(spec.args ?? 'argument').replace(/[<>[\].]/g, '')}:${zshValues(positional)}'`,
        ]
      : [];
    return [
      `    ${spec.name})`,
      '      _arguments \\',
      ...[...options, ...args, "        '--help[show the help]'"].map((line) => `${line} \\`),
      "        '(--no-color)--color[colour even when not on a terminal]' '(--color)--no-color[no colour]'",
      '      ;;',
    ].join('\n');
  });
  return `#compdef peri-hooks
# peri-hooks completion for zsh: peri-hooks completion zsh > "\${fpath[1]}/_peri-hooks"
_peri_hooks() {
  if (( CURRENT == 2 )); then
    local -a commands=(
${COMMANDS.map((spec) => `      '${spec.name}:${zshQuote(spec.description).slice(1, -1)}'`).join('\n')}
    )
    _describe command commands
    return
  fi
  words=("\${words[@]:1}")
  (( CURRENT-- ))
  case "\${words[1]}" in
${commands.join('\n')}
  esac
}
compdef _peri_hooks peri-hooks
`;
}

const fishQuote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fishValues(values: Values): string {
  if (values === undefined) return ' -f';
  if ('files' in values) return ' -F';
  if ('dirs' in values) return " -f -a '(__fish_complete_directories)'";
  return ` -f -a ${fishQuote(words(values.words))}`;
}

function fish(): string {
  const lines = [
    '# peri-hooks completion for fish: peri-hooks completion fish > ~/.config/fish/completions/peri-hooks.fish',
    'complete -c peri-hooks -f',
  ];
  for (const spec of COMMANDS)
    lines.push(`complete -c peri-hooks -n __fish_use_subcommand -a ${spec.name} -d ${fishQuote(spec.description)}`);
  for (const spec of COMMANDS) {
    const when = `-n '__fish_seen_subcommand_from ${spec.name}'`;
    for (const name of spec.flags) {
      const flag: FlagSpec = FLAGS[name];
      const valueOptions = flag.value ? ` -r${fishValues(flagValues(name, spec.name))}` : '';
      lines.push(
        `complete -c peri-hooks ${when} -l ${name}${valueOptions} -d ${fishQuote(flag.variants?.[spec.name]?.description ?? flag.description)}`,
      );
    }
    const positional = positionalValues(spec);
    if (positional) lines.push(`complete -c peri-hooks ${when}${fishValues(positional)}`);
  }
  lines.push(
    "complete -c peri-hooks -l color -d 'Colour even when not on a terminal'",
    "complete -c peri-hooks -l no-color -d 'No colour'",
    "complete -c peri-hooks -l help -d 'Show the help'",
  );
  return `${lines.join('\n')}\n`;
}
