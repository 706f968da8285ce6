// Synthetic hook inputs, for explain, test and replay: zod-free, so that a test worker that builds one input per
// case never loads zod.
import { EVENTS, type EventName, isToolEvent } from '../events.ts';
import { mcpServerOf } from '../match/aliases.ts';

/** What a synthetic hook input is built from: explain, test cases and replay each know different parts. */
export interface InputSeed {
  event: EventName;
  sessionId: string;
  transcriptPath: string;
  cwd: string;
  /** Left out on events whose payloads carry none. */
  permissionMode?: string;
  agentId?: string;
  /** The tool call, on tool events. */
  tool?: { name: string; input: Record<string, unknown>; useId: string };
  /** The tool's result (PostToolUse; `{}` when absent) or its error text (PostToolUseFailure; "Error" when not a string). */
  toolResponse?: unknown;
}

/** The one builder of synthetic hook inputs, shaped like Claude Code 2.1.332's payloads (spec §3, §4). */
export function buildInput(seed: InputSeed): Record<string, unknown> {
  const def = EVENTS[seed.event];
  const input: Record<string, unknown> = {
    session_id: seed.sessionId,
    transcript_path: seed.transcriptPath,
    cwd: seed.cwd,
    ...(def.hasPermissionMode && seed.permissionMode !== undefined ? { permission_mode: seed.permissionMode } : {}),
    ...(seed.agentId !== undefined ? { agent_id: seed.agentId } : {}),
    hook_event_name: seed.event,
  };
  if (seed.tool && isToolEvent(seed.event)) {
    input.tool_name = seed.tool.name;
    input.tool_input = seed.tool.input;
    if (!def.withoutToolUseId) input.tool_use_id = seed.tool.useId;
    const server = mcpServerOf(seed.tool.name);
    if (server) input.mcp_server = { name: server };
  }
  if (def.toolResponseField === 'tool_response' && seed.toolResponse !== undefined)
    input.tool_response = seed.toolResponse;
  if (def.toolResponseField === 'error' && typeof seed.toolResponse === 'string') input.error = seed.toolResponse;
  return fillRequired(seed.event, input);
}

/**
 * The fields Claude Code always sends for `event` (the catalogue's requiredFields, the tool's response or error),
 * filled in `input` where it has none: text where text belongs (any other value as its JSON), a flag that is
 * not `true` as the default. The one filler, for synthetic inputs and for host payloads alike.
 */
export function fillRequired(event: EventName, input: Record<string, unknown>): Record<string, unknown> {
  const def = EVENTS[event];
  const text = (name: string, fallback: string) => {
    if (typeof input[name] !== 'string')
      input[name] = input[name] === undefined ? fallback : JSON.stringify(input[name]);
  };
  if (def.toolResponseField === 'tool_response' && input.tool_response === undefined) input.tool_response = {};
  if (def.toolResponseField === 'error') text('error', 'Error');
  for (const [name, fallback] of Object.entries(def.requiredFields ?? {})) {
    if (typeof fallback === 'string') text(name, fallback);
    else if (typeof input[name] !== 'boolean') input[name] = fallback;
  }
  return input;
}
