// The command line: cac wiring only. Each command lives in commands/ and is loaded when it runs.
import { cac } from 'cac';
import { EVENT_NAMES } from '../events.ts';
import { EXIT, formatError } from '../errors.ts';
import { VERSION } from '../version.ts';

export async function main(argv: readonly string[]): Promise<number> {
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
    .example(`peri-hooks fire PreToolUse < input.json`)
    .example(`peri-hooks fire PreToolUse --output claude --settings policy.json --setting-sources ''`)
    .action((event: string, flags: Record<string, unknown>) => {
      pending = import('./commands/fire.ts').then(({ fireCommand }) => fireCommand(event, flags));
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

/** The option parser reads an empty value as 0; `--setting-sources ''` must mean "no sources". */
function emptySourcesAsNone(argv: readonly string[]): string[] {
  return argv.map((arg, index) => {
    if (arg === '--setting-sources=') return '--setting-sources=none';
    return arg === '' && argv[index - 1] === '--setting-sources' ? 'none' : arg;
  });
}

function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current && (current + word).length > width) {
      lines.push(current.trimEnd());
      current = '';
    }
    current += `${word} `;
  }
  if (current) lines.push(current.trimEnd());
  return lines.map((item) => indent + item).join('\n');
}
