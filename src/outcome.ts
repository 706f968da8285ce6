// Raw outcome + event -> one hook's result (spec §6.1, §6.2, §6.3, §6.4, §10.4). Pure: one parser for every
// hook type, since http responses and model answers arrive in the same raw shape as a process.

import type { HookHandler } from './config/schema.ts';
import { answersWithPermission, EVENTS, type EventName, type PermissionDecision } from './events.ts';
import { DEFER, hookOutputCheck, permissionDecisionChecks, specificFieldChecks } from './generated/checks.ts';
import type { HookOutput } from './output/schema.ts';
import type { RawOutcome } from './types.ts';

export type { HookOutput } from './output/schema.ts';

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
  | { kind: 'plain'; text: string }
  /** JSON the generated checks cannot judge, while zod's schemas are not loaded (loadOutputSchemas). */
  | { kind: 'needsSchemas' };

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
  return (
    interpreted(event, value, generated) ??
    (zodChecks ? interpreted(event, value, zodChecks)! : { kind: 'needsSchemas' })
  );
}

function isJsonLine(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** How the output is checked: the generated checks, which defer (undefined) what they cannot accept, or zod's schemas. */
export interface OutputChecks {
  output(value: unknown): { data: HookOutput } | { error: string } | undefined;
  field(event: EventName, field: string, value: unknown): { data: unknown } | { error: string } | undefined;
}

const generated: OutputChecks = {
  output: (value) => accepted(hookOutputCheck(value)) as { data: HookOutput } | undefined,
  field: (event, field, value) =>
    accepted(
      (field === 'permissionDecision' ? permissionDecisionChecks[event] : specificFieldChecks[field])?.(value) ?? DEFER,
    ),
};
const accepted = (data: unknown) => (data === DEFER ? undefined : { data });

let zodChecks: OutputChecks | undefined;

/** Loads zod's hook output schemas, which word what is wrong with an output the generated checks do not accept. */
export async function loadOutputSchemas(): Promise<void> {
  zodChecks ??= (await import('./output/schema.ts')).ZOD_OUTPUT_CHECKS;
}

/** The same for a caller that has them loaded already (the library, which keeps classify synchronous). */
export function useOutputChecks(checks: OutputChecks): void {
  zodChecks = checks;
}

/** classify, loading zod's schemas first when the hook printed JSON that the generated checks do not accept. */
export async function classifyOutcome(raw: RawOutcome, options: ClassifyOptions): Promise<HookResult> {
  const result = judged(raw, options);
  if (result !== 'needsSchemas') return result;
  await loadOutputSchemas();
  return classify(raw, options);
}

/** The parsed output JSON as Claude Code reads it, or undefined where a check deferred. */
function interpreted(event: EventName, value: unknown, checks: OutputChecks): ParsedStdout | undefined {
  const parsed = checks.output(value);
  if (!parsed) return undefined;
  if ('error' in parsed) return { kind: 'invalid', error: `hook JSON output failed validation: ${parsed.error}` };
  const output = parsed.data;
  if (!output.hookSpecificOutput) return { kind: 'json', output };
  if (output.hookSpecificOutput.hookEventName !== event) {
    // A mismatched name drops only the nested object (a decision: block alongside still counts, §6.3).
    return {
      kind: 'json',
      output,
      specificError: `hookSpecificOutput.hookEventName is "${output.hookSpecificOutput.hookEventName}" but the event is ${event}; the nested output was ignored`,
    };
  }
  // A wrong-typed field fails the schema of the whole output (§6.2).
  const specific: Record<string, unknown> = {};
  for (const field of EVENTS[event].specificFields) {
    const nested = output.hookSpecificOutput as Record<string, unknown>;
    if (nested[field] === undefined) continue;
    const result = checks.field(event, field, nested[field]);
    if (!result) return undefined;
    if ('error' in result)
      return {
        kind: 'invalid',
        error: `hook JSON output failed validation: hookSpecificOutput.${field}: ${result.error}`,
      };
    specific[field] = result.data;
  }
  return { kind: 'json', output, specific };
}

/** What Claude Code adds to an mcp_tool hook's onFailure block, after `blocking because onFailure is "block"` (spec §20.4 item 4). */
const MCP_NO_USABLE_ANSWER =
  " and the hook got no usable answer from its MCP server. The user needs to fix the cause (in a session, /mcp shows the server's state) or ask whoever manages the hook; Claude should not change the hook or work around it.";

export interface ClassifyOptions {
  event: EventName;
  handler: HookHandler;
  /** Short name of the hook for messages: its command, URL or prompt. */
  label: string;
  /** The hook comes from a plugin (a missing plugin script on UserPromptSubmit does not block). */
  fromPlugin?: boolean;
}

/** One hook's raw outcome -> its result, for a caller that has zod's output schemas loaded (loadOutputSchemas). */
export function classify(raw: RawOutcome, options: ClassifyOptions): HookResult {
  const result = judged(raw, options);
  if (result === 'needsSchemas')
    throw new Error('the hook output schemas are not loaded: call loadOutputSchemas() first');
  return result;
}

/** One hook's raw outcome -> its result, or 'needsSchemas'. Every rule of §6.1 and §10.4 lives here. */
function judged(raw: RawOutcome, { event, handler, label, fromPlugin }: ClassifyOptions): HookResult | 'needsSchemas' {
  const blocksOnFailure = onFailureBlocks(event, handler);
  // Claude Code's words: what happened, then on a line of its own why (stderr, the refusal, the error).
  const failure = (error: string, what: 'failed' | 'timed out', detail?: string): HookResult =>
    blocksOnFailure
      ? {
          outcome: 'blocking',
          blockedBy: 'onFailure',
          error,
          blockingMessage: `[${label}]: ${what}; blocking because onFailure is "block"${handler.type === 'mcp_tool' ? MCP_NO_USABLE_ANSWER : ''}${detail ? `\n${detail}` : ''}`,
          answeredInJson: false,
        }
      : { outcome: 'non_blocking_error', error, answeredInJson: false };

  if (raw.timedOut) {
    const error = raw.error ?? `hook timed out and was cancelled: ${label}`;
    if (blocksOnFailure) return failure(error, 'timed out');
    return { outcome: 'cancelled', error, answeredInJson: false };
  }
  if (raw.error !== undefined) return failure(raw.error, 'failed', raw.failureDetail ?? raw.error);

  const stdout = withoutAsyncMarker(raw.stdout);
  const parsed = parseStdout(event, stdout);
  if (parsed.kind === 'needsSchemas') return parsed.kind;
  const stderr = raw.stderr.trim();
  const exitCode = raw.exitCode;

  if (exitCode === 2) {
    if (isMissingScript(event, fromPlugin === true, stdout, stderr)) {
      return { outcome: 'non_blocking_error', error: `hook script is missing: ${stderr}`, answeredInJson: false };
    }
    // Exit 2 blocks; JSON on stdout is still applied and its block reason replaces stderr.
    const base: HookResult = {
      outcome: 'blocking',
      blockedBy: 'exit2',
      blockingMessage: stderr || 'No stderr output',
      answeredInJson: false,
    };
    if (parsed.kind !== 'json') return parsed.kind === 'invalid' ? { ...base, error: parsed.error } : base;
    const fromJson = applyJson(event, parsed, !EVENTS[event].exit2IgnoresSpecificOutput);
    const jsonReason = fromJson.outcome === 'blocking' ? fromJson.blockingMessage : undefined;
    return {
      ...fromJson,
      ...base,
      blockingMessage: jsonReason ?? base.blockingMessage,
      ...(parsed.specificError ? { error: parsed.specificError } : {}),
    };
  }

  if (parsed.kind === 'invalid') return failure(parsed.error, 'failed', parsed.error);
  if (parsed.kind === 'json') {
    if (parsed.specificError && !(parsed.output.decision === 'block'))
      return failure(parsed.specificError, 'failed', parsed.specificError);
    return applyJson(event, parsed, true);
  }
  if (exitCode === 0)
    return { outcome: 'success', ...(parsed.text ? { plainText: parsed.text } : {}), answeredInJson: false };
  return failure(
    `Failed with non-blocking status code ${exitCode ?? 'unknown'}: ${stderr || 'No stderr output'}`,
    'failed',
    stderr || 'No stderr output',
  );
}

function applyJson(
  event: EventName,
  parsed: Extract<ParsedStdout, { kind: 'json' }>,
  keepSpecific: boolean,
): HookResult {
  const { output } = parsed;
  const specific = keepSpecific ? parsed.specific : undefined;
  const result: HookResult = {
    outcome: 'success',
    json: output,
    answeredInJson: true,
    ...(specific ? { specific } : {}),
  };
  if (answersWithPermission(event)) {
    const decision =
      (specific?.permissionDecision as PermissionDecision | undefined) ??
      (output.decision === 'block'
        ? 'deny'
        : output.decision === 'approve' && EVENTS[event].approveMeansAllow
          ? 'allow'
          : undefined);
    if (decision) {
      result.permission = decision;
      const reason = (specific?.permissionDecisionReason as string | undefined) ?? output.reason;
      if (reason !== undefined) result.permissionReason = reason;
    }
    if (decision === 'deny') {
      return {
        ...result,
        outcome: 'blocking',
        blockedBy: 'json',
        blockingMessage: result.permissionReason ?? 'Blocked by hook',
      };
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
