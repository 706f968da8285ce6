// The hook inputs Claude Code would have sent for one recorded tool call (spec §3, §4).
import path from 'node:path';
import { buildInput } from '../input/build.ts';
import { resultText, type ToolCall } from './transcript.ts';

function rebuilt(
  call: ToolCall,
  event: 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure',
  toolResponse?: unknown,
): Record<string, unknown> {
  return buildInput({
    event,
    sessionId: call.sessionId,
    transcriptPath: path.resolve(call.transcript),
    cwd: call.cwd,
    ...(call.permissionMode !== undefined ? { permissionMode: call.permissionMode } : {}),
    ...(call.agentId !== undefined ? { agentId: call.agentId } : {}),
    tool: { name: call.name, input: call.input, useId: call.id },
    ...(toolResponse !== undefined ? { toolResponse } : {}),
  });
}

export function preToolUseInput(call: ToolCall): Record<string, unknown> {
  return rebuilt(call, 'PreToolUse');
}

/** PostToolUse for a result, PostToolUseFailure for an error result; undefined when the call has no result. */
export function postInput(
  call: ToolCall,
): { event: 'PostToolUse' | 'PostToolUseFailure'; input: Record<string, unknown> } | undefined {
  const result = call.result;
  if (!result) return undefined;
  if (result.isError)
    return { event: 'PostToolUseFailure', input: rebuilt(call, 'PostToolUseFailure', resultText(result.content)) };
  return { event: 'PostToolUse', input: rebuilt(call, 'PostToolUse', result.structured ?? resultText(result.content)) };
}
