// Line and column for diagnostics. JSON.parse decides what is valid; this file only finds places in text
// that is already known to be valid (pointers) or known to be invalid (the first syntax error).
// jsonc-parser is imported lazily: a clean configuration never pays for it. It recurses, so it never sees a
// text nested past MAX_NESTING.
import type { Node } from 'jsonc-parser';
import { excessNesting } from './nesting.ts';

export interface Position {
  line: number;
  column: number;
}

/** 1-based line and column of a UTF-16 offset. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Where JSON.parse failed: V8 names the offset in most messages; otherwise ask jsonc-parser in strict mode. */
export async function syntaxErrorPosition(text: string, message: string): Promise<Position> {
  const named = /at position (\d+)/.exec(message);
  if (named) return positionAt(text, Number(named[1]));
  const tooDeep = excessNesting(text);
  if (tooDeep !== undefined) return positionAt(text, tooDeep);
  const { visit } = await import('jsonc-parser');
  let offset: number | undefined;
  visit(
    text,
    {
      onError: (_error, errorOffset) => {
        offset ??= errorOffset;
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  return positionAt(text, offset ?? text.length);
}

/**
 * Positions of JSON pointers in one valid JSON text. A pointer to a property gives the position of its key
 * (where a reader's eye goes); a pointer that does not exist (a missing field) falls back to its nearest
 * existing parent (the start of the text, when it is too deeply nested to read as a tree).
 */
export async function createLocator(text: string): Promise<(pointer: string) => Position> {
  const { parseTree } = await import('jsonc-parser');
  const root = excessNesting(text) === undefined ? parseTree(text, [], { disallowComments: true }) : undefined;
  return (pointer) => {
    const node = root ? find(root, pointer.split('/').slice(1).map(unescapeSegment)) : undefined;
    if (!node) return positionAt(text, 0);
    const at = node.parent?.type === 'property' ? node.parent : node;
    return positionAt(text, at.offset);
  };
}

function find(root: Node, segments: string[]): Node {
  let node = root;
  for (const segment of segments) {
    const next = child(node, segment);
    if (!next) break;
    node = next;
  }
  return node;
}

function child(node: Node, segment: string): Node | undefined {
  if (node.type === 'array') return /^\d+$/.test(segment) ? node.children?.[Number(segment)] : undefined;
  if (node.type !== 'object') return undefined;
  // JSON.parse keeps the last of duplicate keys, so do we.
  const property = node.children?.findLast((p) => p.children?.[0]?.value === segment);
  return property?.children?.[1];
}

function unescapeSegment(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** One JSON pointer segment (RFC 6901): `~` and `/` escaped. */
export function escapeSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}
