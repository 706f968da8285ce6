// Star globs without backtracking. A glob is its literal segments, one star between each two; a star matches
// any run of characters, newlines included. Greedy leftmost search is exact for such globs: the first segment
// is anchored at the start, the last at the end, and each middle one is taken at its first place after the one
// before it. So the work is one indexOf per segment, left to right (at worst text × pattern, usually linear),
// never the exponential backtracking of a `.*` regex.

/** Whether `text` matches the glob whose literal segments are `segments` (at least one). */
export function globMatches(segments: readonly string[], text: string, ignoreCase = false): boolean {
  const parts = ignoreCase ? segments.map(foldCase) : segments;
  const subject = ignoreCase ? foldCase(text) : text;
  const first = parts[0]!;
  if (parts.length === 1) return subject === first;
  const last = parts[parts.length - 1]!;
  const end = subject.length - last.length;
  if (end < first.length || !subject.startsWith(first) || !subject.endsWith(last)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = subject.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/**
 * Case folding as a JavaScript regex without the `u` flag does it (ECMA-262 Canonicalize): each UTF-16 unit
 * is upper-cased on its own, unless that gives several units or turns a non-ASCII unit into an ASCII one.
 */
function foldCase(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) return text.toUpperCase();
  let folded = '';
  for (let i = 0; i < text.length; i++) folded += foldUnit(text[i]!);
  return folded;
}

function foldUnit(unit: string): string {
  const upper = unit.toUpperCase();
  if (upper.length !== 1) return unit;
  if (unit.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128) return unit;
  return upper;
}
