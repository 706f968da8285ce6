// Splits an `if` string into tool name and specifier the way Claude Code 2.1.332 does (spec §20.1 item 17):
// the tool name is everything before the first unescaped `(`, the specifier runs to the last unescaped `)`,
// which must end the string. Nothing is trimmed, so stray spaces leave a tool name that matches no tool.

export interface ParsedRule {
  /** The tool part as written (a whole malformed string when it has no usable `Tool(...)` shape). */
  toolName: string;
  /** Undefined for a bare tool, `Tool()` and `Tool(*)`, which match every call of the tool. */
  specifier?: string;
  /** Why the rule can never match as intended; peri-hooks warns with it. */
  problem?: string;
  /** False when the tool part itself is unusable: such a rule matches nothing, not even in a fallback. */
  toolValid: boolean;
}

const TOOL_NAME = /^[A-Za-z0-9_-]+$/;
const LOOKS_LIKE_SECOND_RULE = /\)[\s,|&]*[A-Za-z_][\w-]*\(/;

export function parseRule(rule: string): ParsedRule {
  const open = indexOfUnescaped(rule, '(', 'first');
  if (open === -1) return bareTool(rule);
  const close = indexOfUnescaped(rule, ')', 'last');
  if (close !== rule.length - 1 || close < open) {
    return {
      toolName: rule,
      toolValid: false,
      problem: `"${rule}" is not one rule of the form Tool or Tool(specifier): the closing parenthesis must end it`,
    };
  }
  const toolName = rule.slice(0, open);
  if (!TOOL_NAME.test(toolName)) {
    return {
      toolName: rule,
      toolValid: false,
      problem: `"${rule}" has no valid tool name before "(" (${describeToolProblem(toolName)})`,
    };
  }
  const raw = rule.slice(open + 1, close);
  const problem = specifierProblem(raw);
  const specifier = raw === '' || raw === '*' ? undefined : unescapeParens(raw);
  return {
    toolName,
    toolValid: true,
    ...(specifier === undefined ? {} : { specifier }),
    ...(problem ? { problem: `"${rule}": ${problem}` } : {}),
  };
}

function bareTool(rule: string): ParsedRule {
  if (TOOL_NAME.test(rule)) return { toolName: rule, toolValid: true };
  return {
    toolName: rule,
    toolValid: false,
    problem: `"${rule}" is not one rule of the form Tool or Tool(specifier) (${describeToolProblem(rule)})`,
  };
}

function describeToolProblem(name: string): string {
  if (name === '') return 'the tool name is empty';
  if (/^\s|\s$/.test(name)) return 'spaces around the tool name are not trimmed';
  if (/[,|]/.test(name)) return 'lists of tools are not supported; use one hook per rule or the group matcher';
  if (name.includes('*')) return 'tool names take no wildcards; use the group matcher';
  return `"${name}" is not a tool name`;
}

/** Claude Code still parses these (so a Bash full fallback fires them), but they never match as written. */
function specifierProblem(raw: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '\\') i++;
    else if (raw[i] === '(') depth++;
    else if (raw[i] === ')' && --depth < 0) break;
  }
  if (depth < 0 && LOOKS_LIKE_SECOND_RULE.test(raw))
    return '`if` takes exactly one rule; lists and `||` are not supported';
  if (depth !== 0) return 'the specifier has unbalanced parentheses (escape literal ones as \\( and \\))';
  if (raw.trim() === ':*') return 'the legacy `:*` form needs a command prefix before it';
  return undefined;
}

function indexOfUnescaped(text: string, char: string, which: 'first' | 'last'): number {
  let found = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === char) {
      found = i;
      if (which === 'first') return i;
    }
  }
  return found;
}

function unescapeParens(raw: string): string {
  return raw.replace(/\\([()])/g, '$1');
}
