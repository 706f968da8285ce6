// The wildcard test Claude Code applies to shell commands, Glob/Grep patterns and out-of-cwd file paths
// (spec §20.1 items 1, 14, 16): `*` matches anything, `/` and spaces included; `\*` is a literal star; when
// the only wildcard is a trailing ` *`, the argument part is optional, so `ls *` matches `ls` but not `lsof`.
// Matched as a glob (linear time): a rule or a command of any size cannot stall a firing.
import { globMatches } from './glob.ts';

export function wildcardMatches(pattern: string, text: string, ignoreCase = false): boolean {
  const segments = wildcardSegments(pattern);
  if (segments.length === 2 && segments[1] === '' && segments[0]!.endsWith(' ')) {
    const command = segments[0]!.slice(0, -1);
    if (globMatches([command], text, ignoreCase)) return true;
  }
  return globMatches(segments, text, ignoreCase);
}

/** The literal runs between unescaped stars; `\*` and `\\` stand for `*` and `\`, any other `\` is literal. */
function wildcardSegments(pattern: string): string[] {
  const segments = [''];
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    const next = pattern[i + 1];
    if (char === '\\' && (next === '*' || next === '\\')) {
      segments[segments.length - 1] += next;
      i++;
    } else if (char === '*') {
      segments.push('');
    } else {
      segments[segments.length - 1] += char;
    }
  }
  return segments;
}
