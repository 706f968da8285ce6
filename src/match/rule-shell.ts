// Matches a Bash/PowerShell/Monitor specifier against an analysed command (spec §20.1 items 1-8, §20.3
// items 23-24).
import type { ShellAnalysis } from './bash-parse.ts';
import { wildcardMatches } from './rule-wildcard.ts';

/** `word:*`, with a blank-free word: in the partial fallback, a prefix test on each command. */
const PARTIAL_PREFIX = /^([^ \t]+):\*$/;
/** A word without blanks or wildcards, at most one blank, a final `*`: in the partial fallback, a wildcard test. */
const PARTIAL_WILDCARD = /^[^ \t*?[]+[ \t]?\*$/;

/**
 * Claude Code trims a rule and reads a run of blanks as one space (`Bash( ls *)` acts as `Bash(ls *)`),
 * except a legacy `prefix:*` rule, which it takes literally.
 */
function normaliseShellSpecifier(specifier: string): string {
  return specifier.endsWith(':*') ? specifier : specifier.replace(/[ \t]+/g, ' ').trim();
}

export function shellRuleMatches(specifier: string, analysis: ShellAnalysis, ignoreCase = false): boolean {
  if (analysis.grade === 'full') return true;
  if (analysis.grade === 'partial') return partialFallbackMatches(specifier, analysis.commands, ignoreCase);
  const spec = normaliseShellSpecifier(specifier);
  return analysis.commands.some((command) => commandMatches(spec, command, ignoreCase));
}

/** Only two rule shapes, judged as written, are tested; every other rule fires (§20.3 item 24). */
function partialFallbackMatches(specifier: string, commands: readonly string[], ignoreCase: boolean): boolean {
  if (PARTIAL_PREFIX.test(specifier)) return commands.some((command) => commandMatches(specifier, command, ignoreCase));
  if (!PARTIAL_WILDCARD.test(specifier)) return true;
  const spec = specifier.replace('\t', ' ');
  return commands.some((command) => wildcardMatches(spec, command, ignoreCase));
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
