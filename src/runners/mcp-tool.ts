// `type: "mcp_tool"` hooks (spec §5.4, §20.4): call one tool on an MCP server that the user's configuration
// defines, and turn the result into the raw outcome a command hook would give, so one parser judges both:
// JSON text is stdout, plain text is ignored, `isError` and call errors are non-blocking errors. Never throws.
// What Claude Code 2.1.332 does beyond §20.4 (structuredContent, JSON without hook fields, empty text) was
// observed by running it against test/mcp/guard-server.ts; docs/guide/mcp-tool-hooks.md lists it.

import { escapeSegment } from '../config/locate.ts';
import { missingServer } from '../config/mcp/servers.ts';
import { httpListsFor } from '../config/merge.ts';
import type { McpToolHook } from '../config/schema.ts';
import { EVENTS } from '../events.ts';
import { labelOf } from '../hook-label.ts';
import { onFailureBlocks } from '../outcome.ts';
import { hookOutputSchema } from '../output/schema.ts';
import { nowMs } from '../platform/clock.ts';
import { printable } from '../text.ts';
import type { LoadedHook, RawOutcome, RunContext } from '../types.ts';
import { substituteInput } from './mcp-input.ts';
import { cancelledOutcome, errorOutcome, type Outcome, PASS } from './raw-outcome.ts';

const DETAILS_LEFT_OUT =
  'Details are left out of this message, since the MCP server may have written them. To see them, start Claude Code with --debug and try again: they go to its debug log.';
/** Claude Code's second line of an onFailure block, per failure (spec §20.4 item 4). */
export const TOOL_ERROR_DETAIL = `The MCP tool returned an error. ${DETAILS_LEFT_OUT}`;
export const NOT_HOOK_OUTPUT_DETAIL = `The MCP tool's answer is not a hook's JSON output, {} or empty. ${DETAILS_LEFT_OUT}`;

interface TextBlock {
  type: 'text';
  text: string;
}
const isText = (block: unknown): block is TextBlock =>
  typeof block === 'object' &&
  block !== null &&
  (block as TextBlock).type === 'text' &&
  typeof (block as TextBlock).text === 'string';

/** The SDK prefixes a JSON-RPC error with its code; Claude Code shows the server's message as it is. */
function serverMessage(message: string): string {
  return printable(message.replace(/^MCP error -?\d+: /, ''));
}

async function call(hook: LoadedHook, ctx: RunContext): Promise<Outcome> {
  const handler = hook.handler as McpToolHook;
  const label = labelOf(hook);
  if (EVENTS[ctx.event].noMcpClient)
    return errorOutcome(`mcp_tool hooks are not available for the '${ctx.event}' hook event (no MCP client context)`);
  const notConnected = `MCP server '${handler.server}' not connected`;
  if (!ctx.mcp) return errorOutcome(notConnected);
  const catalogue = await ctx.mcp.servers();
  const server = catalogue.servers.get(handler.server);
  // What the lookup found wrong with this server's entry; when it is missing, also the files that did not load.
  const entryPointer = `/mcpServers/${escapeSegment(handler.server)}`;
  for (const warning of catalogue.warnings) {
    if (warning.pointer?.endsWith(entryPointer) || (!server && warning.pointer === undefined))
      ctx.warn(`${warning.file}: ${warning.message}; ${warning.fix}`);
  }
  if (!server) {
    const missing = missingServer(catalogue, handler.server);
    ctx.warn(`${missing.message}; ${missing.fix}`);
    return errorOutcome(missing.message);
  }
  const args = substituteInput(handler.input ?? {}, ctx.input) as Record<string, unknown>;
  const urlPatterns = httpListsFor(hook.provenance.layer, ctx.settings).urls;
  const result = await ctx.mcp.pool.call(server, handler.tool, args, {
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    projectDir: ctx.projectDir,
    env: ctx.env,
    urlPatterns,
  });
  switch (result.kind) {
    case 'not-connected':
      return errorOutcome(`${notConnected}: ${result.why}`);
    case 'error':
      return errorOutcome(serverMessage(result.message));
    case 'timeout':
      return cancelledOutcome();
    case 'interrupted':
      return cancelledOutcome(`MCP hook ${label} cancelled: peri-hooks was interrupted`);
  }
  // The text blocks alone are the answer: Claude Code 2.1.332 does not read structuredContent, with or without text beside it.
  const text = result.content
    .filter(isText)
    .map((block) => block.text)
    .join('\n');
  if (result.isError)
    return {
      ...errorOutcome(`MCP tool ${label} returned an error: ${printable(text) || '(no text)'}`),
      stderr: text,
      failureDetail: TOOL_ERROR_DETAIL,
    };
  const blocksOnFailure = onFailureBlocks(ctx.event, handler);
  const notHookOutput = (): Outcome => ({
    ...errorOutcome(`MCP tool ${label} answered with something other than hook JSON`),
    stderr: text,
    failureDetail: NOT_HOOK_OUTPUT_DETAIL,
  });
  // JSON as the command parser reads it (outcome.ts parseStdout); anything else is plain text, never context.
  const trimmed = text.trim();
  if (trimmed.startsWith('{') && trimmed.endsWith('}'))
    return blocksOnFailure && !namesHookField(text) ? notHookOutput() : { ...PASS, stdout: text };
  // Plain text is the answer only where it is the event's answer itself (PreCompact, WorktreeCreate); elsewhere,
  // even where a command's plain stdout is context, it is ignored, and under onFailure a failure (empty text is none).
  const plain = EVENTS[ctx.event].plainStdout;
  if (plain !== undefined && plain !== 'context') return { ...PASS, stdout: text };
  if (blocksOnFailure && (text.trim() !== '' || result.content.some((block) => !isText(block)))) return notHookOutput();
  // Where plain stdout is context (UserPromptSubmit), Claude Code drops the text and reports a fixed success instead.
  return plain === 'context' ? { ...PASS, stdout: `${ctx.event} completed` } : PASS;
}

/** JSON with a field of hook output (`reason` alone is none), or `{}`: what onFailure takes as an answer. Invalid JSON is the parser's failure. */
function namesHookField(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return true;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return true;
  const fields = Object.keys(hookOutputSchema().shape);
  const keys = Object.keys(value);
  return keys.length === 0 || keys.some((key) => key !== 'reason' && fields.includes(key));
}

export async function runMcpToolHook(hook: LoadedHook, ctx: RunContext): Promise<RawOutcome> {
  const started = nowMs();
  let outcome: Outcome;
  try {
    outcome = await call(hook, ctx);
  } catch (error) {
    outcome = errorOutcome(
      `MCP hook ${labelOf(hook)} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { ...outcome, durationMs: Math.round(nowMs() - started) };
}
