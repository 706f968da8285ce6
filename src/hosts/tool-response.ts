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

/** Read's answer: the text the agent read, as the file's content. */
export function readResponse(input: Input, text: string): Record<string, unknown> {
  const lines = text === '' ? 0 : text.split('\n').length;
  return {
    type: 'text',
    file: { filePath: input.file_path, content: text, numLines: lines, startLine: 1, totalLines: lines },
  };
}
