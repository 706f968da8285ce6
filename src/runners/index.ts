// One runner per hook type, each loaded only when a hook of that type is about to run (start-up budget).
import type { HookType, LoadedHook, RawOutcome, RunContext, Runner } from '../types.ts';

const loaders: Record<HookType, () => Promise<Runner>> = {
  command: async () => (await import('./command.ts')).runCommandHook,
  http: async () => (await import('./http.ts')).runHttpHook,
  prompt: async () => (await import('./prompt.ts')).runPromptHook,
  agent: async () => (await import('./agent.ts')).runAgentHook,
  mcp_tool: async () => (await import('./mcp-tool.ts')).runMcpToolHook,
};

export async function runHook(hook: LoadedHook, ctx: RunContext): Promise<RawOutcome> {
  const runner = await loaders[hook.handler.type]();
  try {
    return await runner(hook, ctx);
  } catch (error) {
    // Runners are written not to throw; if one does, the hook fails and the firing goes on.
    return {
      exitCode: null,
      stdout: '',
      stderr: '',
      timedOut: false,
      error: `internal error while running the hook: ${(error as Error).message}`,
      durationMs: 0,
    };
  }
}
