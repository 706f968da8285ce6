// Codex's apply_patch envelope (`*** Begin Patch` … `*** End Patch`) as one Claude Code file tool call per file:
// an added file is a Write with its content, an updated one an Edit (its hunks' old and new lines joined), a
// move an Edit of the old path and a Write of the new, a deleted file a Write of empty content (Claude Code has
// no delete tool; a policy guarding the file with an Edit|Write matcher sees it).
//
// The text is read as Codex reads it (codex-rs/apply-patch/src/parser.rs, lenient mode): the patch trimmed, a
// hunk header trimmed of Unicode blanks (a tab or NBSP before `*** Delete File:` is still a header), `+` lines
// of an added file up to the first other line, an update's chunks up to a line starting with `*`. Text Codex
// would refuse is refused here too, so that no file of a patch Codex applies goes unseen by the policy.
import path from 'node:path';

export interface FileCall {
  tool: 'Write' | 'Edit';
  input: Record<string, unknown>;
  /** The patch operation it came from. */
  kind: 'Add' | 'Update' | 'Delete';
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARKER = '*** End of File';
/** Codex's heredoc wrappers of the lenient mode. */
const HEREDOC = new Set(['<<EOF', "<<'EOF'", '<<"EOF"']);

/** Rust's str::trim: Unicode White_Space (NBSP and NEL included, U+FEFF not), which JS's trim does not match. */
function trim(text: string): string {
  return text.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '');
}

type Hunk =
  | { kind: 'add'; path: string; lines: string[] }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; old: string[]; new: string[] };

class PatchError extends Error {}

/** The calls of a patch, or why Codex would not apply it as peri-hooks reads it. */
export function patchCalls(text: string, cwd: string): { calls: FileCall[] } | { error: string } {
  let hunks: Hunk[];
  try {
    hunks = parsePatch(envelope(text));
  } catch (error) {
    if (!(error instanceof PatchError)) throw error;
    return { error: `holds apply_patch text Codex would not apply as written (${error.message})` };
  }
  if (hunks.length === 0)
    return { error: 'holds no file of an apply_patch envelope (*** Begin Patch, *** Add/Update/Delete File:)' };
  const file = (name: string) => path.resolve(cwd, name);
  return {
    calls: hunks.flatMap((hunk): FileCall[] => {
      // Codex ends every added line with a newline, the last one too.
      if (hunk.kind === 'add')
        return [
          {
            kind: 'Add',
            tool: 'Write',
            input: { file_path: file(hunk.path), content: hunk.lines.map((line) => `${line}\n`).join('') },
          },
        ];
      if (hunk.kind === 'delete')
        return [{ kind: 'Delete', tool: 'Write', input: { file_path: file(hunk.path), content: '' } }];
      const edit: FileCall = {
        kind: 'Update',
        tool: 'Edit',
        input: { file_path: file(hunk.path), old_string: hunk.old.join('\n'), new_string: hunk.new.join('\n') },
      };
      return hunk.moveTo === undefined
        ? [edit]
        : [edit, { kind: 'Add', tool: 'Write', input: { file_path: file(hunk.moveTo), content: hunk.new.join('\n') } }];
    }),
  };
}

/**
 * The lines of the envelope: the whole text when it is one (or Codex's heredoc form of one); inside a shell
 * command (`apply_patch <<'EOF' … EOF`), the lines from `*** Begin Patch` to `*** End Patch`.
 */
function envelope(text: string): string[] {
  const lines = rustLines(trim(text));
  const framed = (candidate: string[]) =>
    candidate.length >= 2 && trim(candidate[0]!) === BEGIN && trim(candidate.at(-1)!) === END;
  if (framed(lines)) return lines;
  if (lines.length >= 4 && HEREDOC.has(lines[0]!) && lines.at(-1)!.endsWith('EOF') && framed(lines.slice(1, -1)))
    return lines.slice(1, -1);
  const begin = lines.findIndex((line) => trim(line) === BEGIN);
  const end = lines.findLastIndex((line) => trim(line) === END);
  if (begin < 0 && end < 0) return [];
  if (begin < 0 || end <= begin)
    throw new PatchError(begin < 0 ? `no '${BEGIN}' line` : `no '${END}' line after '${BEGIN}'`);
  return lines.slice(begin, end + 1);
}

/** Rust's str::lines: split at \n, a \r before it dropped. */
function rustLines(text: string): string[] {
  return text === '' ? [] : text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function parsePatch(lines: string[]): Hunk[] {
  const body = lines.slice(1, -1);
  const hunks: Hunk[] = [];
  for (let at = 0; at < body.length; ) at += parseHunk(body, at, hunks);
  return hunks;
}

/** The hunk at `lines[at]` (line at + 2 of the patch) into `hunks`; the lines it took. */
function parseHunk(lines: readonly string[], at: number, hunks: Hunk[]): number {
  const number = at + 2;
  const header = trim(lines[at]!);
  if (header.startsWith(ADD)) {
    let end = at + 1;
    while (end < lines.length && lines[end]!.startsWith('+')) end++;
    hunks.push({
      kind: 'add',
      path: header.slice(ADD.length),
      lines: lines.slice(at + 1, end).map((line) => line.slice(1)),
    });
    return end - at;
  }
  if (header.startsWith(DELETE)) {
    hunks.push({ kind: 'delete', path: header.slice(DELETE.length) });
    return 1;
  }
  if (!header.startsWith(UPDATE)) {
    throw new PatchError(
      `line ${number}: ${JSON.stringify(header)} is not a hunk header (*** Add File:, *** Delete File:, *** Update File:)`,
    );
  }
  const hunk: Hunk & { kind: 'update' } = { kind: 'update', path: header.slice(UPDATE.length), old: [], new: [] };
  let end = at + 1;
  if (lines[end]?.startsWith(MOVE)) hunk.moveTo = lines[end++]!.slice(MOVE.length);
  let chunks = 0;
  while (end < lines.length) {
    const line = lines[end]!;
    if (trim(line) === '') {
      end++;
      continue;
    }
    if (line.startsWith('*')) break;
    end += parseChunk(lines, end, chunks === 0, hunk);
    chunks++;
  }
  if (chunks === 0) throw new PatchError(`line ${number}: the update of '${hunk.path}' is empty`);
  hunks.push(hunk);
  return end - at;
}

/** The chunk of an update at `lines[at]` (`@@` context, then ` `, `-`, `+` lines); the lines it took. */
function parseChunk(
  lines: readonly string[],
  at: number,
  first: boolean,
  hunk: { old: string[]; new: string[] },
): number {
  const number = at + 2;
  const start = lines[at] === '@@' || lines[at]!.startsWith('@@ ') ? 1 : 0;
  if (start === 0 && !first)
    throw new PatchError(`line ${number}: ${JSON.stringify(lines[at])} should start a chunk with @@`);
  if (at + start >= lines.length) throw new PatchError(`line ${number + start}: a chunk without lines`);
  let taken = 0;
  for (let i = at + start; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === EOF_MARKER) {
      if (taken === 0) throw new PatchError(`line ${number + start}: a chunk without lines`);
      taken++;
      break;
    }
    const sign = line[0];
    if (sign !== undefined && sign !== ' ' && sign !== '+' && sign !== '-') {
      if (taken === 0)
        throw new PatchError(`line ${number + start}: ${JSON.stringify(line)} is not a context, removed or added line`);
      break;
    }
    if (sign !== '+') hunk.old.push(line.slice(1));
    if (sign !== '-') hunk.new.push(line.slice(1));
    taken++;
  }
  return taken + start;
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
  const lines = (text: string, mark: string) =>
    text === ''
      ? []
      : text
          .replace(/\n$/, '')
          .split('\n')
          .map((line) => `${mark}${line}`);
  let body: string[];
  if (typeof call.content === 'string') {
    body =
      kind === 'Delete' && call.content === ''
        ? [`*** Delete File: ${name}`]
        : [`*** Add File: ${name}`, ...lines(call.content, '+')];
  } else if (typeof call.old_string === 'string' && typeof call.new_string === 'string') {
    body = [`*** Update File: ${name}`, '@@', ...lines(call.old_string, '-'), ...lines(call.new_string, '+')];
  } else {
    return undefined;
  }
  return ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
}
