// A case's hook input: sensible common fields (shaped like Claude Code 2.1.332's real payloads), the
// `tool` / `toolInput` / `toolResponse` shorthands, then the case's own `input` (a file or inline) on top.
// `${CLAUDE_PROJECT_DIR}` in any string of those stands for the case's project folder, because Claude Code
// sends absolute paths and a case file cannot know where it is checked out.
import { homedir } from 'node:os';
import path from 'node:path';
import { isToolEvent, type EventName } from '../events.ts';
import { mcpServerOf } from '../match/aliases.ts';
import { sha256Hex } from '../session/crypto.ts';

/** Events whose real payloads carry no permission_mode (spec §3). */
const WITHOUT_PERMISSION_MODE: ReadonlySet<EventName> = new Set([
  'SessionStart', 'Setup', 'SessionEnd', 'Notification', 'SubagentStart', 'PreCompact', 'PostCompact', 'ConfigChange',
  'CwdChanged', 'FileChanged', 'InstructionsLoaded', 'MessageDisplay', 'WorktreeCreate', 'WorktreeRemove',
  'DirectoryAdded', 'StopFailure', 'PreModelSwitch', 'PostModelSwitch',
]);

export interface ExpandSource {
  event: EventName;
  /** Seeds the session and tool-use ids, so that a case sends the same input on every run. */
  key: string;
  projectDir: string;
  home?: string;
  tool?: string;
  toolInput?: Record<string, unknown>;
  toolResponse?: unknown;
  input?: Record<string, unknown>;
}

export function expandInput(source: ExpandSource): Record<string, unknown> {
  const { event, projectDir } = source;
  const digest = sha256Hex(source.key);
  const sessionId = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-4${digest.slice(13, 16)}-8${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
  const home = source.home ?? homedir();
  const input: Record<string, unknown> = {
    session_id: sessionId,
    // Where Claude Code keeps the transcript of a session in this project (the file need not exist).
    transcript_path: path.join(home, '.claude', 'projects', projectDir.replace(/[^a-zA-Z0-9]/g, '-'), `${sessionId}.jsonl`),
    cwd: projectDir,
    ...(WITHOUT_PERMISSION_MODE.has(event) ? {} : { permission_mode: 'default' }),
    hook_event_name: event,
  };
  if (isToolEvent(event) && source.tool !== undefined) {
    input.tool_name = source.tool;
    input.tool_input = withProjectDir(source.toolInput ?? {}, projectDir);
    if (event !== 'PermissionRequest') input.tool_use_id = `toolu_${digest.slice(32, 56)}`;
    const server = mcpServerOf(source.tool);
    if (server) input.mcp_server = { name: server };
  }
  if (event === 'PostToolUse') input.tool_response = withProjectDir(source.toolResponse ?? {}, projectDir);
  if (event === 'PostToolUseFailure') input.error = typeof source.toolResponse === 'string' ? source.toolResponse : 'Error';
  if (event === 'PermissionDenied') input.reason = 'Blocked by classifier';
  if (event === 'PreSkillShellCommand') Object.assign(input, { command_name: 'skill', command_source: 'projectSettings', invoked_by: 'user' });
  if (event === 'Stop' || event === 'SubagentStop') input.stop_hook_active = false;
  return { ...input, ...withProjectDir(source.input ?? {}, projectDir) };
}

function withProjectDir<T>(value: T, projectDir: string): T {
  if (typeof value === 'string') return value.replaceAll('${CLAUDE_PROJECT_DIR}', projectDir) as T;
  if (Array.isArray(value)) return value.map((item) => withProjectDir(item, projectDir)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withProjectDir(item, projectDir)])) as T;
  }
  return value;
}
