// Codex CLI: Claude Code's payload and output, but apply_patch carries a patch envelope in tool_input.command,
// which becomes one Claude Code Edit or Write per file.
import { patchCalls } from './apply-patch.ts';
import { renderClaudeLike } from './claude-like.ts';
import type { HostContext, HostModule } from './module.ts';
import { claudeInput, field, malformed } from './normalise.ts';
import type { ClaudeCall } from './types.ts';

export const codex: HostModule = {
  calls({ host, hostEvent, def, payload }: HostContext): ClaudeCall[] {
    const single = claudeInput(host, hostEvent, def, payload);
    if (field(host, payload, 'tool_name') !== 'apply_patch') return [{ event: def.event, input: single }];
    const toolInput = (payload.tool_input ?? {}) as Record<string, unknown>;
    const patch = toolInput.command ?? toolInput.input ?? toolInput.patch;
    if (typeof patch !== 'string') throw malformed(host, hostEvent, '$.tool_input.command', 'has no apply_patch text');
    const parsed = patchCalls(patch, single.cwd as string);
    if ('error' in parsed) throw malformed(host, hostEvent, '$.tool_input.command', parsed.error);
    return parsed.calls.map((file) => ({ event: def.event, input: claudeInput(host, hostEvent, def, payload, { name: file.tool, input: file.input, hostName: 'apply_patch' }) }));
  },
  render: (context) => renderClaudeLike(context),
  // Codex marks a PreToolUse or PermissionRequest hook that stops the agent as failed, and the call proceeds.
  stops: (def) => def.event !== 'PreToolUse' && def.event !== 'PermissionRequest',
};
