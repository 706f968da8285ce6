// A case's hook input: sensible common fields (shaped like Claude Code 2.1.332's real payloads), the
// `tool` / `toolInput` / `toolResponse` shorthands, then the case's own `input` (a file or inline) on top.
// `${CLAUDE_PROJECT_DIR}` in any string of those stands for the case's project folder, because Claude Code
// sends absolute paths and a case file cannot know where it is checked out.
import { homedir } from 'node:os';
import path from 'node:path';
import type { EventName } from '../events.ts';
import { buildInput } from '../input/build.ts';
import { sha256Hex } from '../platform/hash.ts';

export interface ExpandSource {
  event: EventName;
  /** Seeds the session and tool-use ids, so that a case sends the same input on every run. */
  key: string;
  projectDir: string;
  home?: string;
  tool?: string;
  toolInput?: Record<string, unknown>;
  toolResponse?: unknown;
  input?: Record<string, unknown>;
}

export function expandInput(source: ExpandSource): Record<string, unknown> {
  const { event, projectDir } = source;
  const digest = sha256Hex(source.key);
  const sessionId = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-4${digest.slice(13, 16)}-8${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
  const home = source.home ?? homedir();
  // A partial input that names its tool gets the generated tool fields (tool_use_id, …) too, as the shorthand does.
  const own = source.input ?? {};
  const toolName = source.tool ?? (typeof own.tool_name === 'string' ? own.tool_name : undefined);
  const toolInput = source.toolInput ?? (isObject(own.tool_input) ? own.tool_input : {});
  const input = buildInput({
    event,
    sessionId,
    // Where Claude Code keeps the transcript of a session in this project (the file need not exist).
    transcriptPath: path.join(
      home,
      '.claude',
      'projects',
      projectDir.replace(/[^a-zA-Z0-9]/g, '-'),
      `${sessionId}.jsonl`,
    ),
    cwd: projectDir,
    permissionMode: 'default',
    ...(toolName !== undefined
      ? {
          tool: {
            name: toolName,
            input: withProjectDir(toolInput, projectDir),
            useId: `toolu_${digest.slice(32, 56)}`,
          },
        }
      : {}),
    ...(source.toolResponse !== undefined ? { toolResponse: withProjectDir(source.toolResponse, projectDir) } : {}),
  });
  return { ...input, ...withProjectDir(own, projectDir) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withProjectDir<T>(value: T, projectDir: string): T {
  if (typeof value === 'string') return value.replaceAll('${CLAUDE_PROJECT_DIR}', projectDir) as T;
  if (Array.isArray(value)) return value.map((item) => withProjectDir(item, projectDir)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withProjectDir(item, projectDir)])) as T;
  }
  return value;
}
