// `peri-hooks replay <transcript.jsonl>...`: what would the current hook settings decide for every tool call
// of recorded Claude Code sessions? Runs the hooks for real (and says so first) unless --dry-run.
import path from 'node:path';
import { EXIT, PeriHooksError } from '../../errors.ts';
import { renderReplayHuman, renderReplayJson } from '../../replay/report.ts';
import { readTranscripts, replay } from '../../replay/run.ts';
import { terminalWidth } from '../../text.ts';
import {
  type ColourChoice,
  interruptible,
  oneOf,
  parseJobs,
  type SourceFlags,
  sourceOptions,
  useColour,
  write,
} from '../io.ts';

export interface ReplayFlags extends SourceFlags {
  color?: ColourChoice;
  post?: boolean;
  dryRun?: boolean;
  output?: string;
  jobs?: unknown;
}

export async function replayCommand(transcripts: readonly string[], flags: ReplayFlags): Promise<number> {
  const output = oneOf('--output', flags.output, ['table', 'json'], 'table');
  if (transcripts.length === 0)
    throw new PeriHooksError(
      'usage',
      'no transcript given',
      'peri-hooks replay ~/.claude/projects/<project>/<session>.jsonl',
    );
  const jobs = parseJobs(flags.jobs, 'default 1: hooks run one call at a time, in transcript order') ?? 1;
  const cwd = process.cwd();
  // Today's settings are those of the current project, not of the folder the session ran in.
  const projectDir = path.resolve(cwd, flags.projectDir ?? process.env.CLAUDE_PROJECT_DIR ?? '.');
  const sources = { ...sourceOptions(flags), projectDir };
  const read = readTranscripts(transcripts);
  const notes = read.malformed
    .map((entry) => `peri-hooks: warning: ${entry.transcript}:${entry.line}: ${entry.message}; line skipped\n`)
    .join('');
  const calls = read.calls.length;
  const pending = flags.post ? read.calls.filter((call) => call.result).length : 0;
  const firings = `${calls} PreToolUse${flags.post ? ` and ${pending} PostToolUse/PostToolUseFailure` : ''} ${calls + pending === 1 ? 'firing' : 'firings'}`;
  await write(
    process.stderr,
    notes +
      (flags.dryRun
        ? `peri-hooks: dry run: planning ${firings} against the hooks of ${projectDir}; no hook runs\n`
        : `peri-hooks: replay runs the hooks for real: ${firings} against the hooks of ${projectDir}, with their side effects (use --dry-run to only plan)\n`),
  );

  const { value: result, aborted } = await interruptible((signal) =>
    replay(
      {
        transcripts,
        post: flags.post === true,
        dryRun: flags.dryRun === true,
        sources,
        env: process.env,
        jobs,
        signal,
      },
      read,
    ),
  );
  if (aborted) return EXIT.runnerError;
  await write(
    process.stdout,
    output === 'json'
      ? renderReplayJson(result)
      : renderReplayHuman(result, cwd, useColour(process.stdout, flags.color), terminalWidth(process.stdout)),
  );
  await write(process.stderr, result.warnings.map((warning) => `peri-hooks: warning: ${warning}\n`).join(''));
  return EXIT.ok;
}
