// Catastrophic backtracking, found by shape: a group that holds an unbounded quantifier and is itself repeated
// (`(a+)+`, `(\w*)*`, `(?:x+y?)+`). On a near-miss such a regex takes exponential time, and Claude Code tests
// the matcher on every tool call.

/** The offending part of `source` (e.g. `(a+)+`), or undefined when no group with a quantifier is repeated. */
export function nestedQuantifier(source: string): string | undefined {
  const open: Array<{ start: number; quantified: boolean }> = [];
  let closed: { start: number; quantified: boolean } | undefined;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      i++;
      closed = undefined;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    const length = unboundedQuantifierAt(source, i);
    if (length > 0) {
      if (closed?.quantified) return source.slice(closed.start, i + length);
      for (const group of open) group.quantified = true;
      i += length - 1;
      closed = undefined;
      continue;
    }
    closed = undefined;
    if (ch === '[') inClass = true;
    else if (ch === '(') open.push({ start: i, quantified: false });
    else if (ch === ')') closed = open.pop();
  }
  return undefined;
}

/** Length of `*`, `+` or `{n,}` / `{n,m}` with m > 1 at i (a lazy `?` included), else 0. */
function unboundedQuantifierAt(source: string, i: number): number {
  const ch = source[i];
  let length = 0;
  if (ch === '*' || ch === '+') length = 1;
  else if (ch === '{') {
    const braces = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
    if (braces && braces[2] !== undefined && (braces[3] === '' || Number(braces[3]) > 1)) length = braces[0].length;
  }
  if (length > 0 && source[i + length] === '?') length++;
  return length;
}
