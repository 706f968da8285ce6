// Claude Code session transcripts (JSON lines): assistant lines carry `tool_use` blocks, user lines carry
// `tool_result` blocks (and `toolUseResult`, the tool's structured output). Every line carries sessionId,
// cwd, uuid, timestamp; user lines carry permissionMode. Lines that are not JSON objects, and tool blocks
// without their required fields, are reported with their line number and skipped.

export interface ToolResult {
  line: number;
  /** The `content` of the tool_result block: a string or content blocks, as the model saw it. */
  content: unknown;
  isError: boolean;
  /** The user line's `toolUseResult`: the tool's structured output, when Claude Code recorded it. */
  structured?: unknown;
}

export interface ToolCall {
  transcript: string;
  line: number;
  id: string;
  name: string;
  input: Record<string, unknown>;
  sessionId: string;
  cwd: string;
  permissionMode?: string;
  agentId?: string;
  timestamp?: string;
  result?: ToolResult;
}

export interface Malformed {
  transcript: string;
  line: number;
  message: string;
}

export interface Transcript {
  calls: ToolCall[];
  malformed: Malformed[];
}

type Line = Record<string, unknown>;

export function parseTranscript(text: string, transcript: string): Transcript {
  const calls: ToolCall[] = [];
  const byId = new Map<string, ToolCall>();
  const malformed: Malformed[] = [];
  let permissionMode: string | undefined;
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    if (raw.trim() === '') continue;
    const bad = (message: string) => malformed.push({ transcript, line, message });
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch (error) {
      bad(`not valid JSON: ${(error as Error).message}`);
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      bad('not a JSON object');
      continue;
    }
    const record = entry as Line;
    if (typeof record.permissionMode === 'string') permissionMode = record.permissionMode;
    const content = (record.message as Line | undefined)?.content;
    if (!Array.isArray(content)) continue;
    if (record.type === 'assistant') {
      for (const block of content as Line[]) {
        if (block?.type !== 'tool_use') continue;
        const { id, name, input } = block;
        if (
          typeof id !== 'string' ||
          typeof name !== 'string' ||
          typeof input !== 'object' ||
          input === null ||
          Array.isArray(input)
        ) {
          bad('a tool_use block without a string id, a string name and an object input');
          continue;
        }
        if (typeof record.sessionId !== 'string' || typeof record.cwd !== 'string') {
          bad('an assistant line with tool_use blocks but without sessionId or cwd');
          break;
        }
        const call: ToolCall = {
          transcript,
          line,
          id,
          name,
          input: input as Record<string, unknown>,
          sessionId: record.sessionId,
          cwd: record.cwd,
          ...(permissionMode !== undefined ? { permissionMode } : {}),
          ...(typeof record.agentId === 'string' && record.isSidechain === true ? { agentId: record.agentId } : {}),
          ...(typeof record.timestamp === 'string' ? { timestamp: record.timestamp } : {}),
        };
        calls.push(call);
        byId.set(id, call);
      }
    } else if (record.type === 'user') {
      for (const block of content as Line[]) {
        if (block?.type !== 'tool_result') continue;
        if (typeof block.tool_use_id !== 'string') {
          bad('a tool_result block without a string tool_use_id');
          continue;
        }
        const call = byId.get(block.tool_use_id);
        if (!call) continue;
        call.result = {
          line,
          content: block.content,
          isError: block.is_error === true,
          ...(record.toolUseResult !== undefined ? { structured: record.toolUseResult } : {}),
        };
      }
    }
  }
  return { calls, malformed };
}

/** The text of a tool_result's content: a string, or the text blocks joined. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content
    .map((block) =>
      typeof block === 'object' && block !== null && typeof (block as Line).text === 'string'
        ? ((block as Line).text as string)
        : '',
    )
    .filter(Boolean)
    .join('\n');
}
