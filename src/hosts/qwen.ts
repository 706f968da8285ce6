// Qwen Code 0.24.4: Claude Code's event names, payload and output, with differences the real agent shows
// (test/hosts/real/qwen.real.ts):
// - UserPromptSubmit fires again on every continuation with the text the model is sent next: `""` after tool
//   results, which Claude Code never fires on and which holds nothing to guard, so it is not fired; a Stop block's
//   reason after a Stop block, which is fired, since without `submitted_prompt` it cannot be told from a prompt
//   that came from elsewhere than the user's input box (a channel, a daemon).
// - `continue: false` on a tool event does not stop the agent: before a tool it refuses the call, after one it
//   puts `stopReason` in place of the tool's output. PostToolUse reads no `decision`, so that is its block.
// - tool_response is `{llmContent, returnDisplay}`, turned into Claude Code's shape for the tools whose shape
//   Claude Code defines; approval modes become permission modes.
import { renderClaudeLike } from './claude-like.ts';
import { answer, type HostContext, type HostModule, reasonOf } from './module.ts';
import { claudeInput } from './normalise.ts';
import { bashResponse, editResponse, readResponse, writeResponse } from './tool-response.ts';
import type { ClaudeCall } from './types.ts';

export const qwen: HostModule = {
  calls({ host, hostEvent, def, payload }: HostContext): ClaudeCall[] {
    if (def.event === 'UserPromptSubmit' && payload.prompt === '' && typeof payload.submitted_prompt !== 'string')
      return [];
    const input = claudeInput(host, hostEvent, def, payload);
    if (typeof input.permission_mode === 'string')
      input.permission_mode = PERMISSION_MODES[input.permission_mode] ?? input.permission_mode;
    if (def.event === 'PostToolUse')
      input.tool_response = claudeResponse(
        input.tool_name as string,
        input.tool_input as Record<string, unknown>,
        payload.tool_response,
      );
    return [{ event: def.event, input }];
  },
  render(context) {
    const { def, verdict } = context;
    if (def.event !== 'PostToolUse' || !verdict.blocked) return renderClaudeLike(context);
    // Exit 0: on exit 2 Qwen reads stderr as a `decision`, which PostToolUse ignores. Qwen drops context beside a
    // stop, so the context follows the reason.
    const stopReason = [reasonOf(verdict), verdict.context].filter((text) => text !== undefined).join('\n\n');
    return answer({
      continue: false,
      stopReason,
      ...(verdict.systemMessage !== undefined ? { systemMessage: verdict.systemMessage } : {}),
    });
  },
  stops: (def) => def.event !== 'PreToolUse' && def.event !== 'PostToolUse',
};

/** Qwen's approval modes as Claude Code's permission modes (the original stays in peri_hooks_host.fields). */
const PERMISSION_MODES: Readonly<Record<string, string>> = {
  default: 'default',
  plan: 'plan',
  'auto-edit': 'acceptEdits',
  auto_edit: 'acceptEdits',
  auto: 'auto',
  yolo: 'bypassPermissions',
};

type Shaper = (input: Record<string, unknown>, text: string, display: unknown) => Record<string, unknown>;

/** Claude Code's tool_response per tool, from Qwen's model text (llmContent) and its display object. */
const SHAPES: Readonly<Record<string, Shaper>> = {
  Bash: (_input, text, display) => {
    const { stdout, stderr } = shellStreams(text, display);
    return bashResponse(stdout, stderr);
  },
  Write: (input, _text, display) => {
    const file = fileDisplay(display);
    return writeResponse(input, {
      filePath: file.filePath,
      content: file.newContent,
      original: file.originalContent ?? null,
    });
  },
  Edit: (input, _text, display) => {
    const file = fileDisplay(display);
    return editResponse(input, { filePath: file.filePath, original: file.originalContent ?? null });
  },
  Read: (input, text) => {
    // A part of the file comes after Qwen's header, which says the file's length (or a floor of it).
    const part = /^Showing lines \d+-\d+ of (?:at least )?(\d+) total lines\.\n\n---\n\n/.exec(text);
    return part ? readResponse(input, text.slice(part[0].length), Number(part[1])) : readResponse(input, text);
  },
};

/** Other tools keep Qwen's object: Claude Code has no shape for them to take. */
export function claudeResponse(tool: string, input: Record<string, unknown>, response: unknown): unknown {
  const shape = SHAPES[tool];
  if (!shape || typeof response !== 'object' || response === null) return response ?? {};
  const { llmContent, returnDisplay } = response as { llmContent?: unknown; returnDisplay?: unknown };
  return shape(input, typeof llmContent === 'string' ? llmContent : '', returnDisplay);
}

/** run_shell_command's text: `Command: …\nDirectory: …\nOutput: …\nError: …\nExit Code: …`; "(empty)"/"(none)" are nothing. */
function shellStreams(text: string, display: unknown): { stdout: string; stderr: string } {
  const output = text.indexOf('Output: ');
  const exit = text.lastIndexOf('\nExit Code: ');
  const error = exit < 0 ? -1 : text.lastIndexOf('\nError: ', exit);
  if (output < 0 || error < output) return { stdout: typeof display === 'string' ? display : text, stderr: '' };
  const none = (value: string) => (value === '(empty)' || value === '(none)' ? '' : value);
  return {
    stdout: none(text.slice(output + 'Output: '.length, error)),
    stderr: none(text.slice(error + '\nError: '.length, exit)),
  };
}

function fileDisplay(display: unknown): { filePath?: string; originalContent?: string | null; newContent?: string } {
  return typeof display === 'object' && display !== null
    ? (display as { filePath?: string; originalContent?: string | null; newContent?: string })
    : {};
}
