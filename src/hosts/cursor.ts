// Cursor: its own event names and answer fields (`permission`, `user_message`, `agent_message`,
// `updated_input`, `followup_message`, `continue`), JSON on every path. The shell, MCP and file events carry
// their tool call in fields of their own, which become Claude Code tool calls here.
import { answer, type HostContext, type HostModule, type RenderContext, reasonOf } from './module.ts';
import { claudeInput, type HostToolCall, hostToolInput, toolInputObject } from './normalise.ts';
import type { ClaudeCall, HostAnswer } from './types.ts';

/** Cursor names MCP tools `MCP:<tool>` and does not say the server: the policy sees mcp__cursor__<tool>. */
const MCP_SERVER = 'cursor';

export const cursor: HostModule = {
  calls({ host, hostEvent, def, payload }: HostContext): ClaudeCall[] {
    const call = (tool?: HostToolCall, extra: Record<string, unknown> = {}) => ({
      event: def.event,
      input: { ...claudeInput(host, hostEvent, def, payload, tool), ...extra },
    });
    switch (hostEvent) {
      case 'beforeShellExecution':
      case 'afterShellExecution':
        return [
          call(
            { name: 'Bash', input: { command: payload.command }, hostName: 'Shell', from: '$.command' },
            hostEvent === 'afterShellExecution'
              ? { tool_response: { stdout: payload.output ?? '', duration_ms: payload.duration } }
              : {},
          ),
        ];
      case 'beforeMCPExecution':
      case 'afterMCPExecution':
        return [
          call(
            {
              name: `mcp__${MCP_SERVER}__${String(payload.tool_name ?? '')}`,
              input: toolInputObject(host, hostEvent, payload.tool_input, '$.tool_input'),
              hostName: String(payload.tool_name ?? ''),
            },
            hostEvent === 'afterMCPExecution' ? { tool_response: payload.result_json ?? {} } : {},
          ),
        ];
      case 'beforeReadFile':
        return [call({ name: 'Read', input: { file_path: payload.file_path }, hostName: 'Read', from: '$.file_path' })];
      case 'afterFileEdit': {
        const edits =
          Array.isArray(payload.edits) && payload.edits.length > 0
            ? (payload.edits as Array<Record<string, unknown>>)
            : [{}];
        return edits.map((edit) =>
          call({
            name: 'Edit',
            input: {
              file_path: payload.file_path,
              old_string: String(edit.old_string ?? ''),
              new_string: String(edit.new_string ?? ''),
            },
            hostName: 'Edit',
            from: '$.file_path',
          }),
        );
      }
      case 'stop':
      case 'subagentStop':
        return [
          call(undefined, { stop_hook_active: typeof payload.loop_count === 'number' && payload.loop_count > 0 }),
        ];
      default: {
        const name = payload.tool_name;
        if (typeof name === 'string' && name.startsWith('MCP:')) {
          return [
            call({
              name: `mcp__${MCP_SERVER}__${name.slice(4)}`,
              input: toolInputObject(host, hostEvent, payload.tool_input, '$.tool_input'),
              hostName: name,
            }),
          ];
        }
        return [call()];
      }
    }
  },
  render({ host, hostEvent, def, verdict, hostTool }: RenderContext): HostAnswer {
    if (def.event === 'PreToolUse') {
      if (verdict.blocked)
        return answer(
          { permission: 'deny', user_message: reasonOf(verdict), agent_message: reasonOf(verdict) },
          2,
          reasonOf(verdict),
        );
      const permission =
        verdict.permission === 'allow' || verdict.permission === 'ask' ? verdict.permission : undefined;
      return answer({
        ...(permission ? { permission } : {}),
        ...(permission && verdict.reason !== undefined
          ? { user_message: verdict.reason, agent_message: verdict.reason }
          : {}),
        ...(verdict.updatedInput
          ? { permission: 'allow', updated_input: hostToolInput(host, hostTool, verdict.updatedInput) }
          : {}),
        ...(verdict.context !== undefined ? { additional_context: verdict.context } : {}),
      });
    }
    if (hostEvent === 'beforeSubmitPrompt')
      return verdict.blocked || verdict.stop
        ? answer({ continue: false, user_message: reasonOf(verdict) }, 2, reasonOf(verdict))
        : answer({ continue: true });
    if (def.event === 'Stop' || def.event === 'SubagentStop')
      return answer(verdict.blocked ? { followup_message: reasonOf(verdict) } : {});
    return answer(verdict.context !== undefined ? { additional_context: verdict.context } : {});
  },
  stops: (_def, hostEvent) => hostEvent === 'beforeSubmitPrompt',
};
