// Kiro CLI (the former Amazon Q Developer CLI): Claude Code-like payloads with camelCase event names; exit 2
// refuses a tool call (stderr to the model), and stdout is context on agentSpawn and userPromptSubmit.
// fs_read reads a list of operations (one Read each), fs_write creates (Write) or replaces (Edit); MCP tools
// are named @server/tool.
import { answer, type HostContext, type HostModule, type RenderContext, reasonOf } from './module.ts';
import { claudeInput, claudeTool, field, toolInputObject } from './normalise.ts';
import type { ClaudeCall, HostAnswer } from './types.ts';

export const kiro: HostModule = {
  calls({ host, hostEvent, def, payload }: HostContext): ClaudeCall[] {
    const name = field(host, payload, 'tool_name');
    if (typeof name !== 'string') return [{ event: def.event, input: claudeInput(host, hostEvent, def, payload) }];
    const cwd = String(field(host, payload, 'cwd') ?? process.cwd());
    const args = toolInputObject(host, hostEvent, payload.tool_input, '$.tool_input');
    const call = (tool: string, input: Record<string, unknown>) => ({
      event: def.event,
      input: claudeInput(host, hostEvent, def, payload, {
        ...claudeTool(host, hostEvent, tool, input, cwd),
        hostName: name,
      }),
    });
    const mcp = /^@([^/]+)\/(.+)$/.exec(name);
    if (mcp)
      return [
        {
          event: def.event,
          input: claudeInput(host, hostEvent, def, payload, {
            name: `mcp__${mcp[1]}__${mcp[2]}`,
            input: args,
            hostName: name,
          }),
        },
      ];
    if ((name === 'fs_read' || name === 'fsRead') && Array.isArray(args.operations)) {
      return (args.operations as Array<Record<string, unknown>>).map((operation) => call(name, operation));
    }
    if ((name === 'fs_write' || name === 'fsWrite') && args.command === 'str_replace') {
      const { name: _write, input } = claudeTool(host, hostEvent, name, args, cwd);
      return [
        {
          event: def.event,
          input: claudeInput(host, hostEvent, def, payload, { name: 'Edit', input, hostName: name }),
        },
      ];
    }
    return [call(name, args)];
  },
  render({ def, verdict }: RenderContext): HostAnswer {
    if (verdict.blocked) return answer(undefined, 2, reasonOf(verdict));
    return {
      stdout:
        verdict.context !== undefined && (def.event === 'SessionStart' || def.event === 'UserPromptSubmit')
          ? `${verdict.context}\n`
          : '',
      stderr: '',
      exitCode: 0,
    };
  },
};
