// zod schemas of hook settings (spec §1, §5). They validate what is loaded and emit the published JSON Schema.
// Objects are not strict: Claude Code ignores unknown keys, and so do we.
import * as z from 'zod';

const seconds = z.number().positive().describe('Seconds (not milliseconds). Fractions are allowed.');

const common = {
  if: z.string().optional().describe('One permission rule, e.g. "Bash(git push *)"; tool events only.'),
  timeout: seconds.optional(),
  statusMessage: z.string().optional().describe('Spinner text shown while the hook runs.'),
  once: z.boolean().optional().describe('Run at most once per session (Claude Code honours it only for skill hooks).'),
};

const onFailure = z
  .enum(['continue', 'block'])
  .optional()
  .describe('"block": a failure of this hook blocks like exit 2.');

// Required strings may be empty: Claude Code's schema types them as plain strings (§5), so "" loads.
export const commandHookSchema = z.object({
  type: z.literal('command'),
  command: z.string(),
  args: z.array(z.string()).optional().describe('Exec form: run `command` directly with these arguments, no shell.'),
  shell: z.enum(['bash', 'powershell']).optional(),
  async: z.boolean().optional(),
  asyncRewake: z.boolean().optional(),
  onFailure,
  ...common,
});

export const httpHookSchema = z.object({
  type: z.literal('http'),
  url: z.url(),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
  onFailure,
  ...common,
});

export const mcpToolHookSchema = z.object({
  type: z.literal('mcp_tool'),
  server: z.string(),
  tool: z.string(),
  input: z.record(z.string(), z.unknown()).optional(),
  // Claude Code reads any value other than "continue" as "block" here (§5.4).
  onFailure: z.unknown().optional(),
  ...common,
});

export const promptHookSchema = z.object({
  type: z.literal('prompt'),
  prompt: z.string(),
  model: z.string().optional(),
  continueOnBlock: z.boolean().optional(),
  ...common,
});

export const agentHookSchema = z.object({
  type: z.literal('agent'),
  prompt: z.string(),
  model: z.string().optional(),
  ...common,
});

export const hookHandlerSchema = z.discriminatedUnion('type', [
  commandHookSchema,
  httpHookSchema,
  mcpToolHookSchema,
  promptHookSchema,
  agentHookSchema,
]);

export type CommandHook = z.infer<typeof commandHookSchema>;
export type HttpHook = z.infer<typeof httpHookSchema>;
export type McpToolHook = z.infer<typeof mcpToolHookSchema>;
export type PromptHook = z.infer<typeof promptHookSchema>;
export type AgentHook = z.infer<typeof agentHookSchema>;
export type HookHandler = z.infer<typeof hookHandlerSchema>;

export const matcherGroupSchema = z.object({
  matcher: z.string().optional().describe('Exact names separated by | or , ; anything else is an unanchored regex.'),
  hooks: z.array(hookHandlerSchema),
  sequential: z
    .boolean()
    .optional()
    .describe(
      "peri-hooks extension: run this group's hooks in order; the first block skips the rest, and each updatedInput is applied before the next hook runs.",
    ),
});

/** The parts of a settings file that peri-hooks reads. */
export const settingsSchema = z.looseObject({
  hooks: z.record(z.string(), z.array(matcherGroupSchema)).optional(),
  disableAllHooks: z.boolean().optional(),
  allowManagedHooksOnly: z.boolean().optional(),
  allowedHttpHookUrls: z.array(z.string()).optional(),
  httpHookAllowedEnvVars: z.array(z.string()).optional(),
  enabledPlugins: z.record(z.string(), z.unknown()).optional(),
  peri_hooks_require_trust: z
    .boolean()
    .optional()
    .describe(
      'peri-hooks extension, honoured in managed and user settings: project and local hooks run only with content approved by `peri-hooks trust`.',
    ),
});
