// `peri-hooks record --into <case file>`: a Claude Code hook that appends its input to a case file. It prints
// nothing on stdout and always exits 0, so that it never changes what Claude Code does; problems go to stderr.
import path from 'node:path';
import { recordCase } from '../../cases/record.ts';
import { EXIT } from '../../errors.ts';
import { DEPTH_VARIABLE } from '../../fire.ts';
import { readStdin, write } from '../io.ts';

export async function recordCommand(flags: { into?: string }): Promise<number> {
  const message = await record(flags.into);
  if (message) await write(process.stderr, `peri-hooks record: ${message}\n`);
  return EXIT.ok;
}

async function record(into: string | undefined): Promise<string | undefined> {
  try {
    if (!into)
      return 'no --into <case file> given; nothing recorded. Fix: register the hook as peri-hooks record --into "$CLAUDE_PROJECT_DIR"/.claude/hooks-tests/recorded.json';
    const input = await readStdin();
    // Started by peri-hooks itself (a test run firing the project's hooks), it would record the suite's own cases.
    if (Number(process.env[DEPTH_VARIABLE] ?? 0) > 0) return undefined;
    const file = path.resolve(process.env.CLAUDE_PROJECT_DIR ?? process.cwd(), into);
    const outcome = await recordCase(file, input, process.env);
    return 'warning' in outcome ? outcome.warning : undefined;
  } catch (error) {
    return `nothing recorded: ${(error as Error).message}`;
  }
}
