// A host payload → a Claude Code hook input, by the host's table: the field map, the tool-name map, tool_input
// field renames, and the fields Claude Code always sends filled where the host has no equivalent.
import path from 'node:path';
import { PeriHooksError } from '../errors.ts';
import { EVENTS, isToolEvent } from '../events.ts';
import { fillRequired } from '../input/build.ts';
import type { HostDef } from './table.ts';
import type { HostEventDef, LineRange, ToolDef } from './types.ts';

export type Payload = Record<string, unknown>;

/** The value at a dot path (`workspace_roots.0`, `tool_info.cwd`), or undefined. */
export function at(payload: unknown, dotPath: string): unknown {
  let value = payload;
  for (const key of dotPath.split('.'))
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** The first of the host's paths for a Claude Code field that the payload holds. */
export function field(host: HostDef, payload: Payload, name: string): unknown {
  const path = fieldPath(host, payload, name);
  return path === undefined ? undefined : at(payload, path);
}

/** Which of the host's paths for a Claude Code field the payload holds (for messages naming it). */
function fieldPath(host: HostDef, payload: Payload, name: string): string | undefined {
  return (host.fields[name] ?? []).find((candidate) => {
    const value = at(payload, candidate);
    return value !== undefined && value !== null;
  });
}

/** A malformed host payload: the host, the event and the field, never a silent allow. */
export function malformed(host: HostDef, hostEvent: string, where: string, problem: string): PeriHooksError {
  return new PeriHooksError(
    'invalid-input',
    `the ${host.title} ${hostEvent} payload ${problem} at ${where}`,
    `send the payload as ${host.title} writes it to a hook (peri-hooks fire --host ${host.name} ${hostEvent} < payload.json)`,
  );
}

/**
 * A host's tool call as a Claude Code one: the mapped name, and tool_input with Claude Code's field names. The
 * field the agent acts on is its own: a Claude Code name beside it (`path: ".env"` next to `file_path:
 * "notes.txt"`) with another value would have the policy judge what the agent ignores, so it is refused.
 */
export function claudeTool(
  host: HostDef,
  hostEvent: string,
  name: string,
  input: Record<string, unknown>,
  cwd: string,
): { name: string; input: Record<string, unknown>; hostInput?: Record<string, unknown> } {
  const def: ToolDef | undefined = host.tools[name];
  const renamed: Record<string, unknown> = { ...input };
  for (const [claude, hosts] of Object.entries(def?.fields ?? {})) {
    if (!(hosts in renamed)) continue;
    refuseTwoValues(host, hostEvent, name, renamed, hosts, claude, renamed[hosts]);
    renamed[claude] = renamed[hosts];
    delete renamed[hosts];
  }
  const tool = def?.tool ?? name;
  const nulls = def?.nullIsAbsent ? Object.keys(renamed).filter((field) => renamed[field] === null) : [];
  for (const field of nulls) delete renamed[field];
  const lines = def?.lines;
  const ranged = lines && (lines.start in renamed || (lines.end !== undefined && lines.end in renamed));
  const pair = def?.linePair !== undefined && def.linePair in renamed ? def.linePair : undefined;
  const read = ranged
    ? readRange(host, hostEvent, name, lines, renamed)
    : pair !== undefined
      ? readPair(host, hostEvent, name, pair, renamed)
      : renamed;
  return {
    name: tool,
    input: absolutePath(tool, read, cwd),
    ...(ranged || pair !== undefined || nulls.length > 0 ? { hostInput: input } : {}),
  };
}

/** The agent acts on its own field: Claude Code's name beside it with another value is refused. */
function refuseTwoValues(
  host: HostDef,
  hostEvent: string,
  tool: string,
  input: Record<string, unknown>,
  hostField: string,
  claudeField: string,
  claudeValue: unknown,
): void {
  if (!(claudeField in input) || JSON.stringify(input[claudeField]) === JSON.stringify(claudeValue)) return;
  throw malformed(
    host,
    hostEvent,
    toolInputPath(host),
    `gives ${tool} both ${hostField} (${clip(input[hostField])}), which ${host.title} acts on, and ${claudeField} (${clip(input[claudeField])}), Claude Code's name for it, with another value`,
  );
}

/**
 * A host's line numbers as Claude Code's Read: `offset` the first line, 1-based, `limit` how many lines (from line
 * 1 without a start). Gemini CLI's start_line, end_line (1-based, inclusive) become both; Qwen Code's offset
 * (0-based) becomes offset + 1, its limit is Read's. A range Read cannot say is refused.
 */
function readRange(
  host: HostDef,
  hostEvent: string,
  tool: string,
  lines: LineRange,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const where = toolInputPath(host);
  const first = lines.firstLine ?? 1;
  /** A host line number as a 1-based one. */
  const line = (name: string | undefined): number | undefined => {
    const value = name === undefined ? undefined : input[name];
    if (value === undefined) return undefined;
    if (Number.isInteger(value) && (value as number) >= first) return (value as number) - first + 1;
    const article = /^[aeiou]/.test(name as string) ? 'an' : 'a';
    throw malformed(
      host,
      hostEvent,
      where,
      `has ${article} ${name} that is not a line number (${clip(value)}) for its ${tool} call`,
    );
  };
  const start = line(lines.start);
  const end = line(lines.end);
  if (start !== undefined && end !== undefined && end < start)
    throw malformed(
      host,
      hostEvent,
      where,
      `has ${lines.end} ${input[lines.end as string]} before ${lines.start} ${input[lines.start]} for its ${tool} call`,
    );
  const result = { ...input };
  const claude: Array<[string, string | undefined, number | undefined]> = [
    ['offset', lines.start, start],
    ['limit', lines.end, end === undefined ? undefined : end - (start ?? 1) + 1],
  ];
  for (const [claudeField, hostField, value] of claude) {
    if (value === undefined || hostField === undefined) continue;
    // Under its own name (Qwen's offset) the host's value is the one converted, not a second one.
    if (hostField !== claudeField) refuseTwoValues(host, hostEvent, tool, input, hostField, claudeField, value);
    delete result[hostField];
    result[claudeField] = value;
  }
  return result;
}

/** A `[first, last]` line range in one argument (Copilot CLI's view_range) as Read's `offset` and `limit`. */
function readPair(
  host: HostDef,
  hostEvent: string,
  tool: string,
  field: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const value = input[field];
  const line = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 1;
  const [start, end] = Array.isArray(value) ? value : [];
  if (
    !Array.isArray(value) ||
    value.length > 2 ||
    (value.length > 0 && !line(start)) ||
    (value.length > 1 && end !== -1 && !(line(end) && end >= start))
  )
    throw malformed(
      host,
      hostEvent,
      toolInputPath(host),
      `has a ${field} that is not a line range (${clip(value)}) for its ${tool} call: [first, last] from line 1, the last -1 for the end of the file`,
    );
  const { [field]: _range, ...result } = input;
  const read: Array<[string, number | undefined]> = [
    ['offset', start],
    ['limit', end === undefined || end === -1 ? undefined : end - start + 1],
  ];
  for (const [claudeField, claudeValue] of read) {
    refuseTwoValues(host, hostEvent, tool, input, field, claudeField, claudeValue);
    if (claudeValue !== undefined) result[claudeField] = claudeValue;
  }
  return result;
}

/** Where a host's payload holds the tool's input, as a JSON path for errors. */
function toolInputPath(host: HostDef): string {
  return `$.${host.fields.tool_input?.[0] ?? 'tool_input'}`;
}

function clip(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * The field each Claude Code tool acts on: a call without it as a non-empty string is not one a policy can judge
 * (an empty command or path is what a content policy allows), so it is refused, whichever host sent it.
 */
export const ACTS_ON: Readonly<Record<string, string>> = {
  Bash: 'command',
  PowerShell: 'command',
  Write: 'file_path',
  Edit: 'file_path',
  Read: 'file_path',
};

/** The events that decide whether a call runs: there a call without the field it acts on is refused. */
const BEFORE_THE_CALL: ReadonlySet<string> = new Set(['PreToolUse', 'PermissionRequest']);

function requireActedOn(
  host: HostDef,
  hostEvent: string,
  tool: { name: string; input: Record<string, unknown>; hostName?: string; from?: string },
): void {
  const name = ACTS_ON[tool.name];
  if (name === undefined) return;
  const value = tool.input[name];
  if (typeof value === 'string' && value !== '') return;
  const hostField = (tool.hostName === undefined ? undefined : host.tools[tool.hostName]?.fields?.[name]) ?? name;
  const where = tool.from ?? `${toolInputPath(host)}.${hostField}`;
  throw malformed(
    host,
    hostEvent,
    where,
    value === undefined || value === ''
      ? `has no ${hostField} for its ${tool.name} call`
      : `has a ${hostField} that is not a string (${clip(value)}) for its ${tool.name} call`,
  );
}

/** Besides file_path, the field that names where a Claude Code tool acts: the folder (or file) Grep and Glob search. */
const PATH_FIELDS: Readonly<Record<string, string>> = { Grep: 'path', Glob: 'path' };

/**
 * Claude Code's file tools carry absolute paths, and path rules (`if`) read them so. A list of paths (Copilot's
 * `paths`) is resolved each; the host module makes one call of each.
 */
function absolutePath(tool: string, input: Record<string, unknown>, cwd: string): Record<string, unknown> {
  const resolve = (value: unknown) =>
    typeof value === 'string' && value !== '' && !path.isAbsolute(value) ? path.resolve(cwd, value) : value;
  const result = { ...input };
  for (const name of ['file_path', PATH_FIELDS[tool]]) {
    if (name === undefined || !(name in result)) continue;
    const value = result[name];
    result[name] = Array.isArray(value) ? value.map(resolve) : resolve(value);
  }
  return result;
}

/** A rewritten Claude Code tool_input in the host tool's own field names (the inverse of claudeTool). */
export function hostToolInput(
  host: HostDef,
  hostTool: string | undefined,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const def = hostTool === undefined ? undefined : host.tools[hostTool];
  const renamed: Record<string, unknown> = { ...input };
  for (const [claude, hosts] of Object.entries(def?.fields ?? {})) {
    if (claude in renamed) {
      renamed[hosts] = renamed[claude];
      delete renamed[claude];
    }
  }
  if (def?.lines) return hostRange(def.lines, renamed);
  return def?.linePair ? hostPair(def.linePair, renamed) : renamed;
}

/** Read's `offset` and `limit` as the host's `[first, last]` (-1: to the end of the file). */
function hostPair(field: string, input: Record<string, unknown>): Record<string, unknown> {
  const { offset, limit, ...result } = input;
  const number = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  if (!number(offset) && !number(limit)) return input;
  const start = number(offset) ? Math.max(offset, 1) : 1;
  result[field] = [start, number(limit) ? start + limit - 1 : -1];
  // A value Read does not take stays for the host to refuse.
  if (offset !== undefined && !number(offset)) result.offset = offset;
  if (limit !== undefined && !number(limit)) result.limit = limit;
  return result;
}

/** Read's `offset` and `limit` as the host's line numbers (offset 0 is line 1, as in Claude Code). */
function hostRange(lines: LineRange, input: Record<string, unknown>): Record<string, unknown> {
  const { offset, limit, ...result } = input;
  const number = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  if (!number(offset) && !number(limit)) return input;
  /** A 1-based line number in the host's numbering. */
  const host = (line: number): number => line - 1 + (lines.firstLine ?? 1);
  const start = number(offset) ? Math.max(offset, 1) : undefined;
  if (start !== undefined) result[lines.start] = host(start);
  else if (offset !== undefined) result.offset = offset;
  if (number(limit) && lines.end !== undefined) result[lines.end] = host((start ?? 1) + limit - 1);
  else if (limit !== undefined) result.limit = limit;
  return result;
}

/** A tool input that may come as JSON text (Copilot's toolArgs, Cursor's MCP tool_input); text that is not JSON is malformed, never `{}`. */
export function toolInputObject(
  host: HostDef,
  hostEvent: string,
  value: unknown,
  where: string,
): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw malformed(host, hostEvent, where, 'has a tool input that is text but not JSON');
    }
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  throw malformed(host, hostEvent, where, 'has a tool input that is not an object');
}

/** A tool call a host module built: the Claude Code tool, the host's name for it, and where the field it acts on came from. */
export interface HostToolCall {
  name: string;
  input: Record<string, unknown>;
  hostName?: string;
  /** The payload path of the field the tool acts on, when the module took it from outside the tool input. */
  from?: string;
  /** The agent's own tool input, where a value was converted or dropped, not only renamed (a line range, a null). */
  hostInput?: Record<string, unknown>;
}

/**
 * The Claude Code input: the mapped fields, then every field Claude Code always sends (defaulted where the host
 * has none), and `peri_hooks_host` naming where it came from. `tool` overrides the payload's own tool call.
 */
export function claudeInput(
  host: HostDef,
  hostEvent: string,
  def: HostEventDef,
  payload: Payload,
  tool?: HostToolCall,
): Record<string, unknown> {
  const event = def.event;
  const cwdValue = field(host, payload, 'cwd');
  const cwd = typeof cwdValue === 'string' && cwdValue !== '' ? cwdValue : process.cwd();
  const input: Record<string, unknown> = {};
  for (const name of Object.keys(host.fields)) {
    const value = field(host, payload, name);
    if (value !== undefined) input[name] = typeof value === 'string' ? (host.values?.[name]?.[value] ?? value) : value;
  }
  const sessionId = input.session_id;
  Object.assign(input, {
    session_id: typeof sessionId === 'string' && sessionId !== '' ? sessionId : `${host.name}-session`,
    transcript_path: typeof input.transcript_path === 'string' ? input.transcript_path : '',
    cwd,
    hook_event_name: event,
  });
  if (isToolEvent(event)) {
    const hostName = tool?.hostName ?? def.tool ?? input.tool_name;
    if (tool === undefined && typeof hostName !== 'string')
      throw malformed(host, hostEvent, `$.${host.fields.tool_name?.[0] ?? 'tool_name'}`, 'has no tool name');
    const mapped = tool
      ? { ...tool, input: absolutePath(tool.name, tool.input, cwd) }
      : {
          ...claudeTool(
            host,
            hostEvent,
            hostName as string,
            toolInputObject(
              host,
              hostEvent,
              input.tool_input,
              `$.${fieldPath(host, payload, 'tool_input') ?? 'tool_input'}`,
            ),
            cwd,
          ),
          hostName: hostName as string,
        };
    // Before the call runs, an empty command or path is what a content policy lets through; after it (the tool ran or
    // failed, as an agent's rewrite may make it fail), there is nothing to let through, and its context still counts.
    if (BEFORE_THE_CALL.has(event)) requireActedOn(host, hostEvent, mapped);
    input.tool_name = mapped.name;
    input.tool_input = mapped.input;
    if (!EVENTS[event].withoutToolUseId)
      input.tool_use_id = typeof input.tool_use_id === 'string' ? input.tool_use_id : '';
    else delete input.tool_use_id;
    input.peri_hooks_host = {
      name: host.name,
      event: hostEvent,
      ...(typeof hostName === 'string' ? { tool_name: hostName } : {}),
      ...(mapped.hostInput ? { tool_input: mapped.hostInput } : {}),
      ...kept(host, payload),
    };
  } else {
    input.peri_hooks_host = { name: host.name, event: hostEvent, ...kept(host, payload) };
  }
  requirePrompt(host, hostEvent, input);
  return fillRequired(event, input);
}

/** The payload fields only this host sends (its table's `keep`), as `{fields}`; nothing when it sent none. */
function kept(host: HostDef, payload: Payload): { fields?: Record<string, unknown> } {
  const fields = Object.fromEntries(
    (host.keep ?? []).map((name) => [name, at(payload, name)]).filter(([, value]) => value !== undefined),
  );
  return Object.keys(fields).length > 0 ? { fields } : {};
}

/** A prompt is the one required field no default stands in for. */
function requirePrompt(host: HostDef, hostEvent: string, input: Record<string, unknown>): void {
  if (input.hook_event_name === 'UserPromptSubmit' && typeof input.prompt !== 'string')
    throw malformed(host, hostEvent, `$.${host.fields.prompt?.[0] ?? 'prompt'}`, 'has no prompt text');
}
