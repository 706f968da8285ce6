// Claude Code 2.1.332's built-in tool names, as hooks see them in `tool_name` (spec §8.1, §19, §20). A matcher
// read as a regex is tested against this list to show which tools it really hits; some appear only in some
// modes (PowerShell on Windows, the Task* tools in task mode), which is exactly why a wide regex surprises.
export const BUILTIN_TOOLS: readonly string[] = [
  'Agent', 'AskUserQuestion', 'Bash', 'CronCreate', 'CronDelete', 'CronList', 'Edit', 'EnterPlanMode', 'EnterWorktree',
  'ExitPlanMode', 'ExitWorktree', 'Glob', 'Grep', 'ListAgents', 'ListMcpResourcesTool', 'LSP', 'Monitor', 'NotebookEdit',
  'PowerShell', 'Read', 'ReadMcpResourceDirTool', 'ReadMcpResourceTool', 'SendMessage', 'SendUserMessage', 'SetGoal',
  'Skill', 'TaskCreate', 'TaskGet', 'TaskList', 'TaskOutput', 'TaskStop', 'TaskUpdate', 'TeamCreate', 'TeamDelete',
  'TodoWrite', 'ToolSearch', 'WebFetch', 'WebSearch', 'Write',
];
