// opencode, through the plugin install generates (src/install/host-plugin.ts): the plugin hands over its hook's
// `input` and `output` fields. `apply_patch` (opencode's file tool for models whose id contains `gpt-`) carries
// Codex's patch envelope in `patchText`: one Claude Code Write or Edit per file. After a tool, opencode has only
// the text the model reads and the tool's metadata: tool_response is rebuilt in Claude Code's shape per tool.
// An MCP server's tool is `<server>_<tool>` to opencode, with nothing in the payload to say so: the servers are
// read from opencode's config files, and such a call is Claude Code's mcp__<server>__<tool>.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { patchCalls } from './apply-patch.ts';
import type { HostContext, HostModule, RenderContext } from './module.ts';
import { claudeInput, field, malformed } from './normalise.ts';
import { pluginAnswer } from './plugin-hosts.ts';
import type { ClaudeCall, HostAnswer } from './types.ts';

type Input = Record<string, unknown>;
type Metadata = Record<string, unknown>;

/** Claude Code's tool_response per tool, from the tool input (Claude Code's names), opencode's output text and metadata. */
const RESPONSES: Readonly<Record<string, (input: Input, output: string, metadata: Metadata) => unknown>> = {
  Bash: (_input, output, metadata) => ({
    stdout: typeof metadata.output === 'string' ? metadata.output : output,
    stderr: '',
    interrupted: false,
    isImage: false,
    noOutputExpected: false,
  }),
  Read: (input, output, metadata) => {
    const display = (metadata.display ?? {}) as Record<string, unknown>;
    return {
      type: 'text',
      file: {
        filePath: input.file_path,
        content: typeof display.text === 'string' ? display.text : output,
        numLines: lineCount(display),
        startLine: display.lineStart ?? 1,
        totalLines: display.totalLines ?? lineCount(display),
      },
    };
  },
  Write: (input, _output, metadata) => ({
    type: metadata.exists === true ? 'update' : 'create',
    filePath: input.file_path,
    content: input.content,
    structuredPatch: [],
    originalFile: null,
    userModified: false,
  }),
  Edit: (input) => ({
    filePath: input.file_path,
    oldString: input.old_string,
    newString: input.new_string,
    originalFile: null,
    structuredPatch: [],
    userModified: false,
    replaceAll: input.replace_all === true,
  }),
};

function lineCount(display: Record<string, unknown>): unknown {
  return typeof display.lineEnd === 'number' && typeof display.lineStart === 'number'
    ? display.lineEnd - display.lineStart + 1
    : undefined;
}

const render = pluginAnswer('deny');

export const opencode: HostModule = {
  calls({ host, hostEvent, def, payload, env }: HostContext): ClaudeCall[] {
    const single = claudeInput(host, hostEvent, def, payload);
    const mcp = typeof single.tool_name === 'string' ? mcpName(single.tool_name, single.cwd as string, env) : undefined;
    if (mcp !== undefined) single.tool_name = mcp;
    const files =
      field(host, payload, 'tool_name') === 'apply_patch'
        ? patchFiles({ host, hostEvent, def, payload }, single.cwd as string)
        : undefined;
    const inputs = files
      ? files.map((file) => claudeInput(host, hostEvent, def, payload, { ...file, hostName: 'apply_patch' }))
      : [single];
    if (def.event === 'PostToolUse') {
      const output = typeof payload.output === 'string' ? payload.output : '';
      const metadata = (
        typeof payload.metadata === 'object' && payload.metadata !== null ? payload.metadata : {}
      ) as Metadata;
      for (const input of inputs) {
        const shape = RESPONSES[input.tool_name as string];
        input.tool_response = shape ? shape(input.tool_input as Input, output, metadata) : output;
      }
    }
    return inputs.map((input) => ({ event: def.event, input }));
  },
  render(context: RenderContext): HostAnswer {
    // A rewrite in Claude Code's file fields cannot be turned back into a patch: the call goes on as it is, said so.
    if (context.hostTool === 'apply_patch' && context.verdict.updatedInput && !context.verdict.blocked) {
      const { updatedInput: _, ...verdict } = context.verdict;
      const rendered = render({ ...context, verdict });
      return {
        ...rendered,
        stderr: `peri-hooks: unsupported on ${context.host.title} ${context.hostEvent}: rewriting an apply_patch call; the call goes on unchanged\n${rendered.stderr}`,
      };
    }
    return render(context);
  },
};

function patchFiles({ host, hostEvent, payload }: HostContext, cwd: string): Array<{ name: string; input: Input }> {
  const args = (payload.args ?? {}) as Input;
  if (typeof args.patchText !== 'string')
    throw malformed(host, hostEvent, '$.args.patchText', 'has no apply_patch text');
  const parsed = patchCalls(args.patchText, cwd);
  if ('error' in parsed) throw malformed(host, hostEvent, '$.args.patchText', parsed.error);
  return parsed.calls.map((file) => ({ name: file.tool, input: file.input }));
}

/** opencode's name for a character outside [A-Za-z0-9_-] in a server or tool name. */
const sanitize = (name: string) => name.replace(/[^a-zA-Z0-9_-]/g, '_');

/** Claude Code's name of an opencode MCP tool (`<server>_<tool>` of a configured server), else undefined. */
function mcpName(tool: string, cwd: string, env = process.env): string | undefined {
  if (tool in OPENCODE_TOOLS) return undefined;
  // The longest server name first: servers `a` and `a_b` both prefix `a_b_c`.
  const servers = [...mcpServers(cwd, env)].map(sanitize).sort((a, b) => b.length - a.length);
  const server = servers.find((name) => tool.startsWith(`${name}_`) && tool.length > name.length + 1);
  return server === undefined ? undefined : `mcp__${server}__${tool.slice(server.length + 1)}`;
}

/** opencode's own tools (1.18), which are never an MCP server's. */
const OPENCODE_TOOLS: Readonly<Record<string, true>> = Object.fromEntries(
  [
    'bash',
    'read',
    'write',
    'edit',
    'apply_patch',
    'patch',
    'multiedit',
    'grep',
    'glob',
    'list',
    'task',
    'todowrite',
    'todoread',
    'webfetch',
    'websearch',
    'codesearch',
    'skill',
    'lsp',
    'question',
    'batch',
    'invalid',
  ].map((name) => [name, true]),
);

/**
 * The `mcp` server names of every config file opencode reads (its global folder, OPENCODE_CONFIG and
 * OPENCODE_CONFIG_CONTENT, ~/.opencode, and opencode.json(c) and .opencode/ from the project up); a file that does
 * not parse names none (opencode itself refuses to start with it).
 */
function mcpServers(cwd: string, env: Readonly<Record<string, string | undefined>>): Set<string> {
  const home = env.HOME || homedir();
  const configHome = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const files = [
    ...['config.json', 'opencode.json', 'opencode.jsonc'].map((name) => path.join(configHome, 'opencode', name)),
    ...(env.OPENCODE_CONFIG ? [env.OPENCODE_CONFIG] : []),
    ...['opencode.json', 'opencode.jsonc'].map((name) => path.join(home, '.opencode', name)),
  ];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    for (const name of ['opencode.json', 'opencode.jsonc'])
      files.push(path.join(dir, name), path.join(dir, '.opencode', name));
    if (path.dirname(dir) === dir) break;
  }
  const texts = files.filter((file) => existsSync(file)).map((file) => readFileSync(file, 'utf8'));
  if (env.OPENCODE_CONFIG_CONTENT) texts.push(env.OPENCODE_CONFIG_CONTENT);
  const names = new Set<string>();
  for (const text of texts) {
    const config = parse(text, [], { allowTrailingComma: true }) as { mcp?: unknown } | undefined;
    if (typeof config?.mcp === 'object' && config.mcp !== null)
      for (const name of Object.keys(config.mcp)) names.add(name);
  }
  return names;
}
