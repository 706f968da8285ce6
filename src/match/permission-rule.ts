// The `if` field of a hook: one permission rule, matched the way Claude Code 2.1.332 does (spec §8.3, §20.1).
// Only the tools that define a permission matcher look at the specifier; for every other tool a specifier
// other than empty or `*` never matches, and tool names compare exactly, through legacy aliases only.
import { canonicalToolName } from './aliases.ts';
import { analyseBash, type ShellAnalysis } from './bash-parse.ts';
import { fileRuleMatches } from './file-rule.ts';
import { parseRule } from './rule-parse.ts';
import { analysePowerShell } from './rule-powershell.ts';
import { shellRuleMatches, shellSpecifierProblem } from './rule-shell.ts';
import { wildcardMatches } from './rule-wildcard.ts';

export interface ToolCall {
  toolName: string;
  toolInput: Record<string, unknown>;
  cwd: string;
  home: string;
}

export interface IfCheck {
  /** What Claude Code 2.1.332 decides: run the hook or skip it. */
  matches: boolean;
  /**
   * Set when the rule is malformed or can never match as written (Claude Code stays silent); peri-hooks
   * warns with this text. `matches` can still be true: a Bash full fallback fires even such rules.
   */
  malformed?: string;
}

interface ShellTool {
  kind: 'shell';
  analyse: (command: string, home: string) => ShellAnalysis;
  ignoreCase: boolean;
}
interface FileTool {
  kind: 'file';
  field: string;
}
interface PatternTool {
  kind: 'pattern';
}
type Matcher = ShellTool | FileTool | PatternTool;

/** The tools with a permission matcher (§20.1 item 16). Monitor runs a shell command, so it reads like Bash. */
const MATCHERS: Readonly<Record<string, Matcher>> = {
  Bash: { kind: 'shell', analyse: analyseBash, ignoreCase: false },
  Monitor: { kind: 'shell', analyse: analyseBash, ignoreCase: false },
  PowerShell: { kind: 'shell', analyse: analysePowerShell, ignoreCase: true },
  Read: { kind: 'file', field: 'file_path' },
  Edit: { kind: 'file', field: 'file_path' },
  Write: { kind: 'file', field: 'file_path' },
  NotebookEdit: { kind: 'file', field: 'notebook_path' },
  Glob: { kind: 'pattern' },
  Grep: { kind: 'pattern' },
};

/** rule is the raw `if` string. An empty string is "no condition" (matches). */
export function matchesIf(rule: string, call: ToolCall): IfCheck {
  if (rule === '') return { matches: true };
  const parsed = parseRule(rule);
  const tool = canonicalToolName(parsed.toolName);
  const matcher = MATCHERS[tool];
  const malformed = parsed.problem ?? specifierProblem(parsed.toolName, matcher, parsed.specifier);
  const matches =
    parsed.toolValid &&
    tool === canonicalToolName(call.toolName) &&
    (parsed.specifier === undefined || (matcher !== undefined && specifierMatches(matcher, parsed.specifier, call)));
  return malformed === undefined ? { matches } : { matches, malformed };
}

function specifierMatches(matcher: Matcher, specifier: string, call: ToolCall): boolean {
  const input = call.toolInput;
  switch (matcher.kind) {
    case 'shell':
      return (
        typeof input.command === 'string' &&
        shellRuleMatches(specifier, matcher.analyse(input.command, call.home), matcher.ignoreCase)
      );
    case 'file': {
      const file = input[matcher.field];
      return typeof file === 'string' && file !== '' && fileRuleMatches(specifier, file, call.cwd, call.home);
    }
    case 'pattern':
      return typeof input.pattern === 'string' && wildcardMatches(specifier, input.pattern);
  }
}

function specifierProblem(
  tool: string,
  matcher: Matcher | undefined,
  specifier: string | undefined,
): string | undefined {
  if (specifier === undefined) return undefined;
  if (matcher === undefined) {
    return `"${tool}(${specifier})" never matches: Claude Code 2.1.332 checks \`if\` specifiers only for ${Object.keys(MATCHERS).join(', ')}; use "${tool}" alone`;
  }
  if (matcher.kind === 'shell') {
    const problem = shellSpecifierProblem(specifier);
    if (problem !== undefined) return `"${tool}(${specifier})": ${problem}`;
  }
  return undefined;
}
