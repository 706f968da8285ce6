// The hook inputs Claude Code would have sent for one recorded tool call (spec §3, §4).
import path from 'node:path';
import { mcpServerOf } from '../match/aliases.ts';
import { resultText, type ToolCall } from './transcript.ts';

function common(call: ToolCall, event: string): Record<string, unknown> {
  const server = mcpServerOf(call.name);
  return {
    session_id: call.sessionId,
    transcript_path: path.resolve(call.transcript),
    cwd: call.cwd,
    ...(call.permissionMode !== undefined ? { permission_mode: call.permissionMode } : {}),
    ...(call.agentId !== undefined ? { agent_id: call.agentId } : {}),
    hook_event_name: event,
    tool_name: call.name,
    tool_input: call.input,
    tool_use_id: call.id,
    ...(server ? { mcp_server: { name: server } } : {}),
  };
}

export function preToolUseInput(call: ToolCall): Record<string, unknown> {
  return common(call, 'PreToolUse');
}

/** PostToolUse for a result, PostToolUseFailure for an error result; undefined when the call has no result. */
export function postInput(call: ToolCall): { event: 'PostToolUse' | 'PostToolUseFailure'; input: Record<string, unknown> } | undefined {
  const result = call.result;
  if (!result) return undefined;
  if (result.isError) return { event: 'PostToolUseFailure', input: { ...common(call, 'PostToolUseFailure'), error: resultText(result.content) } };
  return { event: 'PostToolUse', input: { ...common(call, 'PostToolUse'), tool_response: result.structured ?? resultText(result.content) } };
}
