// `install --via mcp`: Claude Code starts `peri-hooks mcp` once per session and each event's hook is an mcp_tool
// call of its `fire` tool (spec §5.4, §20.4): no process per firing. The server is defined where Claude Code
// starts it for the scope, in -p without asking (observed in 2.1.332): the project's .mcp.json, or ~/.claude.json
// (projects[<project>].mcpServers for local, mcpServers for user). Events with no MCP client (SessionStart,
// Setup), events whose hooks run while the servers are down (InstructionsLoaded at start, SessionEnd) and events
// whose policy has async hooks (an mcp_tool hook has no async form) stay commands.
import path from 'node:path';
import { claudeJsonFile } from '../config/mcp/lookup.ts';
import { MCP_FIRE_TOOL, MCP_SERVER_NAME, portableCommand } from '../config/registration.ts';
import { PeriHooksError } from '../errors.ts';
import { canBlock, EVENTS, type EventName } from '../events.ts';
import { inputTemplate } from '../mcp-server/arguments.ts';
import type { LoadedHook } from '../types.ts';
import { type RegistrationOptions, registrationTimeout, watchList } from './entries.ts';
import { isRecord } from './groups.ts';
import { append, child, type Node, nodeValue, parseSettings, remove, replace } from './jsonc-edit.ts';
import type { LaunchWord } from './launch.ts';
import type { Scope } from './settings-file.ts';

export interface McpRegistrationHandler {
  type: 'mcp_tool';
  server: typeof MCP_SERVER_NAME;
  tool: typeof MCP_FIRE_TOOL;
  /** Every field of the event's input, as Claude Code substitutes it. */
  input: Record<string, string>;
  timeout: number;
  /** Fail-closed, where the event can block: a server that is not there or does not answer blocks. */
  onFailure?: 'block';
}

/** What Claude Code starts: `peri-hooks mcp` with the policy files. */
export interface McpServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
}

/** Whether the event's registration can be an mcp_tool hook: Claude Code reaches its servers there, and the policy has no async hooks for it. */
export function viaMcp(event: EventName, hooks: readonly LoadedHook[]): boolean {
  return (
    EVENTS[event].noMcpClient !== true &&
    EVENTS[event].mcpServersDown !== true &&
    !hooks.some(
      (hook) =>
        hook.event === event &&
        hook.handler.type === 'command' &&
        (hook.handler.async === true || hook.handler.asyncRewake === true),
    )
  );
}

export function mcpGroup(
  event: EventName,
  hooks: readonly LoadedHook[],
  failClosed: boolean,
): { matcher?: string; hooks: McpRegistrationHandler[] } {
  const own = hooks.filter((hook) => hook.event === event);
  return {
    ...watchList(event, own),
    hooks: [
      {
        type: 'mcp_tool',
        server: MCP_SERVER_NAME,
        tool: MCP_FIRE_TOOL,
        input: inputTemplate(event),
        timeout: registrationTimeout(event, own, hooks),
        ...(failClosed && canBlock(event) && !EVENTS[event].ignoresOnFailure ? { onFailure: 'block' as const } : {}),
      },
    ],
  };
}

/** The server definition: by absolute paths, or (project scope) the portable prologue under `sh -c`. */
export function mcpServerEntry(options: RegistrationOptions): McpServerEntry {
  const words: LaunchWord[] = [
    'mcp',
    ...options.policies.flatMap((policy) => ['--settings', { file: policy }]),
    '--setting-sources',
    'none',
    ...(options.failClosed ? ['--fail-closed'] : []),
    ...(options.requireTrust ? ['--require-trust'] : []),
    ...(options.audit ?? []),
  ];
  if ('runner' in options.launch) {
    const [command, ...rest] = options.launch.runner;
    return {
      type: 'stdio',
      command: command!,
      args: [...rest, ...words.map((word) => (typeof word === 'string' ? word : word.file))],
    };
  }
  const { root, projectDir, fix } = options.launch.portable;
  // As a command registration names them: from the project (a policy outside it is warned about by install), an
  // audit log in the home folder from $HOME.
  const portableWord = (word: { file: string; inHome?: string }) =>
    word.inHome !== undefined ? { inHome: word.inHome } : { inProject: path.relative(projectDir, word.file) || '.' };
  return {
    type: 'stdio',
    command: 'sh',
    args: [
      '-c',
      portableCommand(
        root,
        words.map((word) => (typeof word === 'string' ? word : portableWord(word))),
        {
          message: `peri-hooks cannot start its MCP server here: neither node_modules/.bin/peri-hooks (with node on PATH) nor peri-hooks on PATH; fix: ${fix}`,
          exitCode: 1,
        },
      ),
    ],
  };
}

/** Where the scope's server is defined: the file, and the keys down to the `mcpServers` object. */
export function mcpServersPlace(
  scope: Scope,
  load: { projectDir: string; home: string; env: Record<string, string | undefined> },
): { file: string; keys: string[] } {
  switch (scope) {
    case 'project':
      return { file: `${load.projectDir.replace(/\/+$/, '')}/.mcp.json`, keys: ['mcpServers'] };
    case 'local':
      return { file: claudeJsonFile(load), keys: ['projects', load.projectDir, 'mcpServers'] };
    case 'user':
      return { file: claudeJsonFile(load), keys: ['mcpServers'] };
    case 'managed':
      throw new PeriHooksError(
        'usage',
        'install --via mcp has no managed scope: a managed-mcp.json would take over every MCP server of every user',
        'register the managed scope as commands (install --scope managed without --via), or use --via mcp in the project, local or user scope',
      );
  }
}

/** The server definition under `keys` in a JSON file's text ({} when the file is new): added, replaced, or unchanged. */
export function defineServer(file: string, text: string, keys: readonly string[], entry: McpServerEntry): string {
  let node: Node = parseSettings(file, text);
  for (const [i, key] of keys.entries()) {
    const next = child(node, key);
    if (next === undefined) {
      const rest = keys.slice(i + 1).reduceRight<unknown>((inner, name) => ({ [name]: inner }), {
        [MCP_SERVER_NAME]: entry,
      });
      return append(text, node, rest, key);
    }
    if (next.type !== 'object')
      throw new PeriHooksError(
        'usage',
        `"${keys.slice(0, i + 1).join('.')}" in ${file} is not an object; nothing was changed`,
        'fix it first, then install again',
      );
    node = next;
  }
  const existing = child(node, MCP_SERVER_NAME);
  if (existing === undefined) return append(text, node, entry, MCP_SERVER_NAME);
  const value = nodeValue(existing);
  if (JSON.stringify(value) === JSON.stringify(entry)) return text;
  if (!isServerEntry(value))
    throw new PeriHooksError(
      'usage',
      `${file} already defines an MCP server named "${MCP_SERVER_NAME}" that is not peri-hooks mcp (${JSON.stringify(value).slice(0, 120)}); nothing was changed`,
      `rename or remove that server, then install --via mcp again`,
    );
  return replace(text, existing, entry);
}

/**
 * The text without peri-hooks' server under `keys`; each object left empty goes too, unless `prior` (the file
 * before install) had it. Unchanged when there is none.
 */
export function undefineServer(file: string, text: string, keys: readonly string[], prior: Node | undefined): string {
  const root = parseSettings(file, text);
  const path: Node[] = [root];
  for (const key of keys) {
    const next = child(path.at(-1), key);
    if (next === undefined || next.type !== 'object') return text;
    path.push(next);
  }
  const entry = child(path.at(-1), MCP_SERVER_NAME);
  if (entry === undefined || !isServerEntry(nodeValue(entry))) return text;
  // Up from the server's object, every object that holds only what goes and that the file before install lacked.
  let target = entry.parent!;
  for (let depth = keys.length; depth > 0; depth--) {
    const container = path[depth]!;
    const before = prior === undefined ? undefined : keys.slice(0, depth).reduce<Node | undefined>(child, prior);
    if (container.children!.length > 1 || before !== undefined) break;
    target = container.parent!;
  }
  return remove(text, target);
}

/** A server definition that starts `peri-hooks mcp` (directly, or through the portable prologue). */
export function isServerEntry(value: unknown): boolean {
  if (!isRecord(value) || !Array.isArray(value.args)) return false;
  const words = [value.command, ...value.args].filter((word): word is string => typeof word === 'string');
  return (
    words.some((word, i) => /peri-hooks(\.cjs|\.exe)?$/.test(word) && words[i + 1] === 'mcp') ||
    (value.command === 'sh' && words.some((word) => /exec "\$p" mcp /.test(word)))
  );
}
