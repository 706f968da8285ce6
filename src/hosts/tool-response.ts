// Claude Code's tool_response per tool, built from what another agent reports of a call: hooks written for
// Claude Code read `tool_response.stdout`, `.filePath`, `.file.content`, so an agent's own result (a text, an
// object of its own) is turned into these where Claude Code defines the tool's shape.

type Input = Record<string, unknown>;

export function bashResponse(stdout: string, stderr: string): Record<string, unknown> {
  return { stdout, stderr, interrupted: false, isImage: false };
}

/** Write's answer; `original` is the file before (null: it did not exist). */
export function writeResponse(
  input: Input,
  file: { filePath?: unknown; content?: unknown; original?: string | null } = {},
) {
  const original = file.original ?? null;
  return {
    type: original === null || original === '' ? 'create' : 'update',
    filePath: file.filePath ?? input.file_path,
    content: file.content ?? input.content,
    structuredPatch: [],
    ...(file.original !== undefined ? { originalFile: original === '' ? null : original } : {}),
  };
}

/** Edit's answer; `original` is the file before, where the agent says it. */
export function editResponse(input: Input, file: { filePath?: unknown; original?: string | null } = {}) {
  return {
    filePath: file.filePath ?? input.file_path,
    oldString: input.old_string,
    newString: input.new_string,
    ...(file.original !== undefined ? { originalFile: file.original } : {}),
    structuredPatch: [],
    userModified: false,
    replaceAll: input.replace_all === true,
  };
}

/**
 * Read's answer: the text the agent read, as the file's content, from the line the call's `offset` names; the
 * file's length where the agent says it, else what was read.
 */
export function readResponse(input: Input, text: string, totalLines?: number): Record<string, unknown> {
  const lines = text === '' ? 0 : text.split('\n').length;
  const offset = input.offset;
  const startLine = Number.isInteger(offset) && (offset as number) >= 1 ? (offset as number) : 1;
  return {
    type: 'text',
    file: { filePath: input.file_path, content: text, numLines: lines, startLine, totalLines: totalLines ?? lines },
  };
}
