// The command line: parse (parse.ts, from the data in options.ts), then the command's action, each loaded when
// it runs so that a firing never loads the other commands' code.

import { EXIT, formatError } from '../errors.ts';
import { canBlock } from '../events.ts';
import { failed, runAction } from './action.ts';
import type { CommandName } from './options.ts';
import { type Flags, parseArgs, printHelpOrVersion } from './parse.ts';

// A CLI process parses each schema a handful of times: zod's eval-compiled fast path costs more to build than it saves.
// Set in the global that zod reads its configuration from, so that a firing which never needs zod does not load it.
((globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig ??= {}).jitless = true;

/** Runs the command line and sets the exit code; what the entry points (bin.ts, sea.ts) call. */
export function run(argv: readonly string[]): void {
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`peri-hooks: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

/**
 * An exception that escapes every handler (thrown from an event callback, a rejection nobody awaits) is a bug,
 * but must not cost the guard: a command ends with the message, and blocks under --fail-closed; `serve` logs it
 * and keeps answering, since dying would fail every later firing open.
 */
function lastResort(command: CommandName, failClosed: boolean): void {
  const handler = (error: unknown) => {
    if (command === 'serve') {
      process.stderr.write(
        `peri-hooks serve: internal error outside any request, still serving: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return;
    }
    process.stderr.write(
      `${formatError(error)}\n${failClosed ? 'peri-hooks: blocking because of --fail-closed\n' : ''}`,
    );
    process.exit(failClosed ? EXIT.block : EXIT.runnerError);
  };
  process.on('uncaughtException', handler);
  process.on('unhandledRejection', handler);
}

/** Each command's action; cac has checked the required arguments, so they are there. */
const ACTIONS: Record<CommandName, (args: string[], flags: Flags) => Promise<number>> = {
  fire: async ([event], flags) => (await import('./commands/fire.ts')).fireCommand(event!, flags),
  state: async ([sessionId], flags) => (await import('./commands/state.ts')).stateCommand(sessionId!, flags),
  validate: async (_, flags) => (await import('./commands/validate.ts')).validateCommand(flags),
  explain: async ([event], flags) => (await import('./commands/explain.ts')).explainCommand(event!, flags),
  list: async (_, flags) => (await import('./commands/list.ts')).listCommand(flags),
  schema: async ([kind], flags) => (await import('./commands/schema.ts')).schemaCommand(kind, flags),
  test: async (paths, flags) => (await import('./commands/test.ts')).testCommand(paths, flags),
  record: async (_, flags) => (await import('./commands/record.ts')).recordCommand(flags),
  replay: async (transcripts, flags) => (await import('./commands/replay.ts')).replayCommand(transcripts, flags),
  install: async (_, flags) => (await import('./commands/install.ts')).installCommand(flags),
  init: async (_, flags) => (await import('./commands/init.ts')).initCommand(flags),
  uninstall: async (_, flags) => (await import('./commands/uninstall.ts')).uninstallCommand(flags),
  doctor: async (_, flags) => (await import('./commands/doctor.ts')).doctorCommand(flags),
  completion: async ([shell]) => (await import('./commands/completion.ts')).completionCommand(shell!),
  serve: async (_, flags) => (await import('./commands/serve.ts')).serveCommand(flags),
  mcp: async (_, flags) => (await import('./commands/mcp.ts')).mcpCommand(flags),
  trust: async (_, flags) => (await import('./commands/trust.ts')).trustCommand(flags),
  audit: async ([action, file], flags) => (await import('./commands/audit.ts')).auditCommand(action!, file, flags),
};

/** `--output json` or `--reporter json` anywhere on the command line (read from the words: a usage error has no flags). */
function jsonMode(argv: readonly string[]): boolean {
  return argv.some(
    (arg, index) =>
      arg === '--output=json' ||
      arg === '--reporter=json' ||
      (arg === 'json' && ['--output', '--reporter'].includes(argv[index - 1] ?? '')),
  );
}

export async function main(argv: readonly string[]): Promise<number> {
  // The detached supervisor of an async hook: internal, so not a command of options.ts and not in the help.
  if (argv[0] === '__async-run') return (await import('../run/supervisor.ts')).superviseJob(argv[1] ?? '');
  // A worker process of `test` (cases/workers.ts starts it), likewise internal.
  if (argv[0] === '__case-worker') return (await import('../cases/worker.ts')).caseWorker(argv[1] ?? '');
  const parsed = parseArgs(argv);
  switch (parsed.kind) {
    case 'help':
    case 'version':
      printHelpOrVersion(argv);
      return EXIT.ok;
    case 'usage-error':
      return failed(parsed.error, { failClosed: false, json: jsonMode(argv) });
    case 'command': {
      const { command, args, flags } = parsed;
      // Only a firing of an event that can block blocks for a failure: elsewhere exit 2 would mean nothing.
      const failClosed = flags.failClosed === true && command === 'fire' && canBlock(args[0]!);
      lastResort(command, failClosed);
      return runAction(() => ACTIONS[command](args, flags), { failClosed, json: jsonMode(argv) });
    }
  }
}
