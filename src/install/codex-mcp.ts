// `install --host codex --via mcp`: Codex starts `peri-hooks mcp --host codex` from its config.toml
// (`[mcp_servers.peri-hooks]`: the project's .codex/config.toml, or $CODEX_HOME/config.toml for the user), and each
// event with MCP context is an mcp_tool hook of hooks.json that calls its `fire` tool. Codex substitutes `${a.b}`
// field paths, keeping a whole placeholder's JSON type, so the template passes Codex's own payload; a field the
// payload lacks fails the hook, so it lists only the fields Codex always sends (HostDef.install.mcpFields).
// Codex lets the call run on every failure of an mcp_tool hook, so this registration is fail-open only.
import { MCP_FIRE_TOOL, MCP_SERVER_NAME } from '../config/registration.ts';
import { PeriHooksError } from '../errors.ts';
import { isServerEntry, type McpServerEntry } from './mcp-registration.ts';

const HEADER = `[mcp_servers.${MCP_SERVER_NAME}]`;
/**
 * How long Codex waits for the server to start (`startup_timeout_sec`, which Codex 0.171 reads from the server's
 * table): by default 10 s, then it goes on without the server, every mcp_tool hook fails and the calls run. A
 * loaded machine can take that long.
 */
const STARTUP_TIMEOUT_S = 30;

/** The mcp_tool handler of a host event: its payload's fields, each as Codex's whole-value placeholder. */
export function codexMcpHandler(fields: readonly string[], timeoutS: number): Record<string, unknown> {
  return {
    type: 'mcp_tool',
    server: MCP_SERVER_NAME,
    tool: MCP_FIRE_TOOL,
    input: Object.fromEntries(fields.map((field) => [field, `\${${field}}`])),
    timeout: timeoutS,
  };
}

/** Whether a hooks.json handler is peri-hooks' mcp_tool hook. */
export function isCodexMcpHandler(handler: unknown): boolean {
  const value = handler as Record<string, unknown> | null;
  return value?.type === 'mcp_tool' && value.server === MCP_SERVER_NAME && value.tool === MCP_FIRE_TOOL;
}

/** The server's table, as install writes it: basic strings and a one-line array (JSON's forms are TOML's). */
function table(entry: McpServerEntry): string {
  return `${HEADER}\ncommand = ${JSON.stringify(entry.command)}\nargs = ${JSON.stringify(entry.args)}\nstartup_timeout_sec = ${STARTUP_TIMEOUT_S}\n`;
}

/** Where peri-hooks' table is in a config.toml text: from its header to the next table or the end. */
function findTable(text: string): { start: number; end: number; entry: unknown } | undefined {
  const lines = text.split('\n');
  let offset = 0;
  let start: number | undefined;
  let end = text.length;
  for (const line of lines) {
    const trimmed = line.trim();
    if (start === undefined && /^\[\s*mcp_servers\s*\.\s*("peri-hooks"|'peri-hooks'|peri-hooks)\s*\]$/.test(trimmed))
      start = offset;
    else if (start !== undefined && /^\[/.test(trimmed)) {
      end = offset;
      break;
    }
    offset += line.length + 1;
  }
  if (start === undefined) return undefined;
  const body = text.slice(start, end);
  const value = (key: string) => {
    const match = new RegExp(`^\\s*${key}\\s*=\\s*(.*?)\\s*$`, 'm').exec(body);
    try {
      return match ? (JSON.parse(match[1]!) as unknown) : undefined;
    } catch {
      return undefined;
    }
  };
  return { start, end, entry: { command: value('command'), args: value('args') } };
}

/** peri-hooks' server as a config.toml text defines it (command and args), or undefined. */
export function codexServer(text: string): McpServerEntry | undefined {
  const entry = findTable(text)?.entry as McpServerEntry | undefined;
  return entry && isServerEntry(entry) ? { type: 'stdio', command: entry.command, args: entry.args } : undefined;
}

/**
 * config.toml with peri-hooks' server defined as `entry` (replaced where it is, else appended after a blank line),
 * or without it (undefined: the table and the blank line install put before it go). A table of that name that
 * does not start `peri-hooks mcp` is refused, and left alone when none is wanted.
 */
export function withCodexServer(file: string, text: string, entry: McpServerEntry | undefined): string {
  const found = findTable(text);
  // Taking peri-hooks' server away leaves another of that name as it is.
  if (found && !isServerEntry(found.entry) && !entry) return text;
  if (found && !isServerEntry(found.entry))
    throw new PeriHooksError(
      'usage',
      `${file} already defines an MCP server ${HEADER} that is not peri-hooks mcp; nothing was changed`,
      'rename or remove that server, then install again',
    );
  if (!found) {
    if (!entry) return text;
    return `${text}${text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n'}${table(entry)}`;
  }
  if (entry) return text.slice(0, found.start) + table(entry) + text.slice(found.end);
  const head = text.slice(0, found.start);
  const tail = text.slice(found.end);
  return (tail === '' && head.endsWith('\n\n') ? head.slice(0, -1) : head) + tail;
}
