// Legacy tool names that Claude Code 2.1.332 still accepts in matchers and `if` rules (spec §8.1).
export const LEGACY_TOOL_ALIASES: Readonly<Record<string, string>> = {
  Task: 'Agent',
  KillShell: 'TaskStop',
  KillBash: 'TaskStop',
  ListPeers: 'ListAgents',
  Brief: 'SendUserMessage',
  ListMcpResources: 'ListMcpResourcesTool',
  ReadMcpResource: 'ReadMcpResourceTool',
  ReadMcpResourceDir: 'ReadMcpResourceDirTool',
  ProposeGoal: 'SetGoal',
};

/** The MCP server of an MCP tool name (`mcp__<server>__<tool>`), or undefined for other tools. */
export function mcpServerOf(toolName: string): string | undefined {
  return /^mcp__(.+?)__/.exec(toolName)?.[1];
}

/** The canonical tool name for a name written in settings. */
export function canonicalToolName(name: string): string {
  return LEGACY_TOOL_ALIASES[name] ?? name;
}

/** The legacy names that stand for a canonical tool (`Agent` -> [`Task`]). */
export function legacyNamesOf(tool: string): string[] {
  return Object.keys(LEGACY_TOOL_ALIASES).filter((legacy) => LEGACY_TOOL_ALIASES[legacy] === tool);
}
