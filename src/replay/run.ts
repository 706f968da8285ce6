// Replay recorded tool calls against the current hook settings: fire PreToolUse for every call (and
// PostToolUse / PostToolUseFailure for every call with a result, with `post`), or only plan them (`dryRun`).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { actualOf } from '../cases/expect.ts';
import { runPool } from '../cases/pool.ts';
import { type LoadedSettings, loadSettings } from '../config/index.ts';
import { type SourceOptions, sourcesToLoad } from '../config/sources.ts';
import { formatError, PeriHooksError } from '../errors.ts';
import { EVENTS, type EventName } from '../events.ts';
import { fire } from '../fire.ts';
import { labelOf } from '../hook-label.ts';
import { parseInput } from '../input/parse.ts';
import { plan, type SkipReason } from '../plan.ts';
import type { FireReport } from '../report/types.ts';
import type { Diagnostic } from '../types.ts';
import { postInput, preToolUseInput } from './rebuild.ts';
import { type Malformed, parseTranscript, type ToolCall } from './transcript.ts';

export const VERDICTS = [
  'allowed',
  'denied',
  'asked',
  'deferred',
  'rewritten',
  'blocked',
  'no decision',
  'error',
] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface Firing {
  event: EventName;
  verdict: Verdict;
  reason?: string;
  updatedInput?: Record<string, unknown>;
  hooks: Array<{
    hook: string;
    status: 'ran' | 'skipped';
    exitCode?: number | null;
    timedOut?: boolean;
    skipReason?: string;
  }>;
  hookErrors: string[];
  error?: string;
}

export interface Planned {
  event: EventName;
  run: string[];
  skipped: Array<{ hook: string; reason: SkipReason; detail: string }>;
  error?: string;
}

export interface ReplayedCall {
  transcript: string;
  line: number;
  toolUseId: string;
  tool: string;
  input: Record<string, unknown>;
  timestamp?: string;
  pre: Firing | Planned;
  post?: Firing | Planned;
  /** Why there is no post firing although `post` was asked for. */
  postNote?: string;
}

export interface ReplayResult {
  dryRun: boolean;
  transcripts: string[];
  calls: ReplayedCall[];
  malformed: Malformed[];
  /** Settings and runtime warnings, each once. */
  warnings: string[];
}

export interface ReplayOptions {
  transcripts: readonly string[];
  post: boolean;
  dryRun: boolean;
  /** The settings to replay against; projectDir is always set (the transcript's cwd is not the project). */
  sources: SourceOptions & { projectDir: string };
  env: Record<string, string | undefined>;
  jobs: number;
  signal?: AbortSignal;
}

export function readTranscripts(files: readonly string[]): { calls: ToolCall[]; malformed: Malformed[] } {
  const calls: ToolCall[] = [];
  const malformed: Malformed[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new PeriHooksError(
        'usage',
        `cannot read the transcript ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        'pass Claude Code transcript files (~/.claude/projects/<project>/<session>.jsonl)',
      );
    }
    const parsed = parseTranscript(text, file);
    calls.push(...parsed.calls);
    malformed.push(...parsed.malformed);
  }
  return { calls, malformed };
}

export async function replay(
  options: ReplayOptions,
  read = readTranscripts(options.transcripts),
): Promise<ReplayResult> {
  const warnings = new Set<string>();
  // `once` hooks and loop guards must not touch the real session state: the replay gets its own state folder.
  const stateDir = mkdtempSync(path.join(tmpdir(), 'peri-hooks-replay-'));
  const env = { ...options.env, PERI_HOOKS_STATE_DIR: stateDir };
  const sources = { ...options.sources, env };
  let loaded: LoadedSettings | undefined;
  const loadOptions = sourcesToLoad(sources, options.sources.projectDir);
  if (options.dryRun) {
    loaded = await loadSettings(loadOptions);
    for (const diagnostic of loaded.diagnostics) warnings.add(warningText(diagnostic));
  }
  const one = async (event: EventName, input: Record<string, unknown>): Promise<Firing | Planned> => {
    if (loaded) return planned(event, input, loaded, loadOptions.home, env);
    try {
      const report = await fire(event, input, { ...sources, ...(options.signal ? { signal: options.signal } : {}) });
      for (const warning of report.warnings) warnings.add(warningText(warning));
      return firing(event, report);
    } catch (error) {
      return { event, verdict: 'error', hooks: [], hookErrors: [], error: errorText(error) };
    }
  };
  try {
    const calls = await runPool(read.calls, options.jobs, async (call): Promise<ReplayedCall> => {
      const base = {
        transcript: call.transcript,
        line: call.line,
        toolUseId: call.id,
        tool: call.name,
        input: call.input,
        ...(call.timestamp ? { timestamp: call.timestamp } : {}),
      };
      const pre = await one('PreToolUse', preToolUseInput(call));
      if (!options.post) return { ...base, pre };
      const after = postInput(call);
      if (!after) return { ...base, pre, postNote: 'no tool_result in the transcript' };
      return { ...base, pre, post: await one(after.event, after.input) };
    });
    return {
      dryRun: options.dryRun,
      transcripts: [...options.transcripts],
      calls,
      malformed: read.malformed,
      warnings: [...warnings],
    };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

function warningText(diagnostic: Diagnostic): string {
  return `${diagnostic.file ? `${diagnostic.file}: ` : ''}${diagnostic.message}`;
}

/** An error as one entry of the replay: formatError's text without the program name. */
function errorText(error: unknown): string {
  return formatError(error).replace(/^peri-hooks: /, '');
}

function firing(event: EventName, report: FireReport): Firing {
  const actual = actualOf(report);
  const verdict: Verdict =
    report.blocked || actual.decision === 'deny'
      ? EVENTS[event].family === 'permission'
        ? 'denied'
        : 'blocked'
      : actual.decision === 'ask'
        ? 'asked'
        : actual.decision === 'defer'
          ? 'deferred'
          : actual.updatedInput !== undefined
            ? 'rewritten'
            : actual.decision === 'allow'
              ? 'allowed'
              : 'no decision';
  return {
    event,
    verdict,
    ...(actual.reason !== undefined ? { reason: actual.reason } : {}),
    ...(actual.updatedInput !== undefined ? { updatedInput: actual.updatedInput } : {}),
    hooks: report.hooks.map((hook) => ({
      hook: hook.label,
      status: hook.status,
      ...(hook.status === 'ran'
        ? { exitCode: hook.exitCode ?? null, timedOut: hook.timedOut === true }
        : { skipReason: hook.skipReason ?? 'unknown' }),
    })),
    hookErrors: report.errors,
  };
}

function planned(
  event: EventName,
  input: Record<string, unknown>,
  loaded: LoadedSettings,
  home: string,
  env: Record<string, string | undefined>,
): Planned {
  try {
    const checked = parseInput(event, JSON.stringify(input), 'the transcript');
    const thePlan = plan(event, checked, loaded.hooks, { home, env });
    return {
      event,
      run: thePlan.run.map(({ hook }) => labelOf(hook)),
      skipped: thePlan.skipped.map(({ hook, reason, detail }) => ({ hook: labelOf(hook), reason, detail })),
    };
  } catch (error) {
    return { event, run: [], skipped: [], error: errorText(error) };
  }
}
