// Cline: an executable per event; the payload holds the event's own object (preToolUse: toolName, parameters)
// and the answer is `{cancel, contextModification, errorMessage}` on stdout. MCP calls come as use_mcp_tool.
import { answer, type HostContext, type HostModule, type RenderContext, reasonOf } from './module.ts';
import { claudeInput, toolInputObject } from './normalise.ts';
import type { ClaudeCall, HostAnswer } from './types.ts';

export const cline: HostModule = {
  calls({ host, hostEvent, def, payload }: HostContext): ClaudeCall[] {
    const own = (payload.preToolUse ?? payload.postToolUse) as Record<string, unknown> | undefined;
    if (own?.toolName === 'use_mcp_tool') {
      const parameters = toolInputObject(host, hostEvent, own.parameters, '$.preToolUse.parameters');
      const name = `mcp__${String(parameters.server_name ?? '')}__${String(parameters.tool_name ?? '')}`;
      return [
        {
          event: def.event,
          input: claudeInput(host, hostEvent, def, payload, {
            name,
            input: toolInputObject(host, hostEvent, parameters.arguments, '$.preToolUse.parameters.arguments'),
            hostName: 'use_mcp_tool',
          }),
        },
      ];
    }
    return [{ event: def.event, input: claudeInput(host, hostEvent, def, payload) }];
  },
  render({ verdict }: RenderContext): HostAnswer {
    return answer({
      cancel: verdict.blocked || verdict.stop !== undefined,
      ...(verdict.blocked || verdict.stop ? { errorMessage: reasonOf(verdict) } : {}),
      ...(verdict.context !== undefined ? { contextModification: verdict.context } : {}),
    });
  },
  stops: () => true,
};
