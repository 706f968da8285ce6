// Raw outcome + event -> one hook's result (spec §6.1, §6.2, §6.3, §6.4, §10.4). Pure: one parser for every
// hook type, since http responses and model answers arrive in the same raw shape as a process.
import * as z from 'zod';
import { EVENTS, type EventName, type PermissionDecision } from './events.ts';
import type { HookHandler } from './config/schema.ts';
import type { RawOutcome } from './types.ts';

/** Every way one hook's run can end: the report's `outcome`, and what a test case may expect of a hook. */
export const OUTCOMES = ['success', 'blocking', 'non_blocking_error', 'cancelled'] as const;
export type OutcomeKind = (typeof OUTCOMES)[number];

export interface HookResult {
  outcome: OutcomeKind;
  /** How a blocking result blocked: by exit code 2, by its JSON, or by `onFailure: "block"`. */
  blockedBy?: 'exit2' | 'json' | 'onFailure';
  blockingMessage?: string;
  /** Message of a non-blocking error (or of the failure that onFailure turned into a block). */
  error?: string;
  /** The hook's JSON output, when it printed valid JSON. */
  json?: HookOutput;
  /** Validated `hookSpecificOutput` fields honoured for this event. */
  specific?: Record<string, unknown>;
  /** Plain stdout on exit 0 (trimmed), for events that read plain text. */
  plainText?: string;
  permission?: PermissionDecision;
  permissionReason?: string;
  /** True when the hook's answer came as JSON (Claude Code renders JSON and exit-code answers differently). */
  answeredInJson: boolean;
}

// Built on first use: a firing whose hooks do not match never parses hook output.
function buildHookOutputSchema() {
  return z.looseObject({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    decision: z.enum(['approve', 'block']).optional(),
    reason: z.string().optional(),
    terminalSequence: z.string().optional(),
    hookSpecificOutput: z.looseObject({ hookEventName: z.string() }).optional(),
    async: z.boolean().optional(),
    asyncTimeout: z.number().optional(),
  });
}
export type HookOutput = z.infer<ReturnType<typeof buildHookOutputSchema>>;

let outputSchema: ReturnType<typeof buildHookOutputSchema> | undefined;
/** The hook output JSON schema (cached). */
export function hookOutputSchema(): ReturnType<typeof buildHookOutputSchema> {
  return (outputSchema ??= buildHookOutputSchema());
}

/** Schemas of every hookSpecificOutput field; each event honours the subset named in its catalogue row. */
function buildSpecificFieldSchemas(): Record<string, z.ZodType> {
  const permissionUpdate = z.looseObject({ type: z.string() });
  return {
    permissionDecisionReason: z.string(),
    updatedInput: z.record(z.string(), z.unknown()),
    additionalContext: z.string(),
    classifierContext: z.string(),
    updatedToolOutput: z.unknown(),
    updatedMCPToolOutput: z.unknown(),
    sessionTitle: z.string(),
    suppressOriginalPrompt: z.boolean(),
    initialUserMessage: z.string(),
    watchPaths: z.array(z.string()),
    reloadSkills: z.boolean(),
    retry: z.boolean(),
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z.record(z.string(), z.unknown()),
    worktreePath: z.string(),
    displayContent: z.string(),
    decision: z.discriminatedUnion('behavior', [
      z.looseObject({ behavior: z.literal('allow'), updatedInput: z.record(z.string(), z.unknown()).optional(), updatedPermissions: z.array(permissionUpdate).optional() }),
      z.looseObject({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() }),
    ]),
  };
}
let specificFieldSchemas: Record<string, z.ZodType> | undefined;
const permissionDecisionSchemas = new Map<EventName, z.ZodType>();

/** permissionDecision takes the values of the event's catalogue row (PreModelSwitch has no `defer`, §6.4). */
function permissionDecisionSchema(event: EventName): z.ZodType {
  let schema = permissionDecisionSchemas.get(event);
  if (!schema) {
    schema = z.enum(EVENTS[event].permissionDecisions!);
    permissionDecisionSchemas.set(event, schema);
  }
  return schema;
}

/** Background limit of a hook that printed `{"async": true}` without `asyncTimeout` (§10.1). */
export const DEFAULT_ASYNC_TIMEOUT_MS = 15_000;

/** A first stdout line `{"async": true, "asyncTimeout"?: ms}` moves the hook to the background (§6.2). */
export function asyncMarker(firstLine: string): { asyncTimeoutMs: number } | undefined {
  const text = firstLine.trim();
  if (!text.startsWith('{') || !text.endsWith('}')) return undefined;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (value === null || typeof value !== 'object' || value.async !== true) return undefined;
    const timeout = value.asyncTimeout;
    return { asyncTimeoutMs: typeof timeout === 'number' && timeout > 0 ? timeout : DEFAULT_ASYNC_TIMEOUT_MS };
  } catch {
    return undefined;
  }
}

/** The output after the async marker line: what the hook answers once it has finished in the background. */
function withoutAsyncMarker(stdout: string): string {
  const newline = stdout.indexOf('\n');
  const first = newline < 0 ? stdout : stdout.slice(0, newline);
  return asyncMarker(first) ? stdout.slice(first.length + 1) : stdout;
}

const MISSING_SCRIPT = /no such file|can't open/i;

/** Exit 2 with no stdout and a "no such file" stderr is a missing script, not a block, where the event says so (§6.1). */
function isMissingScript(event: EventName, fromPlugin: boolean, stdout: string, stderr: string): boolean {
  const rule = EVENTS[event].missingScriptIsError;
  const applies = rule === 'anyHook' || (rule === 'pluginHooks' && fromPlugin);
  return applies && stdout.trim() === '' && MISSING_SCRIPT.test(stderr);
}

type ParsedStdout =
  | { kind: 'json'; output: HookOutput; specific?: Record<string, unknown>; specificError?: string }
  | { kind: 'invalid'; error: string }
  | { kind: 'plain'; text: string };

/** Reads stdout as Claude Code does: JSON only when the trimmed text starts with `{` and ends with `}`. */
export function parseStdout(event: EventName, stdout: string): ParsedStdout {
  const text = stdout.trim();
  if (!text.startsWith('{') || !text.endsWith('}')) return { kind: 'plain', text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    if (lines.length > 1 && lines.every(isJsonLine)) return { kind: 'plain', text };
    return { kind: 'invalid', error: 'hook output looks like a JSON object but is not valid JSON' };
  }
  const parsed = hookOutputSchema().safeParse(value);
  if (!parsed.success) return { kind: 'invalid', error: `hook JSON output failed validation: ${describeIssue(parsed.error)}` };
  const output = parsed.data;
  if (!output.hookSpecificOutput) return { kind: 'json', output };
  if (output.hookSpecificOutput.hookEventName !== event) {
    // A mismatched name drops only the nested object (a decision: block alongside still counts, §6.3).
    return { kind: 'json', output, specificError: `hookSpecificOutput.hookEventName is "${output.hookSpecificOutput.hookEventName}" but the event is ${event}; the nested output was ignored` };
  }
  // A wrong-typed field fails the schema of the whole output (§6.2).
  const specific = validateSpecific(event, output.hookSpecificOutput);
  if (typeof specific === 'string') return { kind: 'invalid', error: `hook JSON output failed validation: ${specific}` };
  return { kind: 'json', output, specific };
}

function isJsonLine(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** The schema of one `hookSpecificOutput` field of an event, as parsing checks it (and `schema output` publishes it). */
export function specificFieldSchema(event: EventName, field: string): z.ZodType {
  return field === 'permissionDecision' ? permissionDecisionSchema(event) : (specificFieldSchemas ??= buildSpecificFieldSchemas())[field]!;
}

function validateSpecific(event: EventName, nested: Record<string, unknown>): Record<string, unknown> | string {
  const specific: Record<string, unknown> = {};
  for (const field of EVENTS[event].specificFields) {
    if (nested[field] === undefined) continue;
    const schema = specificFieldSchema(event, field);
    const result = schema.safeParse(nested[field]);
    if (!result.success) return `hookSpecificOutput.${field}: ${describeIssue(result.error, `hookSpecificOutput.${field}`)}`;
    specific[field] = result.data;
  }
  return specific;
}

function describeIssue(error: z.ZodError, prefix?: string): string {
  const issue = error.issues[0]!;
  const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** What Claude Code adds to an mcp_tool hook's onFailure block, after `blocking because onFailure is "block"` (§20.4.4). */
const MCP_NO_USABLE_ANSWER = ' and the hook got no usable answer from its MCP server. The user needs to fix the cause (in a session, /mcp shows the server\'s state) or ask whoever manages the hook; Claude should not change the hook or work around it.';

export interface ClassifyOptions {
  event: EventName;
  handler: HookHandler;
  /** Short name of the hook for messages: its command, URL or prompt. */
  label: string;
  /** The hook comes from a plugin (a missing plugin script on UserPromptSubmit does not block). */
  fromPlugin?: boolean;
}

/** One hook's raw outcome -> its result. Every rule of §6.1 and §10.4 lives here. */
export function classify(raw: RawOutcome, { event, handler, label, fromPlugin }: ClassifyOptions): HookResult {
  const blocksOnFailure = onFailureBlocks(event, handler);
  // Claude Code's words: what happened, then on a line of its own why (stderr, the refusal, the error).
  const failure = (error: string, what: 'failed' | 'timed out', detail?: string): HookResult => blocksOnFailure
    ? { outcome: 'blocking', blockedBy: 'onFailure', error, blockingMessage: `[${label}]: ${what}; blocking because onFailure is "block"${handler.type === 'mcp_tool' ? MCP_NO_USABLE_ANSWER : ''}${detail ? `\n${detail}` : ''}`, answeredInJson: false }
    : { outcome: 'non_blocking_error', error, answeredInJson: false };

  if (raw.timedOut) {
    const error = raw.error ?? `hook timed out and was cancelled: ${label}`;
    if (blocksOnFailure) return failure(error, 'timed out');
    return { outcome: 'cancelled', error, answeredInJson: false };
  }
  if (raw.error !== undefined) return failure(raw.error, 'failed', raw.failureDetail ?? raw.error);

  const stdout = withoutAsyncMarker(raw.stdout);
  const parsed = parseStdout(event, stdout);
  const stderr = raw.stderr.trim();
  const exitCode = raw.exitCode;

  if (exitCode === 2) {
    if (isMissingScript(event, fromPlugin === true, stdout, stderr)) {
      return { outcome: 'non_blocking_error', error: `hook script is missing: ${stderr}`, answeredInJson: false };
    }
    // Exit 2 blocks; JSON on stdout is still applied and its block reason replaces stderr.
    const base: HookResult = { outcome: 'blocking', blockedBy: 'exit2', blockingMessage: stderr || 'No stderr output', answeredInJson: false };
    if (parsed.kind !== 'json') return parsed.kind === 'invalid' ? { ...base, error: parsed.error } : base;
    const fromJson = applyJson(event, parsed, !EVENTS[event].exit2IgnoresSpecificOutput);
    const jsonReason = fromJson.outcome === 'blocking' ? fromJson.blockingMessage : undefined;
    return { ...fromJson, ...base, blockingMessage: jsonReason ?? base.blockingMessage, ...(parsed.specificError ? { error: parsed.specificError } : {}) };
  }

  if (parsed.kind === 'invalid') return failure(parsed.error, 'failed', parsed.error);
  if (parsed.kind === 'json') {
    if (parsed.specificError && !(parsed.output.decision === 'block')) return failure(parsed.specificError, 'failed', parsed.specificError);
    return applyJson(event, parsed, true);
  }
  if (exitCode === 0) return { outcome: 'success', ...(parsed.text ? { plainText: parsed.text } : {}), answeredInJson: false };
  return failure(`Failed with non-blocking status code ${exitCode ?? 'unknown'}: ${stderr || 'No stderr output'}`, 'failed', stderr || 'No stderr output');
}

function applyJson(event: EventName, parsed: Extract<ParsedStdout, { kind: 'json' }>, keepSpecific: boolean): HookResult {
  const { output } = parsed;
  const specific = keepSpecific ? parsed.specific : undefined;
  const result: HookResult = { outcome: 'success', json: output, answeredInJson: true, ...(specific ? { specific } : {}) };
  const family = EVENTS[event].family;
  if (family === 'permission' || family === 'modelSwitch') {
    const decision = specific?.permissionDecision as PermissionDecision | undefined
      ?? (output.decision === 'block' ? 'deny' : output.decision === 'approve' && EVENTS[event].approveMeansAllow ? 'allow' : undefined);
    if (decision) {
      result.permission = decision;
      const reason = (specific?.permissionDecisionReason as string | undefined) ?? output.reason;
      if (reason !== undefined) result.permissionReason = reason;
    }
    if (decision === 'deny') {
      return { ...result, outcome: 'blocking', blockedBy: 'json', blockingMessage: result.permissionReason ?? 'Blocked by hook' };
    }
    return result;
  }
  if (output.decision === 'block') {
    return { ...result, outcome: 'blocking', blockedBy: 'json', blockingMessage: output.reason ?? 'Blocked by hook' };
  }
  return result;
}

/** `onFailure: "block"` (§10.4): mcp_tool reads anything but "continue" as block; some events ignore it. */
export function onFailureBlocks(event: EventName, handler: HookHandler): boolean {
  if (EVENTS[event].ignoresOnFailure) return false;
  if (handler.type === 'command') return handler.onFailure === 'block' && !handler.async && !handler.asyncRewake;
  if (handler.type === 'http') return handler.onFailure === 'block';
  if (handler.type === 'mcp_tool') return handler.onFailure !== undefined && handler.onFailure !== 'continue';
  return false;
}
