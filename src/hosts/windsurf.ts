// Windsurf (Cascade): one event per kind of action, the call in `tool_info`; only a pre-hook's exit 2 (with
// the reason on stderr) refuses it. There is no JSON answer: no rewrite, no context.
import { answer, type HostContext, type HostModule, type RenderContext, reasonOf } from './module.ts';
import { claudeInput, type HostToolCall, toolInputObject } from './normalise.ts';
import type { ClaudeCall, HostAnswer } from './types.ts';

export const windsurf: HostModule = {
  calls({ host, hostEvent, def, payload }: HostContext): ClaudeCall[] {
    const info = (payload.tool_info ?? {}) as Record<string, unknown>;
    const call = (tool?: HostToolCall, extra: Record<string, unknown> = {}) => ({
      event: def.event,
      input: { ...claudeInput(host, hostEvent, def, payload, tool), ...extra },
    });
    const post = def.event === 'PostToolUse';
    if (hostEvent.endsWith('_run_command')) {
      return [
        call(
          {
            name: 'Bash',
            input: { command: info.command_line },
            hostName: hostEvent,
            from: '$.tool_info.command_line',
          },
          post ? { tool_response: { stdout: info.output ?? '', exit_code: info.exit_code } } : {},
        ),
      ];
    }
    if (hostEvent.endsWith('_read_code'))
      return [
        call({
          name: 'Read',
          input: { file_path: info.file_path },
          hostName: hostEvent,
          from: '$.tool_info.file_path',
        }),
      ];
    if (hostEvent.endsWith('_write_code')) {
      const edits =
        Array.isArray(info.edits) && info.edits.length > 0 ? (info.edits as Array<Record<string, unknown>>) : [{}];
      return edits.map((edit) =>
        call({
          name: 'Edit',
          input: {
            file_path: info.file_path,
            old_string: String(edit.old_string ?? ''),
            new_string: String(edit.new_string ?? ''),
          },
          hostName: hostEvent,
          from: '$.tool_info.file_path',
        }),
      );
    }
    if (hostEvent.endsWith('_mcp_tool_use')) {
      const name = `mcp__${String(info.mcp_server_name ?? '')}__${String(info.mcp_tool_name ?? '')}`;
      return [
        call(
          {
            name,
            input: toolInputObject(host, hostEvent, info.mcp_tool_arguments, '$.tool_info.mcp_tool_arguments'),
            hostName: hostEvent,
          },
          post ? { tool_response: info.mcp_result ?? {} } : {},
        ),
      ];
    }
    return [call()];
  },
  render({ verdict }: RenderContext): HostAnswer {
    return verdict.blocked ? answer(undefined, 2, reasonOf(verdict)) : answer(undefined);
  },
};
