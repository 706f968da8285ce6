// Shapes shared by every stage of the pipeline. Stages import types from here, never from each other.

import type { Readable } from 'node:stream';
import type { DefinedServer, ServerCatalogue } from './config/mcp/servers.ts';
import type { HookHandler } from './config/schema.ts';
import type { EventName } from './events.ts';

export type HookType = 'command' | 'http' | 'mcp_tool' | 'prompt' | 'agent';

/** Where a settings file sits in Claude Code's layering. */
export type Layer = 'managed' | 'user' | 'project' | 'local' | 'flag' | 'plugin';

export interface Provenance {
  layer: Layer;
  /** Absolute path of the file, or `--settings` for inline JSON. */
  file: string;
  /** JSON pointer of the handler inside that file, e.g. `/hooks/PreToolUse/0/hooks/1`. */
  pointer: string;
  /** Plugin hooks only: the plugin root (CLAUDE_PLUGIN_ROOT) and its name. */
  pluginRoot?: string;
  pluginName?: string;
  /** A hook of a policy file that peri-hooks' own registration runs: that registration, `<file>#<pointer>`. */
  via?: string;
}

/** A handler as loaded from settings: what to run, for which event and matcher, and where it came from. */
export interface LoadedHook {
  /** Stable, human-readable id: `<layer>:<file>#<pointer>`. */
  id: string;
  event: EventName;
  /** The matcher of the group the handler sits in (undefined when absent). */
  matcher?: string;
  handler: HookHandler;
  provenance: Provenance;
  /** Set by the loader when a policy switch turns the hook off (disableAllHooks, allowManagedHooksOnly). */
  disabledReason?: string;
  /** Index of the matcher group in its event's array; with the file, it names the group. */
  groupIndex?: number;
  /** The group has `"sequential": true` (a peri-hooks extension): its hooks run in order. */
  sequential?: boolean;
  /** Set by the trust stage: a project or local hook whose content is not approved, and why; the plan skips it. */
  untrusted?: string;
  /** Set by the trust stage: what a command hook runs instead of its own words, private copies of its approved files. */
  pinned?: { command: string; args?: string[] };
}

/** How bad a diagnostic is; the report schema's `severity` is this list. */
export const SEVERITIES = ['error', 'warning', 'note'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** A located message about the user's configuration or input. */
export interface Diagnostic {
  severity: Severity;
  /** Stable machine code, e.g. `timeout-in-ms`, `invalid-json`. */
  code: string;
  message: string;
  file?: string;
  pointer?: string;
  line?: number;
  column?: number;
  /** What the user should do about it. */
  fix?: string;
}

/** The same raw shape from every runner: processes, HTTP responses and model answers alike. */
export interface RawOutcome {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the hook could not run or failed outside its own exit code (spawn error, HTTP 500, bad model answer). */
  error?: string;
  durationMs: number;
  /** What a block under `onFailure` says for the failure, when not `error` (an MCP tool's own words are left out, §20.4). */
  failureDetail?: string;
  /** Set when a stream was cut at the capture bound. */
  truncated?: { stdout?: boolean; stderr?: boolean };
  /** The hook printed `{"async": true}` first and was handed to a background supervisor (§6.2). */
  background?: { asyncTimeoutMs: number };
}

/** A running command hook that printed `{"async": true}` first: its process and the pipes still open to it. */
export interface BackgroundHandoff {
  /** Its pid, which is also its process group. */
  pid: number;
  stdout: Readable;
  stderr: Readable;
  /** What it printed before the hand-off. */
  stdoutSoFar: string;
  stderrSoFar: string;
  asyncTimeoutMs: number;
}

/** Settings values other than `hooks` that the pipeline honours, after precedence. */
export interface EffectiveSettings {
  disableAllHooks: boolean;
  allowManagedHooksOnly: boolean;
  /** `peri_hooks_require_trust: true` in managed, user or --settings files: project and local hooks need approval. */
  requireTrust?: { file: string };
  /** The lists of all files, merged; undefined (no file sets it): every URL allowed; []: every http hook refused. */
  allowedHttpHookUrls?: string[];
  /** The lists of all files, merged; undefined when no file sets it. */
  httpHookAllowedEnvVars?: string[];
  /** What applies to managed http hooks: the merged list where managed settings set one, else none (undefined). */
  managedAllowedHttpHookUrls?: string[];
  managedHttpHookAllowedEnvVars?: string[];
}

/** Everything a runner may need for one hook. Runners read no settings files and never throw. */
export interface RunContext {
  event: EventName;
  input: Record<string, unknown>;
  /** The input serialised once, as every hook receives it. */
  inputJson: string;
  projectDir: string;
  /** Working directory for the hook (the input's cwd, after fallbacks). */
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  settings: EffectiveSettings;
  /** Aborted when peri-hooks itself is interrupted. */
  signal: AbortSignal;
  warn: (message: string) => void;
  /**
   * Takes over a hook that moved itself to the background; synchronous, so that no output is lost between
   * the two readers. Returns false when it could not (the hook then runs on in the firing).
   */
  moveToBackground?: (handoff: BackgroundHandoff) => boolean;
  /** The MCP servers and connections of mcp_tool hooks; set when the plan has one. */
  mcp?: McpContext;
}

/** What mcp_tool hooks call through: the configured servers (looked up once) and the connections to them. */
export interface McpContext {
  servers: () => Promise<ServerCatalogue>;
  pool: ConnectionPool;
}

export type Runner = (hook: LoadedHook, ctx: RunContext) => Promise<RawOutcome>;

/** One call of an mcp_tool hook's tool (mcp/pool.ts keeps the connections). */
export interface McpCallOptions {
  timeoutMs: number;
  /** Aborted when peri-hooks itself is interrupted. */
  signal: AbortSignal;
  projectDir: string;
  env: Record<string, string | undefined>;
  /** allowedHttpHookUrls that apply to the hook; undefined allows every URL. */
  urlPatterns: string[] | undefined;
}

export type McpCallResult =
  | { kind: 'result'; content: unknown[]; isError: boolean }
  /** The server was not reached (failed to start, refused, needs OAuth, URL not allowed). */
  | { kind: 'not-connected'; why: string }
  /** The server answered with a JSON-RPC error (an unknown tool), or the connection broke during the call. */
  | { kind: 'error'; message: string }
  | { kind: 'timeout' }
  | { kind: 'interrupted' };

export interface ConnectionPool {
  call(
    server: DefinedServer,
    tool: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<McpCallResult>;
  /** Closes every connection (stdio servers are killed with their children). */
  close(): Promise<void>;
}
