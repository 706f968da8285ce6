// opencode, through the plugin install generates (src/install/host-plugin.ts): the plugin hands over its hook's
// `input` and `output` fields. `apply_patch` (opencode's file tool for models whose id contains `gpt-`) carries
// Codex's patch envelope in `patchText`: one Claude Code Write or Edit per file. After a tool, opencode has only
// the text the model reads and the tool's metadata: tool_response is rebuilt in Claude Code's shape per tool.
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
  calls({ host, hostEvent, def, payload }: HostContext): ClaudeCall[] {
    const single = claudeInput(host, hostEvent, def, payload);
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
