// Matches a Bash/PowerShell/Monitor specifier against an analysed command (spec §20.1 items 1-8).
import type { ShellAnalysis } from './bash-parse.ts';
import { wildcardMatches } from './rule-wildcard.ts';

/** `x *` and `x:*` with a one-word `x`: the only rules still checked in the partial fallback. */
const SINGLE_WORD_PREFIX = /^([^\s*]+)(?: \*|:\*)$/;

/** Claude Code tolerates extra blanks in the rule: `Bash( ls *)` and `Bash(ls  *)` act as `Bash(ls *)`. */
function normaliseShellSpecifier(specifier: string): string {
  return specifier.replace(/[ \t]+/g, ' ').trim();
}

export function shellRuleMatches(specifier: string, analysis: ShellAnalysis, ignoreCase = false): boolean {
  const spec = normaliseShellSpecifier(specifier);
  if (analysis.grade === 'full') return true;
  if (analysis.grade === 'partial') {
    const word = SINGLE_WORD_PREFIX.exec(spec)?.[1];
    if (word === undefined) return true;
    return analysis.names.some((name) => (ignoreCase ? name.toLowerCase() === word.toLowerCase() : name === word));
  }
  return analysis.commands.some((command) => commandMatches(spec, command, ignoreCase));
}

function commandMatches(spec: string, command: string, ignoreCase: boolean): boolean {
  if (!spec.endsWith(':*')) return wildcardMatches(spec, command, ignoreCase);
  // Legacy `prefix:*`: the prefix as a whole word, like `prefix *` (§20.1 item 1).
  const prefix = spec.slice(0, -2);
  if (prefix === '') return false;
  const [head, subject] = ignoreCase ? [prefix.toLowerCase(), command.toLowerCase()] : [prefix, command];
  return subject === head || subject.startsWith(`${head} `);
}

/** Rule shapes that Claude Code accepts but that can never match a parsed command. */
export function shellSpecifierProblem(specifier: string): string | undefined {
  const spec = normaliseShellSpecifier(specifier);
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(spec)) {
    return 'Claude Code strips VAR=value prefixes from commands, so a rule that spells one never matches';
  }
  return undefined;
}
