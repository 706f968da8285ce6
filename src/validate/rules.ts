// The lint rules of `peri-hooks validate`, as data: a code, a severity, what it finds, and a check. Each rule
// reads the event catalogue and the same matcher, `if` and dedup code that `fire` uses, so a rule cannot
// disagree with what would happen. Severity: error = the hook never runs (or always fails); warning = it runs,
// but not as the author likely meant.
import { readFile, stat } from 'node:fs/promises';
import type { LintCode } from '../config/codes.ts';
import type { ServerCatalogue } from '../config/mcp/servers.ts';
import { EVENTS, type EventName, type Family } from '../events.ts';
import { canonicalToolName, LEGACY_TOOL_ALIASES } from '../match/aliases.ts';
import { matchesMatcher } from '../match/matcher.ts';
import { matchesIf } from '../match/permission-rule.ts';
import { identity } from '../plan.ts';
import { closest } from '../platform/suggest.ts';
import type { LoadedHook, Severity } from '../types.ts';
import { blockingExitOne, languageOf } from './exit-one.ts';
import { mcpServerRule } from './mcp-servers.ts';
import { programProblem, scriptOf } from './program.ts';
import { unquotedPathVariables } from './quoting.ts';
import { nestedQuantifier } from './regex.ts';
import { BUILTIN_TOOLS } from './tools.ts';

export interface LintContext {
  projectDir: string;
  home: string;
  env: Record<string, string | undefined>;
  /** The MCP servers the load found for the same sources and --mcp-config values, as fire finds them. */
  mcpServers: () => Promise<ServerCatalogue>;
}

/** One matcher group, seen through its first loaded handler. */
export interface Group {
  event: EventName;
  matcher: string;
  file: string;
  /** JSON pointer of the group, e.g. `/hooks/PreToolUse/0`. */
  pointer: string;
}

export interface Finding {
  pointer: string;
  message: string;
  fix: string;
  /** Set when a rule reports under a more precise code than its own. */
  code?: LintCode;
  file?: string;
}

export interface Rule<S> {
  code: LintCode;
  /** Further codes the rule reports under (Finding.code). */
  also?: readonly LintCode[];
  severity: Severity;
  /** One line for docs and `--help`. */
  summary: string;
  check: (subject: S, ctx: LintContext) => Finding[] | Promise<Finding[]>;
}

const MATCH_ALL = new Set(['', '*']);

export const GROUP_RULES: ReadonlyArray<Rule<Group>> = [
  {
    code: 'matcher-ignored',
    severity: 'warning',
    summary: 'a matcher on an event that has no matcher field: the group runs on every firing',
    check: ({ event, matcher, pointer }) =>
      EVENTS[event].matcherField !== undefined || MATCH_ALL.has(matcher)
        ? []
        : [
            {
              pointer: `${pointer}/matcher`,
              message: `${event} has no matcher: "${matcher}" is ignored and these hooks run on every ${event}`,
              fix: 'remove "matcher"; to filter, test the input inside the hook',
            },
          ],
  },
  {
    code: 'invalid-regex',
    severity: 'error',
    summary: 'a matcher read as a regex that does not compile: it matches nothing',
    check: ({ event, matcher, pointer }) => {
      if (EVENTS[event].matcherField === undefined) return [];
      const { invalid } = matchesMatcher(event, matcher, '');
      return invalid
        ? [
            {
              pointer: `${pointer}/matcher`,
              message: `${invalid}; the hooks of this group never run`,
              fix: 'escape the regex, or list exact names separated by |',
            },
          ]
        : [];
    },
  },
  {
    code: 'catastrophic-regex',
    severity: 'warning',
    summary: 'a matcher regex with nested quantifiers such as (a+)+: exponential time on a near-miss',
    check: ({ event, matcher, pointer }) => {
      if (EVENTS[event].matcherField === undefined || matchesMatcher(event, matcher, '').invalid) return [];
      const part = nestedQuantifier(matcher);
      return part
        ? [
            {
              pointer: `${pointer}/matcher`,
              message: `matcher "${matcher}" repeats a group that is itself repeated (${part}): it can backtrack for an exponential time on every ${event}`,
              fix: 'drop the inner or the outer quantifier, or list exact names separated by |',
            },
          ]
        : [];
    },
  },
  {
    code: 'matcher-too-wide',
    severity: 'warning',
    summary:
      'a tool matcher read as an unanchored regex that also matches other built-in tools (Edit.* hits NotebookEdit)',
    check: ({ event, matcher, pointer }) => {
      if (EVENTS[event].matcherField !== 'tool_name') return [];
      const matched = BUILTIN_TOOLS.filter((tool) => matchesMatcher(event, matcher, tool).matches);
      const named = new Set(
        (matcher.match(/[A-Za-z_]\w*/g) ?? []).map(canonicalToolName).filter((word) => BUILTIN_TOOLS.includes(word)),
      );
      const meant = matched.filter((tool) => named.has(tool));
      const extra = matched.filter((tool) => !named.has(tool));
      if (meant.length === 0 || extra.length === 0) return [];
      const anchored = meant.length === 1 ? `^${meant[0]}$` : `^(${meant.join('|')})$`;
      return [
        {
          pointer: `${pointer}/matcher`,
          message: `matcher "${matcher}" is an unanchored regex: besides ${meant.join(', ')} it also matches ${extra.join(', ')}`,
          fix: `to match only ${meant.join(' and ')}, write "${anchored}" (or the exact ${meant.length === 1 ? 'name' : 'list'} "${meant.join('|')}")`,
        },
      ];
    },
  },
  {
    code: 'unknown-tool',
    also: ['matcher-case'],
    severity: 'warning',
    summary:
      'an exact matcher name that is no tool of Claude Code 2.1.332 (matcher-case: one that differs from a tool only in case): it matches nothing',
    check: ({ event, matcher, pointer }) => {
      if (EVENTS[event].matcherField !== 'tool_name' || !/^[A-Za-z0-9_|, -]+$/.test(matcher)) return [];
      const known = [...BUILTIN_TOOLS, ...Object.keys(LEGACY_TOOL_ALIASES)];
      return matcher
        .split(/[|,]/)
        .map((name) => name.trim())
        .filter((name) => name !== '' && !known.includes(name) && !name.startsWith('mcp__'))
        .map((name) => {
          const near = closest(name, known) ?? BUILTIN_TOOLS.find((tool) => name.endsWith(tool));
          const caseOnly = near !== undefined && near.toLowerCase() === name.toLowerCase();
          return {
            pointer: `${pointer}/matcher`,
            ...(caseOnly ? { code: 'matcher-case' as const } : {}),
            message: caseOnly
              ? `matcher "${name}" differs from Claude Code's tool ${near} only in case: matchers are case-sensitive, so it matches no tool call`
              : `matcher "${name}" is not a tool of Claude Code 2.1.332: it matches no tool call`,
            fix: near
              ? `write "${near}"`
              : 'use a tool name Claude Code has (see peri-hooks schema input --event PreToolUse), or mcp__<server>__<tool>',
          };
        });
    },
  },
  {
    code: 'mcp-server-without-tool',
    severity: 'error',
    summary: 'an exact matcher name mcp__<server> without its __<tool> part: it matches no tool',
    check: ({ event, matcher, pointer }) => {
      if (EVENTS[event].matcherField !== 'tool_name') return [];
      return matcher
        .split(/[|,]/)
        .map((name) => name.trim())
        .flatMap((name) => {
          const server = /^mcp__(.+?)(?:__)?$/.exec(name)?.[1];
          if (
            server === undefined ||
            server.includes('__') ||
            matchesMatcher(event, matcher, `mcp__${server}__tool`).matches
          )
            return [];
          return [
            {
              pointer: `${pointer}/matcher`,
              message: `"${name}" names an MCP server, not a tool: MCP tools are called mcp__${server}__<tool>, so it matches nothing`,
              fix: `write "mcp__${server}__.*" for every tool of the server, or "mcp__${server}__<tool>" for one`,
            },
          ];
        });
    },
  },
];

const PLUGIN_VARIABLE = /\$\{?CLAUDE_PLUGIN_(ROOT|DATA)\b\}?/;

export const HOOK_RULES: ReadonlyArray<Rule<LoadedHook>> = [
  {
    code: 'unsupported-hook-type',
    severity: 'error',
    summary: 'a hook type the event cannot run (prompt or agent on SessionStart, http on Setup, ...)',
    check: ({ event, handler, provenance }) => {
      const types = EVENTS[event].hookTypes;
      return types.includes(handler.type)
        ? []
        : [
            {
              pointer: `${provenance.pointer}/type`,
              message: `${event} cannot run ${handler.type} hooks: Claude Code skips this hook`,
              fix: `use one of: ${types.join(', ')}`,
            },
          ];
    },
  },
  {
    code: 'if-ignored',
    severity: 'error',
    summary: '"if" on an event that is not a tool event: Claude Code never runs the hook',
    check: ({ event, handler, provenance }) =>
      handler.if === undefined || handler.if === '' || EVENTS[event].ifApplies
        ? []
        : [
            {
              pointer: `${provenance.pointer}/if`,
              message: `"if" applies only to tool events; Claude Code never runs this hook on ${event}`,
              fix: 'remove "if" (to filter, test the input inside the hook)',
            },
          ],
  },
  {
    code: 'malformed-if',
    severity: 'error',
    summary: 'an "if" rule that is malformed or can never match as written',
    check: ({ event, handler, provenance }, ctx) => {
      if (handler.if === undefined || handler.if === '' || !EVENTS[event].ifApplies) return [];
      const { malformed } = matchesIf(handler.if, { toolName: '', toolInput: {}, cwd: ctx.projectDir, home: ctx.home });
      return malformed === undefined
        ? []
        : [
            {
              pointer: `${provenance.pointer}/if`,
              message: `malformed "if" rule "${handler.if}": ${malformed}; Claude Code silently never runs this hook`,
              fix: 'write one rule: Tool or Tool(specifier), e.g. "Bash(git push *)"',
            },
          ];
    },
  },
  {
    code: 'plugin-root-outside-plugin',
    severity: 'error',
    summary: '${CLAUDE_PLUGIN_ROOT} or ${CLAUDE_PLUGIN_DATA} in a hook that is not in a plugin',
    check: ({ handler, provenance }) => {
      if (handler.type !== 'command' || provenance.pluginRoot !== undefined) return [];
      const variable = [handler.command, ...(handler.args ?? [])]
        .map((part) => PLUGIN_VARIABLE.exec(part))
        .find(Boolean);
      return variable
        ? [
            {
              pointer: `${provenance.pointer}/command`,
              message: `\${CLAUDE_PLUGIN_${variable[1]}} is only available in hooks defined in a plugin; this hook fails every time`,
              fix: 'use "$CLAUDE_PROJECT_DIR/..." for a script in the project, or move the hook into the plugin\'s hooks/hooks.json',
            },
          ]
        : [];
    },
  },
  {
    code: 'program-not-found',
    also: ['program-not-executable'],
    severity: 'error',
    summary: 'a command whose program or script does not exist or is not executable (program-not-executable)',
    check: async ({ handler, provenance }, ctx) => {
      if (handler.type !== 'command') return [];
      const problem = await programProblem(handler, programContext(ctx, provenance.pluginRoot));
      return problem
        ? [
            {
              pointer: `${provenance.pointer}/command`,
              ...problem,
              message: `${problem.message}; this hook fails every time`,
            },
          ]
        : [];
    },
  },
  {
    code: 'relative-script-path',
    severity: 'warning',
    summary:
      'a command whose script is a relative path (./policy/x.sh): it is not found once the hook runs in a subfolder',
    check: ({ handler, provenance }, ctx) => {
      if (handler.type !== 'command') return [];
      const script = scriptOf(handler, programContext(ctx, provenance.pluginRoot));
      if (!script || !isRelativePath(script.word)) return [];
      const inProject = script.word.replace(/^\.\//, '');
      return [
        {
          pointer: `${provenance.pointer}/command`,
          message: `${script.word} is relative to the folder the hook runs in, which is the session's folder: from a subfolder it is not found (exit 127, a non-blocking error: what it guards goes through)`,
          fix: `name it from the project: \\"$CLAUDE_PROJECT_DIR\\"/${inProject} in the JSON string`,
        },
      ];
    },
  },
  {
    code: 'unquoted-path-variable',
    severity: 'warning',
    summary:
      'an unquoted $CLAUDE_PROJECT_DIR or ${CLAUDE_PLUGIN_ROOT} in a shell-form command: it breaks on a path with a space',
    check: ({ handler, provenance }) => {
      if (handler.type !== 'command' || handler.args !== undefined || handler.shell === 'powershell') return [];
      const [first] = unquotedPathVariables(handler.command);
      if (!first) return [];
      const fix = first.word.includes('"')
        ? `put ${first.written} inside double quotes, e.g. \\"${first.written}\\"/hooks/check.sh in the JSON string`
        : `write \\"${first.word}\\" (the word in double quotes) in the JSON string`;
      return [
        {
          pointer: `${provenance.pointer}/command`,
          message: `${first.written} is not quoted in ${first.word}: the shell splits it on spaces, so the hook fails when the path holds one (and what it guards goes through)`,
          fix,
        },
      ];
    },
  },
  {
    code: 'exit-1-does-not-block',
    severity: 'warning',
    summary:
      'a command or script that exits 1 where it evidently means to block: Claude Code reads exit 1 as a non-blocking error',
    check: async ({ event, handler, provenance }, ctx) => {
      if (handler.type !== 'command' || !BLOCKING_FAMILIES.has(EVENTS[event].family)) return [];
      const guard = EVENTS[event].brokenEntryVoidsSource === true;
      const pointer = `${provenance.pointer}/command`;
      const outcome = `Claude Code reads exit 1 as a non-blocking error, so the ${event} goes through`;
      const fix = 'exit 2 to block (stderr then becomes the reason), or print the decision as JSON and exit 0';
      const inline =
        handler.args === undefined && handler.shell !== 'powershell'
          ? blockingExitOne(handler.command, 'shell', guard)
          : undefined;
      if (inline) return [{ pointer, message: `the command exits 1 where it ${inline.evidence}: ${outcome}`, fix }];
      const script = scriptOf(handler, programContext(ctx, provenance.pluginRoot));
      const text = script && (await smallTextFile(script.file));
      const language = text === undefined ? undefined : languageOf(script!.file, text, script!.interpreter);
      const found = language === undefined ? undefined : blockingExitOne(text!, language, guard);
      return found
        ? [{ pointer, message: `${script!.file}:${found.line} exits 1 where it ${found.evidence}: ${outcome}`, fix }]
        : [];
    },
  },
];

/** Families whose events exit 2 blocks (§7); elsewhere exit 1 and 2 differ only in where stderr goes. */
const BLOCKING_FAMILIES: ReadonlySet<Family> = new Set(['permission', 'decision', 'modelSwitch', 'elicitation']);

/** Scripts longer than this are not read. */
const MAX_SCRIPT_BYTES = 1 << 20;

function programContext(ctx: LintContext, pluginRoot: string | undefined) {
  return { ...ctx, ...(pluginRoot ? { pluginRoot } : {}) };
}

async function smallTextFile(file: string): Promise<string | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile() || info.size > MAX_SCRIPT_BYTES) return undefined;
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text === undefined || text.includes('\u0000') ? undefined : text;
}

/** Matchers that select the same calls, for the duplicate check. */
function matcherKey(matcher: string | undefined): string {
  return matcher === undefined || MATCH_ALL.has(matcher) ? '*' : matcher;
}

export const SET_RULES: ReadonlyArray<Rule<readonly LoadedHook[]>> = [
  {
    code: 'duplicate-handler',
    severity: 'warning',
    summary: 'the same handler twice for the same event and matcher: Claude Code runs it once',
    check: (hooks) => {
      const first = new Map<string, LoadedHook>();
      const findings: Finding[] = [];
      for (const hook of hooks) {
        const key = `${hook.event}\u0000${matcherKey(hook.matcher)}\u0000${identity(hook)}`;
        const earlier = first.get(key);
        if (!earlier) {
          first.set(key, hook);
          continue;
        }
        const where =
          earlier.provenance.file === hook.provenance.file
            ? earlier.provenance.pointer
            : `${earlier.provenance.file} ${earlier.provenance.pointer}`;
        findings.push({
          file: hook.provenance.file,
          pointer: hook.provenance.pointer,
          message: `same handler as ${where}: Claude Code runs identical handlers once per ${hook.event}`,
          fix: 'remove one copy (timeout and other fields come from the later copy)',
        });
      }
      return findings;
    },
  },
  mcpServerRule,
];

/** A path relative to the working folder: it has a slash, and starts with no root, home or variable. */
function isRelativePath(word: string): boolean {
  return word.includes('/') && !/^[/~$]/.test(word);
}
