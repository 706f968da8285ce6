// Hook input: parse stdin and validate it per event (spec §3, §4). Unknown fields are kept untouched,
// because newer Claude Code versions add fields and hooks must still see them.
import * as z from 'zod';
import { PeriHooksError } from '../errors.ts';
import type { EventName } from '../events.ts';
import { inputObject } from './json.ts';

// Built per event on first use: constructing all 34 input schemas up front cost ~10 ms of every firing's start-up.
function eventShape(event: EventName): z.ZodRawShape {
  const str = z.string();
  // These become environment values of command hooks (or their working folder), where a NUL cannot go.
  const envSafe = str.refine(
    (value) => !value.includes('\u0000'),
    'contains a NUL character, which no environment variable or path can hold',
  );
  const opt = <T extends z.ZodType>(schema: T) => schema.optional();
  const toolObject = () => z.record(z.string(), z.unknown());
  const common = {
    session_id: envSafe,
    transcript_path: str,
    cwd: envSafe,
    hook_event_name: str,
    prompt_id: opt(str),
    permission_mode: opt(str),
    agent_id: opt(str),
    agent_type: opt(str),
    effort: opt(z.looseObject({ level: envSafe })),
    scratchpad_dir: opt(str),
  };
  const tool = () => ({ tool_name: str, tool_input: toolObject(), mcp_server: opt(z.looseObject({ name: str })) });
  const stopFields = () => ({
    stop_hook_active: z.boolean(),
    last_assistant_message: opt(str),
    background_tasks: opt(z.array(z.unknown())),
    session_crons: opt(z.array(z.unknown())),
  });
  const modelSwitch = () => ({
    from_model: str,
    to_model: str,
    requested_model: opt(str.nullable()),
    source: str,
    context_tokens: opt(z.number()),
    prompt_cache_warm: opt(z.boolean()),
    cache_ttl: opt(str),
    estimated_cache_write_usd: opt(z.number()),
    pricing: opt(str),
  });
  const task = () => ({
    task_id: str,
    task_subject: str,
    task_description: opt(str),
    teammate_name: opt(str),
    team_name: opt(str),
  });

  const eventFields: Record<EventName, () => z.ZodRawShape> = {
    PreToolUse: () => ({ ...tool(), tool_use_id: str }),
    PermissionRequest: () => ({ ...tool(), permission_suggestions: opt(z.array(z.unknown())) }),
    PermissionDenied: () => ({ ...tool(), tool_use_id: str, reason: str }),
    PostToolUse: () => ({ ...tool(), tool_use_id: str, tool_response: z.unknown(), duration_ms: opt(z.number()) }),
    PostToolUseFailure: () => ({
      ...tool(),
      tool_use_id: str,
      error: str,
      is_interrupt: opt(z.boolean()),
      duration_ms: opt(z.number()),
    }),
    PostToolBatch: () => ({
      tool_calls: z.array(z.looseObject({ tool_name: str, tool_input: toolObject(), tool_use_id: str })),
    }),
    PreSkillShellCommand: () => ({
      ...tool(),
      tool_use_id: str,
      command_name: str,
      command_source: opt(str),
      invoked_by: opt(str),
    }),
    UserPromptSubmit: () => ({ prompt: str, session_title: opt(str), source: opt(str) }),
    UserPromptExpansion: () => ({
      expansion_type: str,
      command_name: str,
      command_args: str,
      command_source: opt(str),
      prompt: str,
    }),
    SessionStart: () => ({ source: str, model: opt(str), session_title: opt(str) }),
    Setup: () => ({ trigger: str }),
    SessionEnd: () => ({ reason: str }),
    Stop: stopFields,
    SubagentStop: () => ({ ...stopFields(), agent_id: str, agent_type: str, agent_transcript_path: str }),
    StopFailure: () => ({ error: str, error_details: opt(str), last_assistant_message: opt(str) }),
    SubagentStart: () => ({ agent_id: str, agent_type: str }),
    Notification: () => ({ message: str, title: opt(str), notification_type: str }),
    PreCompact: () => ({ trigger: str, custom_instructions: opt(str.nullable()) }),
    PostCompact: () => ({ trigger: str, compact_summary: str }),
    PreModelSwitch: modelSwitch,
    PostModelSwitch: modelSwitch,
    TeammateIdle: () => ({ teammate_name: str, team_name: opt(str) }),
    TaskCreated: task,
    TaskCompleted: task,
    Elicitation: () => ({
      mcp_server_name: str,
      message: str,
      mode: opt(str),
      url: opt(str),
      elicitation_id: opt(str),
      requested_schema: opt(toolObject()),
    }),
    ElicitationResult: () => ({
      mcp_server_name: str,
      elicitation_id: opt(str),
      mode: opt(str),
      action: str,
      content: opt(toolObject()),
    }),
    ConfigChange: () => ({ source: str, file_path: opt(str) }),
    InstructionsLoaded: () => ({
      file_path: str,
      memory_type: str,
      load_reason: str,
      globs: opt(z.array(str)),
      trigger_file_path: opt(str),
      parent_file_path: opt(str),
    }),
    WorktreeCreate: () => ({ name: str }),
    WorktreeRemove: () => ({ worktree_path: str }),
    CwdChanged: () => ({ old_cwd: str, new_cwd: str }),
    FileChanged: () => ({ file_path: str, event: str }),
    DirectoryAdded: () => ({ directory: str, source: str }),
    MessageDisplay: () => ({ turn_id: str, message_id: str, index: z.number().int(), final: z.boolean(), delta: str }),
  };
  return { ...common, ...eventFields[event]() };
}

const schemaCache = new Map<EventName, z.ZodType>();

/** The zod schema of one event's input (common fields plus the event's own); unknown keys pass through. */
export function inputSchema(event: EventName): z.ZodType<HookInput> {
  let schema = schemaCache.get(event);
  if (!schema) {
    schema = z.looseObject(eventShape(event));
    schemaCache.set(event, schema);
  }
  return schema as z.ZodType<HookInput>;
}

export interface HookInput extends Record<string, unknown> {
  session_id: string;
  transcript_path: string;
  cwd: string;
  hook_event_name: string;
}

/** zod's type names as a JSON reader knows them. */
const TYPE_NAMES: Record<string, string> = { record: 'JSON object', object: 'JSON object', array: 'JSON array' };

/** Parse and validate stdin for an event with zod (checkInput, in text.ts, is the same without zod for a valid input). */
export function parseInput(event: EventName, text: string, source = 'stdin'): HookInput {
  return validInput(event, inputObject(event, text, source), source);
}

/** The input object, once the event's zod schema accepts it; else every problem it finds, as one error. */
export function validInput(event: EventName, value: Record<string, unknown>, source: string): HookInput {
  const result = inputSchema(event).safeParse(value);
  if (!result.success) {
    // Every problem at once, so that fixing one does not reveal the next.
    const problems = result.error.issues.map((issue) => {
      const path = issue.path.length > 0 ? `$.${issue.path.join('.')}` : '$';
      const missing = valueAt(value, issue.path) === undefined;
      const fix = missing
        ? `add ${path} (${event} inputs always carry it)`
        : `make ${path} ${issue.code === 'invalid_type' ? `a ${TYPE_NAMES[issue.expected] ?? issue.expected}` : 'valid'}`;
      return {
        path,
        pointer: issue.path
          .map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`)
          .join(''),
        message: issue.message,
        fix,
      };
    });
    const [first] = problems;
    const place = {
      file: source,
      pointer: first!.pointer,
      problems: problems.map(({ pointer, message, fix }) => ({ pointer, message, fix })),
    };
    if (problems.length === 1)
      throw new PeriHooksError(
        'invalid-input',
        `invalid ${event} input on ${source} at ${first!.path}: ${first!.message}`,
        first!.fix,
        place,
      );
    const listed = problems.map((problem) => `\n  at ${problem.path}: ${problem.message}`).join('');
    throw new PeriHooksError(
      'invalid-input',
      `invalid ${event} input on ${source}, ${problems.length} problems:${listed}`,
      problems.map((problem) => problem.fix).join('; '),
      place,
    );
  }
  // The original object, not zod's copy: key order and unknown fields reach the hooks untouched.
  return value as HookInput;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path)
    current =
      typeof current === 'object' && current !== null ? (current as Record<PropertyKey, unknown>)[key] : undefined;
  return current;
}
