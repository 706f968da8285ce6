// The wildcard test Claude Code applies to shell commands, Glob/Grep patterns and out-of-cwd file paths
// (spec §20.1 items 1, 14, 16): `*` matches anything, `/` and spaces included; `\*` is a literal star; when
// the only wildcard is a trailing ` *`, the argument part is optional, so `ls *` matches `ls` but not `lsof`.

const REGEX_SPECIAL = /[.+?^${}()|[\]\\]/g;

export function wildcardMatches(pattern: string, text: string, ignoreCase = false): boolean {
  return wildcardRegex(pattern, ignoreCase).test(text);
}

function wildcardRegex(pattern: string, ignoreCase = false): RegExp {
  let source = '';
  let stars = 0;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    const next = pattern[i + 1];
    if (char === '\\' && (next === '*' || next === '\\')) {
      source += `\\${next}`;
      i++;
    } else if (char === '*') {
      source += '.*';
      stars++;
    } else {
      source += char.replace(REGEX_SPECIAL, '\\$&');
    }
  }
  if (stars === 1 && source.endsWith(' .*')) source = `${source.slice(0, -3)}(?: .*)?`;
  return new RegExp(`^${source}$`, ignoreCase ? 'si' : 's');
}
