// The shapes of a host adapter: what another agent's hook payload becomes, and how a decision goes back.
import type { EventName } from '../events.ts';

export const HOST_NAMES = [
  'codex',
  'cursor',
  'gemini',
  'antigravity',
  'copilot',
  'vscode',
  'windsurf',
  'kiro',
  'cline',
  'qwen',
  'factory',
  'opencode',
  'amp',
] as const;
export type HostName = (typeof HOST_NAMES)[number];

/**
 * The payload field that only this host sends: its presence picks the host when --host is not given. Kept out of
 * the hosts table (table.ts), which a Claude Code payload, carrying none of them, never needs to load.
 */
export const HOST_MARKERS: Readonly<Partial<Record<HostName, string>>> = {
  codex: 'turn_id',
  cursor: 'cursor_version',
  vscode: 'hookEventName',
  windsurf: 'trajectory_id',
  cline: 'clineVersion',
};

/** The channels a host reads from a hook's answer for one of its events. */
export interface Channels {
  /** It can refuse the action (deny a tool call, drop a prompt, keep the agent going at stop). */
  blocks?: true;
  /** It takes a rewritten tool input. */
  rewrites?: true;
  /** It gives the model extra context. */
  context?: true;
  /**
   * It can ask the user; without, an `ask` becomes a deny (the safe side). `interactive`: only where a person is
   * there to answer; the host module's cannotAsk says when not, and the ask is then a deny too.
   */
  asks?: true | 'interactive';
  /** It refuses the action when its own hook fails: a failing policy hook blocks there too, never weaker. */
  failsClosed?: true;
}

export interface HostEventDef extends Channels {
  /** The Claude Code event the policy sees. */
  event: EventName;
  /** The host event is about one kind of tool: the Claude Code tool it becomes. */
  tool?: string;
  /** The host event install registers for its Claude Code event (where several map to one, only one is registered). */
  install?: true;
  /** Other Claude Code events the host event also becomes, with what the host reads there (Gemini's AfterTool of a failed call is PostToolUseFailure). */
  also?: Readonly<Partial<Record<EventName, Channels>>>;
  /**
   * In a row whose claims the real agent shows, this event's are taken from the agent's documentation or source
   * instead (named), where no headless run fires it.
   */
  evidence?: { docs: string };
}

/** Every Claude Code event a host event can become: install registers it for any, and times it by the slowest. */
export function servedEvents(def: HostEventDef): EventName[] {
  return [def.event, ...(Object.keys(def.also ?? {}) as EventName[])];
}

/** How one host tool becomes a Claude Code tool: its name, and tool_input field renames (Claude Code name → host name). */
export interface ToolDef {
  tool: string;
  fields?: Readonly<Record<string, string>>;
  /** The host's line numbers of a file read where they are not Read's `offset` (1-based) and `limit` (how many). */
  lines?: LineRange;
  /**
   * The host's line range of a file read in one argument, `[first, last]` (Copilot CLI's view_range: 1-based, the
   * last included, -1 or none the end of the file), which is Read's `offset` and `limit`.
   */
  linePair?: string;
  /** The host takes a null argument as one not given (Qwen Code's read_file): Read's input goes without it. */
  nullIsAbsent?: true;
}

/**
 * The names of a host's first line to read and, where the host gives one instead of a count, its last (included);
 * `firstLine`, the number the host gives a file's first line, is 1 unless said (Qwen Code's offset counts from 0).
 */
export interface LineRange {
  start: string;
  end?: string;
  firstLine?: 0 | 1;
}

/** One Claude Code firing built from a host payload. */
export interface ClaudeCall {
  event: EventName;
  input: Record<string, unknown>;
}

/** The reduced decision of one or more firings, as every host renderer reads it. */
export interface Verdict {
  event: EventName;
  permission?: 'allow' | 'deny' | 'ask' | 'defer';
  /** The firing blocks (a deny, a `decision: block`, exit 2 where the event can block). */
  blocked: boolean;
  reason?: string;
  updatedInput?: Record<string, unknown>;
  context?: string;
  /** `continue: false`: stop the agent. */
  stop?: { reason?: string };
  systemMessage?: string;
  /** PermissionRequest's `decision`. */
  permissionRequest?: { behavior: 'allow' | 'deny'; message?: string; interrupt?: boolean; updatedInput?: unknown };
  /** Non-blocking hook errors. */
  errors: string[];
  failClosed: boolean;
}

/** What a host renderer hands back: the streams and the exit code, plus what the host could not take. */
export interface HostAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}
