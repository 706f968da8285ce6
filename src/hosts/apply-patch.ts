// Codex's apply_patch envelope (`*** Begin Patch` … `*** End Patch`) as one Claude Code file tool call per file:
// an added file is a Write with its content, an updated one an Edit (its hunks' old and new lines joined), a
// move an Edit of the old path and a Write of the new, a deleted file a Write of empty content (Claude Code has
// no delete tool; a policy guarding the file with an Edit|Write matcher sees it).
import path from 'node:path';

export interface FileCall {
  tool: 'Write' | 'Edit';
  input: Record<string, unknown>;
  /** The patch operation it came from. */
  kind: 'Add' | 'Update' | 'Delete';
}

const HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/;

/** The calls of a patch; undefined when the text is not an apply_patch envelope. */
export function patchCalls(patch: string, cwd: string): FileCall[] | undefined {
  const lines = patch.replace(/\r\n/g, '\n').split('\n');
  const start = lines.findIndex((line) => line.trim() === '*** Begin Patch');
  if (start < 0) return undefined;
  const calls: FileCall[] = [];
  const file = (name: string) => path.resolve(cwd, name.trim());
  for (let i = start + 1; i < lines.length; i++) {
    const header = HEADER.exec(lines[i]!);
    if (!header) continue;
    const [, kind, name] = header;
    const body: string[] = [];
    let moveTo: string | undefined;
    for (i++; i < lines.length && !HEADER.test(lines[i]!) && lines[i]!.trim() !== '*** End Patch'; i++) {
      const line = lines[i]!;
      if (line.startsWith('*** Move to: ')) moveTo = line.slice('*** Move to: '.length);
      else if (line !== '*** End of File') body.push(line);
    }
    i--;
    if (kind === 'Add') {
      // Codex ends every added line with a newline, the last one too.
      calls.push({ kind, tool: 'Write', input: { file_path: file(name!), content: body.filter((line) => line.startsWith('+')).map((line) => `${line.slice(1)}\n`).join('') } });
    } else if (kind === 'Delete') {
      calls.push({ kind, tool: 'Write', input: { file_path: file(name!), content: '' } });
    } else {
      const { oldText, newText } = hunks(body);
      calls.push({ kind: 'Update', tool: 'Edit', input: { file_path: file(name!), old_string: oldText, new_string: newText } });
      if (moveTo !== undefined) calls.push({ kind: 'Add', tool: 'Write', input: { file_path: file(moveTo), content: newText } });
    }
  }
  return calls;
}

/** The old and the new side of an update's hunks: context lines on both, `-` lines on the old, `+` on the new. */
function hunks(body: readonly string[]): { oldText: string; newText: string } {
  const before: string[] = [];
  const after: string[] = [];
  for (const line of body) {
    if (line.startsWith('@@')) continue;
    if (line.startsWith('-')) before.push(line.slice(1));
    else if (line.startsWith('+')) after.push(line.slice(1));
    else {
      before.push(line.slice(1));
      after.push(line.slice(1));
    }
  }
  return { oldText: before.join('\n'), newText: after.join('\n') };
}

/**
 * A rewritten Claude Code file call as the apply_patch envelope Codex takes back (`{command: <patch>}`): a Write
 * adds the file (deletes it where the call was a delete and the content stays empty), an Edit replaces its
 * old lines with its new ones. Paths inside cwd become relative, as Codex writes them.
 */
export function patchOf(call: Record<string, unknown>, kind: FileCall['kind'], cwd: string): string | undefined {
  const file = typeof call.file_path === 'string' ? call.file_path : undefined;
  if (file === undefined) return undefined;
  const relative = path.relative(cwd, path.resolve(cwd, file));
  const name = relative.startsWith('..') || path.isAbsolute(relative) ? path.resolve(cwd, file) : relative;
  const lines = (text: string, mark: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n').map((line) => `${mark}${line}`));
  let body: string[];
  if (typeof call.content === 'string') {
    body = kind === 'Delete' && call.content === '' ? [`*** Delete File: ${name}`] : [`*** Add File: ${name}`, ...lines(call.content, '+')];
  } else if (typeof call.old_string === 'string' && typeof call.new_string === 'string') {
    body = [`*** Update File: ${name}`, '@@', ...lines(call.old_string, '-'), ...lines(call.new_string, '+')];
  } else {
    return undefined;
  }
  return ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
}
