// Which MCP servers exist and where each comes from, in Claude Code's precedence (spec harnesses §4.2):
// managed-mcp.json alone when it exists; else local scope (~/.claude.json projects[<project>].mcpServers),
// the project's .mcp.json (approved servers only), user scope (~/.claude.json mcpServers), plugins
// (plugin:<plugin>:<server>), then --mcp-config files. The first definition of a name wins.
// Read only when an mcp_tool hook runs or is inspected; nothing here connects.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { settingsFiles } from '../discover.ts';
import { escapeSegment } from '../locate.ts';
import { expandAll } from './expand.ts';
import type { LookupOptions } from './lookup-options.ts';
import {
  type DefinedServer,
  type ServerCatalogue,
  type ServerScope,
  type ServerSource,
  serverEntrySchema,
} from './servers.ts';

type Json = Record<string, unknown>;
type Read = { kind: 'missing' } | { kind: 'ok'; value: Json } | { kind: 'bad'; why: string };

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

async function readJson(file: string): Promise<Read> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? { kind: 'missing' }
      : { kind: 'bad', why: `cannot be read (${code ?? String(error)})` };
  }
  return parseJson(text);
}

function parseJson(text: string): Read {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? { kind: 'ok', value } : { kind: 'bad', why: 'is not a JSON object' };
  } catch (error) {
    return { kind: 'bad', why: `is not valid JSON (${(error as Error).message})` };
  }
}

/** `~/.claude.json`, or `$CLAUDE_CONFIG_DIR/.claude.json` as Claude Code reads it. */
export function claudeJsonFile(options: Pick<LookupOptions, 'home' | 'env'>): string {
  return options.env.CLAUDE_CONFIG_DIR
    ? path.join(path.resolve(options.env.CLAUDE_CONFIG_DIR), '.claude.json')
    : path.join(path.resolve(options.home), '.claude.json');
}

interface Candidate {
  name: string;
  raw: unknown;
  source: ServerSource;
  /** Plugin servers: ${CLAUDE_PLUGIN_ROOT} expands to the plugin folder. */
  extraEnv?: Record<string, string>;
}

function candidates(
  servers: unknown,
  scope: ServerScope,
  file: string,
  pointer: string,
  prefix = '',
  extraEnv?: Record<string, string>,
): Candidate[] {
  if (!isObject(servers)) return [];
  return Object.entries(servers).map(([name, raw]) => ({
    name: `${prefix}${name}`,
    raw,
    source: { scope, file, pointer: `${pointer}/${escapeSegment(name)}` },
    ...(extraEnv ? { extraEnv } : {}),
  }));
}

/** Every server the configuration defines, for a firing, `validate`, `explain` and `doctor` alike. Never throws. */
export async function lookupServers(options: LookupOptions): Promise<ServerCatalogue> {
  const catalogue: ServerCatalogue = { servers: new Map(), unapproved: new Map(), warnings: [] };
  const unreadable = (file: string, why: string) =>
    catalogue.warnings.push({
      message: `${file} ${why}; its MCP servers are ignored`,
      file,
      fix: 'fix the file: it must be a JSON object with "mcpServers"',
    });
  /** `named`: the user gave this file (--mcp-config), so its absence is worth a warning. */
  const read = async (file: string, named = false): Promise<Json | undefined> => {
    const result = await readJson(file);
    if (result.kind === 'bad') unreadable(file, result.why);
    if (result.kind === 'missing' && named)
      catalogue.warnings.push({
        message: `the --mcp-config file ${file} does not exist`,
        file,
        fix: 'give an existing file with {"mcpServers": {...}}, or the JSON itself',
      });
    return result.kind === 'ok' ? result.value : undefined;
  };

  const files = settingsFiles(options);
  const managedFile = path.join(files.managedDir, 'managed-mcp.json');
  const managed = await read(managedFile);
  if (managed) {
    catalogue.exclusive = managedFile;
    addAll(catalogue, candidates(managed.mcpServers, 'managed', managedFile, '/mcpServers'), options.env);
    return catalogue;
  }

  const project = path.resolve(options.projectDir);
  const claudeJson = claudeJsonFile(options);
  const projectMcpFile = path.join(project, '.mcp.json');
  // A project that may not bring its own settings (serve, outside --project-root) brings no servers either.
  const own = options.projectFiles !== false;
  const [userState, projectMcp, userSettings, localSettings, managedSettings] = await Promise.all([
    read(claudeJson),
    own ? read(projectMcpFile) : undefined,
    read(files.user),
    own ? read(files.local) : undefined,
    read(files.managed),
  ]);
  const projectState = isObject(userState?.projects) ? userState.projects[project] : undefined;
  const approval = approvalOf([
    managedSettings,
    localSettings,
    userSettings,
    isObject(projectState) ? projectState : undefined,
  ]);

  const local = candidates(
    isObject(projectState) ? projectState.mcpServers : undefined,
    'local',
    claudeJson,
    `/projects/${escapeSegment(project)}/mcpServers`,
  );
  const projectServers = candidates(projectMcp?.mcpServers, 'project', projectMcpFile, '/mcpServers');
  const user = candidates(userState?.mcpServers, 'user', claudeJson, '/mcpServers');
  const plugins = (
    await Promise.all((options.pluginDirs ?? []).map((dir) => pluginServers(path.resolve(dir), read)))
  ).flat();
  const flags = (
    await Promise.all((options.mcpConfigs ?? []).map((value) => flagServers(value, catalogue, read)))
  ).flat();

  const approved = projectServers.filter(({ name }) => approval(name) === 'approved');
  addAll(catalogue, [...local, ...approved, ...user, ...plugins, ...flags], options.env);
  for (const candidate of projectServers) {
    const verdict = approval(candidate.name);
    if (verdict !== 'approved' && !catalogue.servers.has(candidate.name)) {
      catalogue.unapproved.set(candidate.name, {
        name: candidate.name,
        source: candidate.source,
        disabled: verdict === 'disabled',
      });
    }
  }
  return catalogue;
}

/**
 * Whether a project server may start: listed in disabledMcpjsonServers never; enableAllProjectMcpServers or
 * enabledMcpjsonServers yes. The project's own shared .claude/settings.json is not asked: a repository must
 * not approve the servers it brings.
 */
function approvalOf(sources: ReadonlyArray<Json | undefined>): (name: string) => 'approved' | 'disabled' | 'unlisted' {
  const lists = (key: string) =>
    new Set(
      sources.flatMap((source) =>
        Array.isArray(source?.[key]) ? source[key].filter((item): item is string => typeof item === 'string') : [],
      ),
    );
  const enabled = lists('enabledMcpjsonServers');
  const disabled = lists('disabledMcpjsonServers');
  const all = sources.some((source) => source?.enableAllProjectMcpServers === true);
  return (name) => (disabled.has(name) ? 'disabled' : all || enabled.has(name) ? 'approved' : 'unlisted');
}

/** A plugin's servers: its .mcp.json, then plugin.json `mcpServers` (inline, or a path relative to the root). */
async function pluginServers(root: string, read: (file: string) => Promise<Json | undefined>): Promise<Candidate[]> {
  const manifestFile = path.join(root, '.claude-plugin', 'plugin.json');
  const mcpFile = path.join(root, '.mcp.json');
  const [manifest, mcp] = await Promise.all([read(manifestFile), read(mcpFile)]);
  const plugin = typeof manifest?.name === 'string' && manifest.name !== '' ? manifest.name : path.basename(root);
  const prefix = `plugin:${plugin}:`;
  const extraEnv = { CLAUDE_PLUGIN_ROOT: root };
  const found = candidates(mcp?.mcpServers, 'plugin', mcpFile, '/mcpServers', prefix, extraEnv);
  const declared = manifest?.mcpServers;
  if (typeof declared === 'string') {
    const file = path.resolve(root, declared);
    const named = await read(file);
    found.push(...candidates(named?.mcpServers, 'plugin', file, '/mcpServers', prefix, extraEnv));
  } else {
    found.push(...candidates(declared, 'plugin', manifestFile, '/mcpServers', prefix, extraEnv));
  }
  return found;
}

async function flagServers(
  value: string,
  catalogue: ServerCatalogue,
  read: (file: string, named: boolean) => Promise<Json | undefined>,
): Promise<Candidate[]> {
  if (!value.trimStart().startsWith('{')) {
    const file = path.resolve(value);
    return candidates((await read(file, true))?.mcpServers, 'flag', file, '/mcpServers');
  }
  const parsed = parseJson(value);
  if (parsed.kind === 'ok') return candidates(parsed.value.mcpServers, 'flag', '--mcp-config', '/mcpServers');
  if (parsed.kind === 'bad')
    catalogue.warnings.push({
      message: `the inline --mcp-config ${parsed.why}; its MCP servers are ignored`,
      file: '--mcp-config',
      fix: 'give {"mcpServers": {...}} as valid JSON, or a file',
    });
  return [];
}

function addAll(
  catalogue: ServerCatalogue,
  found: readonly Candidate[],
  env: Record<string, string | undefined>,
): void {
  for (const candidate of found) {
    if (catalogue.servers.has(candidate.name)) continue;
    const server = defined(candidate, env, catalogue);
    if (server) catalogue.servers.set(candidate.name, server);
  }
}

function defined(
  { name, raw, source, extraEnv }: Candidate,
  env: Record<string, string | undefined>,
  catalogue: ServerCatalogue,
): DefinedServer | undefined {
  const at = { file: source.file, pointer: source.pointer };
  // No `type` means stdio, as in Claude Code.
  const typed = isObject(raw) && raw.type === undefined ? { ...raw, type: 'stdio' } : raw;
  const parsed = serverEntrySchema.safeParse(typed);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    catalogue.warnings.push({
      ...at,
      message: `MCP server "${name}" is not a valid server entry${where}: ${issue.message}; it is ignored`,
      fix: 'write {"command": ..., "args": [...]} for stdio, or {"type": "http" | "sse", "url": ...}',
    });
    return undefined;
  }
  const { value, missing } = expandAll(parsed.data, { ...env, ...extraEnv });
  for (const variable of missing) {
    catalogue.warnings.push({
      ...at,
      message: `MCP server "${name}" uses \${${variable}}, which is not set; it stays as written`,
      fix: `set ${variable}, or write \${${variable}:-default}`,
    });
  }
  return { name, entry: value, source };
}
