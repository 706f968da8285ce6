// The event catalogue of Claude Code 2.1.332 (spec §2, §6.4, §7, §10.1), as data.
// Help text, validation, docs tables, planning and reduction all read it; adding an event is a row here.
import { PeriHooksError } from './errors.ts';
import { closest } from './platform/suggest.ts';
import type { HookType } from './types.ts';

export const EVENT_NAMES = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  'PreSkillShellCommand',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** A hook's answer to a permission question (§6.4). */
export type PermissionDecision = 'allow' | 'deny' | 'ask' | 'defer';

/**
 * How hook results combine into one decision (spec §12, §14):
 * - `permission`: permissionDecision by precedence deny > defer > ask > allow; exit 2 or `decision: block` = deny.
 * - `modelSwitch`: as `permission` without defer; a timeout or crash also blocks (§10.5).
 * - `permissionRequest`: only `hookSpecificOutput.decision` counts; exit 2 is ignored.
 * - `decision`: top-level `decision: "block"` or exit 2 blocks.
 * - `elicitation`: `action` answers; exit 2 declines (ElicitationResult) or denies (Elicitation).
 * - `worktree`: the first hook that prints a path wins; any failure fails the creation.
 * - `observe`: never blocks; context and messages only.
 */
export type Family =
  | 'permission'
  | 'modelSwitch'
  | 'permissionRequest'
  | 'decision'
  | 'elicitation'
  | 'worktree'
  | 'observe';

/** What plain (non-JSON) stdout on exit 0 becomes (§6.1). */
export type PlainStdout = 'context' | 'compactInstructions' | 'userDisplay' | 'modelContext' | 'worktreePath';

export interface EventDef {
  name: EventName;
  /** Input field tested by the group matcher; undefined: the matcher is ignored (§8.2). */
  matcherField?: string;
  /** Hook types Claude Code runs for this event; others are skipped (§2.1). */
  hookTypes: readonly HookType[];
  /** Default timeout of command, http and mcp_tool hooks, in seconds (§10.1). */
  timeoutS: number;
  family: Family;
  /** Where the block message of exit 2 / `decision: block` goes, for docs and reports (§7). */
  exit2: string;
  /** `hookSpecificOutput` fields honoured for this event (§6.4). */
  specificFields: readonly string[];
  plainStdout?: PlainStdout;
  /** False where Claude Code discards `continue: false` (§6.3). */
  honoursContinue: boolean;
  /** The `if` field applies (§8.3); on other events a hook with `if` never runs. */
  ifApplies: boolean;
  /** `onFailure: "block"` is ignored here (§10.4). */
  ignoresOnFailure?: boolean;
  /** Claude Code also reads the groups' matchers as the list of files to watch (§2.1): a registration must carry them. */
  matcherIsWatchList?: true;
  /** Claude Code has no MCP client here: every mcp_tool hook fails at once, its server never called (§20.4 item 1). */
  noMcpClient?: true;
  /**
   * Claude Code's MCP servers are not connected when these hooks run, and an mcp_tool hook is skipped as "not
   * connected" (observed in 2.1.332): not yet started for the CLAUDE.md files loaded at session start
   * (InstructionsLoaded), already stopped at SessionEnd.
   */
  mcpServersDown?: true;
  /** Real payloads carry `permission_mode` (§3); synthetic inputs follow. */
  hasPermissionMode: boolean;
  /** A tool event whose payloads carry no `tool_use_id` (§4). */
  withoutToolUseId?: true;
  /** The input field that carries the tool's result: its response, or its error text (§4). */
  toolResponseField?: 'tool_response' | 'error';
  /**
   * Input fields Claude Code always sends for this event, with the value an input built without them gets (a
   * synthetic input for explain, test cases and replay; a host payload that has nothing like them).
   */
  requiredFields?: Readonly<Record<string, string | boolean>>;
  /** An unloadable entry of this event makes its whole settings source inapplicable (§1). */
  brokenEntryVoidsSource?: true;
  /** The matcher value is the basename of the matcher field's path (§8.1). */
  matcherTestsBasename?: true;
  /** Exact-name matcher lists are split on `|` only, and hold no spaces, commas or hyphens (§8.1). */
  matcherPipeListOnly?: true;
  /** Each `|` alternative of the matcher loses a `[1m]`/`[2m]` context-window suffix before matching (§8.1). */
  matcherStripsContextSuffix?: true;
  /** The `permissionDecision` values this event accepts; set where `specificFields` has permissionDecision (§6.4). */
  permissionDecisions?: readonly PermissionDecision[];
  /** The legacy top-level `decision: "approve"` means permissionDecision allow (§6.3). */
  approveMeansAllow?: true;
  /** Exit 2 discards the hook's `hookSpecificOutput` (§6.1). */
  exit2IgnoresSpecificOutput?: true;
  /**
   * Exit 2 with no stdout and a "no such file" stderr is a missing script, a non-blocking error instead of a
   * block: for every hook, or for plugin hooks only (§6.1).
   */
  missingScriptIsError?: 'anyHook' | 'pluginHooks';
  /**
   * What `ok: false` from a prompt or agent hook becomes (§5.5). `keepWorking`: a block that keeps the agent
   * going (`impossible: true` lets it stop); `noEffect`: nothing; `endTurn`: a block that always ends the turn;
   * `feedback`: a block whose reason goes to Claude while the turn goes on. Undefined: a block that ends the
   * turn unless the hook sets continueOnBlock.
   */
  modelVerdictOnBlock?: 'keepWorking' | 'noEffect' | 'endTurn' | 'feedback';
  /**
   * The agent asks to end (§10.2): a continuation keeps it going, prompt and agent hooks judge a stop condition
   * (§5.5), and the loop guard counts continuations in one counter for the main agent (`main`) or one per
   * `agent_id` (`perAgent`). `ends` names what would end, for messages.
   */
  stopLike?: { guardCounter: 'main' | 'perAgent'; ends: 'turn' | 'subagent' };
  /**
   * How Claude Code shows the model the context of several hooks, each hook apart (observed in 2.1.332, in the
   * order the hooks finished). `perHook`: a paragraph per hook, "<label> hook additional context: <text>", or
   * "<label> hook success: <text>" for plain stdout where it is context. `joined`: the plain-stdout paragraphs,
   * then one "<label> hook additional context:" paragraph with every additionalContext on a line of its own.
   * The label is the event name, with ":<matcher value>" for the paragraph kinds in `labelsWithMatcher`.
   */
  contextParagraphs?: { layout: 'perHook' | 'joined'; labelsWithMatcher?: readonly ContextParagraphKind[] };
  /** Input `source` values on which the event cannot block (§7). */
  unblockableSources?: readonly string[];
  /** ask, defer and any updatedInput are never applied: each keeps the action from running (§6.4, §7). */
  askDeferOrRewriteBlocks?: true;
  /** The event's hooks share one time budget (§10.1). */
  sharedTimeoutBudget?: SharedTimeoutBudget;
}

/** A paragraph of hook text the model gets: a JSON additionalContext, or plain stdout ("hook success"). */
export type ContextParagraphKind = 'context' | 'success';

/** max(minS, min(largest settings-file timeout, maxS)), unless the variable `overrideVariable` gives milliseconds. */
export interface SharedTimeoutBudget {
  minS: number;
  maxS: number;
  overrideVariable: string;
}

const ALL: readonly HookType[] = ['command', 'http', 'mcp_tool', 'prompt', 'agent'];
const CHM: readonly HookType[] = ['command', 'http', 'mcp_tool'];
const CM: readonly HookType[] = ['command', 'mcp_tool'];
const CHMP: readonly HookType[] = ['command', 'http', 'mcp_tool', 'prompt'];

const ALL_DECISIONS: readonly PermissionDecision[] = ['allow', 'deny', 'ask', 'defer'];

const TOOL = 'tool_name';
const PERMISSION_FIELDS = ['permissionDecision', 'permissionDecisionReason', 'updatedInput', 'additionalContext'];

const rows: readonly EventDef[] = [
  {
    name: 'PreToolUse',
    matcherField: TOOL,
    hookTypes: ALL,
    timeoutS: 600,
    family: 'permission',
    exit2: 'denies the tool call; stderr goes to Claude',
    specificFields: PERMISSION_FIELDS,
    honoursContinue: true,
    ifApplies: true,
    hasPermissionMode: true,
    permissionDecisions: ALL_DECISIONS,
    approveMeansAllow: true,
    brokenEntryVoidsSource: true,
    contextParagraphs: { layout: 'joined', labelsWithMatcher: ['context'] },
  },
  {
    name: 'PostToolUse',
    matcherField: TOOL,
    hookTypes: ALL,
    timeoutS: 600,
    family: 'decision',
    exit2: 'stderr goes to Claude (the tool already ran)',
    specificFields: ['additionalContext', 'classifierContext', 'updatedToolOutput', 'updatedMCPToolOutput'],
    honoursContinue: true,
    ifApplies: true,
    hasPermissionMode: true,
    toolResponseField: 'tool_response',
    contextParagraphs: { layout: 'perHook', labelsWithMatcher: ['context'] },
  },
  {
    name: 'PostToolUseFailure',
    matcherField: TOOL,
    hookTypes: ALL,
    timeoutS: 600,
    family: 'decision',
    exit2: 'stderr goes to Claude',
    specificFields: ['additionalContext'],
    honoursContinue: true,
    ifApplies: true,
    hasPermissionMode: true,
    modelVerdictOnBlock: 'feedback',
    toolResponseField: 'error',
    contextParagraphs: { layout: 'perHook', labelsWithMatcher: ['context'] },
  },
  {
    name: 'PostToolBatch',
    hookTypes: ALL,
    timeoutS: 600,
    family: 'decision',
    exit2: 'stops the agentic loop before the next model call',
    specificFields: ['additionalContext'],
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: true,
    modelVerdictOnBlock: 'endTurn',
    contextParagraphs: { layout: 'perHook' },
  },
  {
    name: 'Notification',
    matcherField: 'notification_type',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'observe',
    exit2: 'ignored',
    specificFields: ['additionalContext'],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
    requiredFields: { message: '', notification_type: 'unknown' },
  },
  {
    name: 'UserPromptSubmit',
    hookTypes: ALL,
    timeoutS: 30,
    family: 'decision',
    exit2: 'rejects and erases the prompt; stderr goes to the user only',
    specificFields: ['additionalContext', 'sessionTitle', 'suppressOriginalPrompt'],
    plainStdout: 'context',
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: true,
    modelVerdictOnBlock: 'endTurn',
    missingScriptIsError: 'pluginHooks',
    contextParagraphs: { layout: 'perHook' },
  },
  {
    name: 'UserPromptExpansion',
    matcherField: 'command_name',
    hookTypes: ALL,
    timeoutS: 600,
    family: 'decision',
    exit2: 'blocks the expansion; stderr goes to the user',
    specificFields: ['additionalContext', 'suppressOriginalPrompt'],
    plainStdout: 'context',
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: true,
    modelVerdictOnBlock: 'endTurn',
    contextParagraphs: { layout: 'perHook' },
  },
  {
    name: 'SessionStart',
    matcherField: 'source',
    hookTypes: CM,
    timeoutS: 600,
    family: 'observe',
    exit2: 'not blockable; stderr shown as a hook error',
    specificFields: ['additionalContext', 'initialUserMessage', 'sessionTitle', 'watchPaths', 'reloadSkills'],
    plainStdout: 'context',
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: false,
    ignoresOnFailure: true,
    noMcpClient: true,
    contextParagraphs: { layout: 'joined', labelsWithMatcher: ['success'] },
    requiredFields: { source: 'startup' },
  },
  {
    name: 'SessionEnd',
    matcherField: 'reason',
    hookTypes: CHM,
    timeoutS: 1.5,
    family: 'observe',
    exit2: 'not blockable; stderr to the user',
    specificFields: [],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
    mcpServersDown: true,
    sharedTimeoutBudget: { minS: 1.5, maxS: 60, overrideVariable: 'CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS' },
    requiredFields: { reason: 'other' },
  },
  {
    name: 'Stop',
    hookTypes: ALL,
    timeoutS: 600,
    family: 'decision',
    exit2: "prevents stopping; the reason becomes Claude's next instruction",
    specificFields: ['additionalContext'],
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: true,
    ignoresOnFailure: true,
    stopLike: { guardCounter: 'main', ends: 'turn' },
    modelVerdictOnBlock: 'keepWorking',
    missingScriptIsError: 'anyHook',
    requiredFields: { stop_hook_active: false },
    contextParagraphs: { layout: 'perHook' },
  },
  {
    name: 'StopFailure',
    matcherField: 'error',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'observe',
    exit2: 'ignored',
    specificFields: [],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
    matcherPipeListOnly: true,
  },
  {
    name: 'SubagentStart',
    matcherField: 'agent_type',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'observe',
    exit2: 'not blockable; stderr shown as a hook error',
    specificFields: ['additionalContext'],
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: false,
    contextParagraphs: { layout: 'joined' },
    requiredFields: { agent_id: '', agent_type: '' },
  },
  {
    name: 'SubagentStop',
    matcherField: 'agent_type',
    hookTypes: ALL,
    timeoutS: 600,
    family: 'decision',
    exit2: 'keeps the subagent running; the reason goes to the subagent',
    specificFields: ['additionalContext'],
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: true,
    ignoresOnFailure: true,
    stopLike: { guardCounter: 'perAgent', ends: 'subagent' },
    modelVerdictOnBlock: 'keepWorking',
    missingScriptIsError: 'anyHook',
    requiredFields: { stop_hook_active: false, agent_id: '', agent_type: '', agent_transcript_path: '' },
  },
  {
    name: 'PreCompact',
    matcherField: 'trigger',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'decision',
    exit2: 'blocks compaction; stderr to the user',
    specificFields: [],
    plainStdout: 'compactInstructions',
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
    requiredFields: { trigger: 'auto' },
  },
  {
    name: 'PostCompact',
    matcherField: 'trigger',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'observe',
    exit2: 'not blockable; stderr to the user',
    specificFields: [],
    plainStdout: 'userDisplay',
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
  },
  {
    name: 'PreModelSwitch',
    matcherField: 'to_model',
    hookTypes: CHM,
    timeoutS: 30,
    family: 'modelSwitch',
    exit2: 'blocks the switch; stderr to the user',
    specificFields: ['permissionDecision', 'permissionDecisionReason'],
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: false,
    permissionDecisions: ['allow', 'deny', 'ask'],
    matcherStripsContextSuffix: true,
  },
  {
    name: 'PostModelSwitch',
    matcherField: 'to_model',
    hookTypes: CHM,
    timeoutS: 30,
    family: 'observe',
    exit2: 'ignored',
    specificFields: ['additionalContext'],
    plainStdout: 'modelContext',
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: false,
    matcherStripsContextSuffix: true,
  },
  {
    name: 'PermissionRequest',
    matcherField: TOOL,
    hookTypes: CHMP,
    timeoutS: 600,
    family: 'permissionRequest',
    exit2: 'ignored (the permission flow goes on; stderr discarded)',
    specificFields: ['decision'],
    honoursContinue: true,
    ifApplies: true,
    hasPermissionMode: true,
    modelVerdictOnBlock: 'noEffect',
    brokenEntryVoidsSource: true,
    withoutToolUseId: true,
  },
  {
    name: 'PermissionDenied',
    matcherField: TOOL,
    hookTypes: ALL,
    timeoutS: 600,
    family: 'observe',
    exit2: 'ignored',
    specificFields: ['retry'],
    honoursContinue: true,
    ifApplies: true,
    hasPermissionMode: true,
    modelVerdictOnBlock: 'noEffect',
    requiredFields: { reason: 'Blocked by classifier' },
  },
  {
    name: 'Setup',
    matcherField: 'trigger',
    hookTypes: CM,
    timeoutS: 600,
    family: 'observe',
    exit2: 'not blockable; stderr shown as a hook error',
    specificFields: ['additionalContext'],
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: false,
    ignoresOnFailure: true,
    noMcpClient: true,
  },
  {
    name: 'TeammateIdle',
    hookTypes: ALL,
    timeoutS: 600,
    family: 'decision',
    exit2: 'the teammate keeps working',
    specificFields: [],
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: true,
    ignoresOnFailure: true,
    missingScriptIsError: 'anyHook',
  },
  {
    name: 'TaskCreated',
    hookTypes: ALL,
    timeoutS: 600,
    family: 'decision',
    exit2: 'rolls back the task creation; stderr goes to Claude',
    specificFields: [],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: true,
    modelVerdictOnBlock: 'feedback',
  },
  {
    name: 'TaskCompleted',
    hookTypes: ALL,
    timeoutS: 600,
    family: 'decision',
    exit2: 'the task is not completed; stderr goes to Claude',
    specificFields: [],
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: true,
    ignoresOnFailure: true,
    missingScriptIsError: 'anyHook',
  },
  {
    name: 'Elicitation',
    matcherField: 'mcp_server_name',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'elicitation',
    exit2: 'denies the elicitation',
    specificFields: ['action', 'content'],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: true,
    exit2IgnoresSpecificOutput: true,
  },
  {
    name: 'ElicitationResult',
    matcherField: 'mcp_server_name',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'elicitation',
    exit2: 'the action becomes decline',
    specificFields: ['action', 'content'],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: true,
    exit2IgnoresSpecificOutput: true,
  },
  {
    name: 'ConfigChange',
    matcherField: 'source',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'decision',
    exit2: 'blocks the change (not for policy_settings)',
    specificFields: [],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
    unblockableSources: ['policy_settings'],
  },
  {
    name: 'WorktreeCreate',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'worktree',
    exit2: 'any non-zero exit fails the creation',
    specificFields: ['worktreePath'],
    plainStdout: 'worktreePath',
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
  },
  {
    name: 'WorktreeRemove',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'observe',
    exit2: 'ignored',
    specificFields: [],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
  },
  {
    name: 'InstructionsLoaded',
    matcherField: 'load_reason',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'observe',
    exit2: 'ignored',
    specificFields: [],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
    mcpServersDown: true,
  },
  {
    name: 'CwdChanged',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'observe',
    exit2: 'not blockable; stderr to the user',
    specificFields: ['watchPaths'],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
  },
  {
    name: 'FileChanged',
    matcherField: 'file_path',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'observe',
    exit2: 'not blockable; stderr to the user',
    specificFields: ['watchPaths'],
    honoursContinue: true,
    ifApplies: false,
    hasPermissionMode: false,
    matcherTestsBasename: true,
    matcherPipeListOnly: true,
    matcherIsWatchList: true,
  },
  {
    name: 'DirectoryAdded',
    matcherField: 'source',
    hookTypes: CHM,
    timeoutS: 600,
    family: 'observe',
    exit2: 'not blockable; stderr to the debug log',
    specificFields: [],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
  },
  {
    name: 'MessageDisplay',
    hookTypes: CHM,
    timeoutS: 10,
    family: 'observe',
    exit2: 'ignored',
    specificFields: ['displayContent'],
    honoursContinue: false,
    ifApplies: false,
    hasPermissionMode: false,
  },
  {
    name: 'PreSkillShellCommand',
    matcherField: TOOL,
    hookTypes: CHM,
    timeoutS: 600,
    family: 'permission',
    exit2: 'the command does not run; stderr to the model and the user',
    specificFields: ['permissionDecision', 'permissionDecisionReason', 'updatedInput'],
    honoursContinue: true,
    ifApplies: true,
    hasPermissionMode: true,
    permissionDecisions: ALL_DECISIONS,
    askDeferOrRewriteBlocks: true,
    brokenEntryVoidsSource: true,
    requiredFields: { command_name: 'skill', command_source: 'projectSettings', invoked_by: 'user' },
  },
];

export const EVENTS: Readonly<Record<EventName, EventDef>> = Object.fromEntries(
  rows.map((row) => [row.name, row]),
) as Record<EventName, EventDef>;

/** Events about one tool call: their input carries tool_name and tool_input. */
export function isToolEvent(event: EventName): boolean {
  return EVENTS[event].matcherField === 'tool_name';
}

export function isStopEvent(event: EventName): boolean {
  return EVENTS[event].stopLike !== undefined;
}

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENTS, name);
}

/** The closest event name, for "did you mean" messages. */
export function suggestEvent(name: string): EventName | undefined {
  return closest(name, EVENT_NAMES);
}

/** The event named `name`; a PeriHooksError with the nearest name for anything else. */
export function checkEvent(name: string): EventName {
  if (isEventName(name)) return name;
  const suggestion = suggestEvent(name);
  throw new PeriHooksError(
    'unknown-event',
    `unknown hook event "${name}"${suggestion ? `; did you mean ${suggestion}?` : ''}`,
    'event names are case-sensitive; `peri-hooks fire --help` lists all 34',
  );
}

/** The event's hooks answer a permission question (permission and model-switch families): a block is a deny. */
export function answersWithPermission(event: EventName): boolean {
  const { family } = EVENTS[event];
  return family === 'permission' || family === 'modelSwitch';
}

/** Whether hooks of this event can block at all: where --fail-closed turns a failure of peri-hooks into a block. */
export function canBlock(name: string): boolean {
  return isEventName(name) && EVENTS[name].family !== 'observe';
}
