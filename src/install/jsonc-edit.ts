// Edits of a JSON-with-comments settings file that touch only the text they change: a member is added after the
// last one (its comma right after that member, the member on a line of its own, after any comment there), removed
// with its own line, or a value replaced in place. Every other byte stays as it was, so an uninstall gives back
// the file as it was before the install. jsonc-parser's own modify() re-formats the whole lines it touches.
import { createScanner, getNodeValue, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { positionAt } from '../config/locate.ts';
import { excessNesting, MAX_NESTING } from '../config/nesting.ts';
import { PeriHooksError } from '../errors.ts';

export type { Node };

/** One indentation level and the line break of the file; two spaces and \n for a new one. */
interface Style {
  unit: string;
  eol: string;
}

/** The file's tree; a file that does not parse is never edited: the error names it and the place. */
export function parseSettings(file: string, text: string): Node {
  const tooDeep = excessNesting(text);
  if (tooDeep !== undefined) {
    const { line, column } = positionAt(text, tooDeep);
    throw new PeriHooksError(
      'invalid-json',
      `${file} nests arrays and objects more than ${MAX_NESTING} levels deep at line ${line}, column ${column}; nothing was changed`,
      'flatten or remove the value that goes that deep: settings need only a few levels',
    );
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
  const [first] = errors;
  if (first) {
    const { line, column } = positionAt(text, first.offset);
    const what = printParseErrorCode(first.error)
      .replace(/(?<=[a-z])(?=[A-Z])/g, ' ')
      .toLowerCase();
    throw new PeriHooksError(
      'invalid-json',
      `${file} does not parse: ${what} at line ${line}, column ${column}; nothing was changed`,
      `fix the file (comments are fine, trailing commas are not), then run the command again`,
    );
  }
  if (root?.type !== 'object')
    throw new PeriHooksError(
      'invalid-json',
      `${file} must hold one JSON object; nothing was changed`,
      'write { } into it, or remove the file',
    );
  const twice = duplicateKey(root);
  if (twice) {
    const [first, last] = twice.map((node) => positionAt(text, node.offset).line);
    throw new PeriHooksError(
      'invalid-json',
      `${file} has the key ${JSON.stringify(twice[0].value)} twice in one object (lines ${first} and ${last}): Claude Code reads only the last, so an edit of either could be the one it ignores; nothing was changed`,
      'merge the two into one key, then run the command again',
    );
  }
  return root;
}

/** The first key an object of the tree holds twice (its two key nodes), as JSON.parse silently keeps the last. */
function duplicateKey(node: Node | undefined): [Node, Node] | undefined {
  const keys = new Map<unknown, Node>();
  for (const member of node?.children ?? []) {
    const key = node!.type === 'object' ? member.children?.[0] : undefined;
    if (key) {
      const earlier = keys.get(key.value);
      if (earlier) return [earlier, key];
      keys.set(key.value, key);
    }
    const twice = duplicateKey(key ? member.children?.[1] : member);
    if (twice) return twice;
  }
  return undefined;
}

/** The tree of a text that may not parse (a backup, say): what parses of it, or undefined. */
export function looseTree(text: string): Node | undefined {
  return parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
}

/** Whether two texts differ in blanks and line breaks only: the same tokens and comments, in the same order. */
export function sameTokens(a: string, b: string): boolean {
  const tokens = (text: string) => {
    const scanner = createScanner(text, false);
    const found: string[] = [];
    // jsonc-parser's SyntaxKind is a const enum, out of reach here: 17 EOF, 14 a line break, 15 blanks.
    for (let kind: number = scanner.scan(); kind !== 17; kind = scanner.scan()) {
      if (kind !== 14 && kind !== 15)
        found.push(text.slice(scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength()));
    }
    return found;
  };
  const [left, right] = [tokens(a), tokens(b)];
  return left.length === right.length && left.every((token, i) => token === right[i]);
}

/** The value node of an object's property `key`, or of an array's element `key`. */
export function child(node: Node | undefined, key: string | number): Node | undefined {
  if (!node?.children) return undefined;
  if (node.type === 'array') return typeof key === 'number' ? node.children[key] : undefined;
  return node.children.find((property) => property.children?.[0]?.value === key)?.children?.[1];
}

export function nodeValue(node: Node): unknown {
  return getNodeValue(node);
}

/** Adds `value` as the last element of an array, or as the last property `key` of an object. */
export function append(text: string, container: Node, value: unknown, key?: string): string {
  const style = styleOf(text);
  const children = container.children ?? [];
  const containerIndent = lineIndent(text, container.offset);
  const close = container.offset + container.length - 1;
  const last = children.at(-1);
  const label = key === undefined ? '' : `${JSON.stringify(key)}: `;
  const multiLine = (indent: string) =>
    `${label}${JSON.stringify(value, null, style.unit)
      .split('\n')
      .join(style.eol + indent)}`;
  if (!last) {
    const indent = containerIndent + style.unit;
    const inner = text.slice(container.offset + 1, close);
    if (inner.includes('\n'))
      return splice(text, lineStart(text, close), 0, `${indent}${multiLine(indent)}${style.eol}`);
    return splice(
      text,
      container.offset + 1,
      inner.trim() === '' ? inner.length : 0,
      `${style.eol}${indent}${multiLine(indent)}${style.eol}${containerIndent}`,
    );
  }
  const lastEnd = last.offset + last.length;
  if (!text.slice(container.offset, close).includes('\n'))
    return splice(text, lastEnd, 0, `, ${label}${JSON.stringify(value)}`);
  const indent = startsLine(text, last.offset) ? lineIndent(text, last.offset) : containerIndent + style.unit;
  const lineEnd = endOfLine(text, lastEnd);
  if (lineEnd === undefined) return splice(text, lastEnd, 0, `,${style.eol}${indent}${multiLine(indent)}`);
  return splice(splice(text, lineEnd, 0, `${style.eol}${indent}${multiLine(indent)}`), lastEnd, 0, ',');
}

/**
 * Removes an element of an array or a property of an object (`node` is the property or the element), with the
 * line it stands on and the comma that separated it. The only member of a container leaves it empty.
 */
export function remove(text: string, node: Node): string {
  const siblings = node.parent!.children!;
  const index = siblings.indexOf(node);
  const start = node.offset;
  const end = node.offset + node.length;
  if (siblings.length === 1) {
    const container = node.parent!;
    const inner = [container.offset + 1, container.offset + container.length - 1] as const;
    if ((text.slice(inner[0], start) + text.slice(end, inner[1])).trim() === '')
      return splice(text, inner[0], inner[1] - inner[0], '');
    const from = startsLine(text, start) ? lineBreakBefore(text, start) : start;
    return splice(text, from, end - from, '');
  }
  if (index < siblings.length - 1) {
    const next = siblings[index + 1]!;
    const from = startsLine(text, start) ? lineStart(text, start) : start;
    const to = startsLine(text, next.offset) ? lineStart(text, next.offset) : next.offset;
    return splice(text, from, to - from, '');
  }
  const previous = siblings[index - 1]!;
  const comma = skipTrivia(text, previous.offset + previous.length, true);
  const from = startsLine(text, start) ? lineBreakBefore(text, start) : comma;
  const removed = splice(text, from, end - from, '');
  return from === comma ? removed : splice(removed, comma, 1, '');
}

/** Writes `value` where `node` is, indented as the line it starts on. */
export function replace(text: string, node: Node, value: unknown): string {
  const style = styleOf(text);
  const indent = lineIndent(text, node.offset);
  return splice(
    text,
    node.offset,
    node.length,
    JSON.stringify(value, null, style.unit)
      .split('\n')
      .join(style.eol + indent),
  );
}

/** The first indented line sets the unit; a file with none gets two spaces. */
function styleOf(text: string): Style {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  return {
    unit: indent === undefined ? '  ' : indent.startsWith('\t') ? '\t' : indent,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

function splice(text: string, offset: number, length: number, content: string): string {
  return text.slice(0, offset) + content + text.slice(offset + length);
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineIndent(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];
}

function startsLine(text: string, offset: number): boolean {
  return text.slice(lineStart(text, offset), offset).trim() === '';
}

/** Where the line break before `offset`'s line begins (its \r of a \r\n). */
function lineBreakBefore(text: string, offset: number): number {
  const start = lineStart(text, offset);
  return text[start - 2] === '\r' ? start - 2 : start - 1;
}

/** After blanks and comments, the line break that ends the line of `offset`; undefined when a token comes first. */
function endOfLine(text: string, offset: number): number | undefined {
  const at = skipTrivia(text, offset, false);
  return text[at] === '\n' || text.startsWith('\r\n', at) ? at : undefined;
}

/** The offset of the next token after `offset`: blanks and comments skipped, and line breaks too when `lines`. */
function skipTrivia(text: string, offset: number, lines: boolean): number {
  let at = offset;
  for (;;) {
    const blank = (lines ? /^\s+/ : /^[ \t]+/).exec(text.slice(at))?.[0];
    if (blank) {
      at += blank.length;
    } else if (text.startsWith('/*', at)) {
      at = text.indexOf('*/', at + 2) + 2;
    } else if (text.startsWith('//', at)) {
      const newline = text.slice(at).search(/\r?\n/);
      at = newline < 0 ? text.length : at + newline;
    } else {
      return at;
    }
  }
}
