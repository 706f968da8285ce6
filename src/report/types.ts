// The shape of one firing's report, which every output form renders and the test runner checks.
import type { ProjectDirFrom } from '../config/sources.ts';
import type { EventName } from '../events.ts';
import type { HookResult } from '../outcome.ts';
import type { AsyncResult } from '../session/schema.ts';
import type { StopGuard } from '../session/stop-guard.ts';
import type { Diagnostic, HookType, RawOutcome } from '../types.ts';

export interface HookReport {
  id: string;
  type: HookType;
  matcher?: string;
  layer: string;
  file: string;
  pointer: string;
  plugin?: string;
  /** Came through peri-hooks' own registration: that registration, `<file>#<pointer>`. */
  via?: string;
  /** The command, URL or prompt, for people. */
  label: string;
  status: 'ran' | 'skipped';
  /** Also `short-circuit` (a sequential group stopped) and `background` (an async hook handed to a supervisor). */
  skipReason?: string;
  skipDetail?: string;
  outcome?: HookResult['outcome'];
  blockedBy?: HookResult['blockedBy'];
  exitCode?: number | null;
  timedOut?: boolean;
  durationMs?: number;
  stdout?: string;
  stderr?: string;
  error?: string;
  truncated?: RawOutcome['truncated'];
  /** For `--output claude`: whether this hook answered in JSON. */
  answeredInJson?: boolean;
  /** For `--output claude`: its block message, its JSON additionalContext, its plain stdout (trimmed, on exit 0). */
  blockingMessage?: string;
  additionalContext?: string;
  plainText?: string;
  /** Background hooks: the job whose result a later firing of the session delivers. */
  asyncJob?: string;
}

export interface FireReport {
  event: EventName;
  matcherValue?: string;
  projectDir: string;
  /** Which rule chose projectDir (see PROJECT_DIR_RULES). */
  projectDirFrom?: ProjectDirFrom;
  /** Set when no source has any hook for the event: nothing is enforced, and these are the places searched. */
  noHooksFound?: { searched: string[] };
  /** The reduced decision as one Claude Code hook output object; absent when there is nothing to say. */
  output?: Record<string, unknown>;
  /** Plain text the event reads (worktree path, compaction instructions), when there is no JSON to say. */
  plainText?: string;
  blocked: boolean;
  /** The block message. */
  reason?: string;
  exitCode: 0 | 2;
  /** Set when --fail-closed turned a failure into the block. */
  failClosed?: boolean;
  /** Configured hooks of this event, in configuration order, ran or skipped. */
  hooks: HookReport[];
  /** Ids of the hooks whose answers decided the block or the decision. */
  deciders: string[];
  /** Non-blocking hook errors, as Claude Code reports them. */
  errors: string[];
  warnings: Diagnostic[];
  /** Stop and SubagentStop: the consecutive-block count and whether the cap overrode this block. */
  stopGuard?: StopGuard;
  /** Results of earlier async hooks of the session that this firing delivered in its output. */
  delivered?: AsyncResult[];
}
