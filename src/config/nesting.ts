// How deep a JSON text nests, found before anything parses it. JSON.parse copes with any depth, but
// jsonc-parser (diagnostic positions), JSON.stringify (dedup keys, reports) and our own walkers recurse, and a
// file nested a few thousand levels deep overflows their stack. Hook settings need a handful of levels.

export const MAX_NESTING = 128;

/**
 * The offset of the first `[` or `{` nested more than MAX_NESTING levels deep, or undefined. Strings and
 * comments are read as jsonc-parser's scanner reads them, and a bracket closes only its own kind, so no text,
 * valid or not, nests deeper for jsonc-parser than counted here.
 */
export function excessNesting(text: string): number | undefined {
  const open: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') i = stringEnd(text, i);
    else if (char === '/' && text[i + 1] === '/') i = lineEnd(text, i);
    else if (char === '/' && text[i + 1] === '*') i = blockCommentEnd(text, i);
    else if (char === '[' || char === '{') {
      if (open.push(char) > MAX_NESTING) return i;
    } else if ((char === ']' && open.at(-1) === '[') || (char === '}' && open.at(-1) === '{')) open.pop();
  }
  return undefined;
}

/** The closing quote, or the line break or end that cuts an unterminated string short. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') i++;
    else if (char === '"') return i;
    else if (char === '\n' || char === '\r') return i - 1;
  }
  return text.length;
}

function lineEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i - 1;
}

function blockCommentEnd(text: string, start: number): number {
  const end = text.indexOf('*/', start + 2);
  return end === -1 ? text.length : end + 1;
}
