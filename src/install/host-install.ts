// `peri-hooks install --host <agent>`: peri-hooks' registration in another agent's hook configuration, in that
// agent's file and shape (src/hosts/table.ts): one entry per host event whose Claude Code event the policy uses,
// each firing `peri-hooks fire --host <agent> <its event>` by absolute paths. The file's other keys, comments
// and formatting stay; a file install created is removed again by uninstall.
import { existsSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { type LoadOptions, loadSettings } from '../config/index.ts';
import { commandWords } from '../config/registration.ts';
import { PeriHooksError } from '../errors.ts';
import { EVENT_NAMES, type EventName } from '../events.ts';
import {
  type CodexHook,
  codexConfigFile,
  codexHooks,
  readCodexConfig,
  withTrustedHashes,
} from '../hosts/codex-trust.ts';
import { HOSTS, type HostDef } from '../hosts/table.ts';
import { type HostName, servedEvents } from '../hosts/types.ts';
import { timeoutMs } from '../plan.ts';
import { formatDiagnostic } from '../text.ts';
import type { Diagnostic, LoadedHook } from '../types.ts';
import { type Artefact, fastestArtefact } from './artefact.ts';
import { codexMcpHandler, isCodexMcpHandler, withCodexServer } from './codex-mcp.ts';
import { createdByInstall, removeCreated } from './created.ts';
import { GENERATED_MARK, pluginSource } from './host-plugin.ts';
import { type FileChange, rejectedPolicy } from './install.ts';
import {
  append,
  child,
  looseTree,
  type Node,
  nodeValue,
  parseSettings,
  remove,
  replace,
  sameTokens,
} from './jsonc-edit.ts';
import {
  auditWords,
  type Launch,
  type LaunchWord,
  launchCommand,
  portableArtefact,
  portableLaunch,
  portableWarnings,
} from './launch.ts';
import type { McpServerEntry } from './mcp-registration.ts';
import { checkWritable, firstBackup, readSettingsText, replaceFile, writeSettingsText } from './settings-file.ts';

export const HOST_SCOPES = ['project', 'user'] as const;
export type HostScope = (typeof HOST_SCOPES)[number];

export interface HostInstallOptions {
  host: HostName;
  scope: HostScope;
  policies: readonly string[];
  events?: readonly EventName[];
  failClosed: boolean;
  /** Also record the agent's own trust of each entry (Codex: its trusted_hash in config.toml). */
  trust?: boolean;
  dryRun: boolean;
  force?: boolean;
  /** `--audit <file>` (relative to `cwd`): the registered firings append to this audit log. */
  audit?: string;
  /** `mcp`: mcp_tool hooks that call `peri-hooks mcp --host <agent>`, which the agent starts (codex-mcp.ts); fail-open only. */
  via?: 'command' | 'mcp';
  cwd: string;
  load: Pick<LoadOptions, 'projectDir' | 'home' | 'env'>;
}

export interface HostInstallResult {
  file: string;
  artefact: Artefact;
  /** The host events registered, each with the Claude Code event it fires. */
  events: Array<{ hostEvent: string; event: EventName }>;
  /** The policy's events the host has no event for: their hooks do not run there. */
  unmapped: EventName[];
  /** With --via mcp: the file that defines the MCP server the agent starts, and the host events that call it. */
  mcp?: { file: string; events: string[] };
  changes: FileChange[];
  warnings: Diagnostic[];
}

/**
 * peri-hooks' margin over its slowest hook: its start-up, the policy's load and the stop of a hook that timed out
 * must fit, or the agent kills peri-hooks first, and most agents (Codex, Gemini CLI, Qwen Code) then run the call,
 * --fail-closed or not. 2 s was too little on a loaded machine: a fail-closed firing whose 1 s hook times out took
 * 2.9 to 3.9 s with both cores busy, past Qwen's 3 s (the flake of test:hosts qwen's timeout case).
 */
const MARGIN_S = 5;

export function hostFile(host: HostDef, scope: HostScope, load: Pick<LoadOptions, 'projectDir' | 'home'>): string {
  if (scope === 'user') {
    if (!host.install.user)
      throw new PeriHooksError('usage', `${host.title} has no user-wide hook configuration`, 'use --scope project');
    return path.join(load.home ?? process.env.HOME ?? '', host.install.user);
  }
  return path.join(path.resolve(load.projectDir ?? '.'), host.install.project);
}

export async function hostInstall(options: HostInstallOptions): Promise<HostInstallResult> {
  const host = HOSTS[options.host];
  const file = hostFile(host, options.scope, options.load);
  const mcpFields = options.via === 'mcp' ? viaMcpFields(host, options.failClosed) : undefined;
  const policies = [...new Set(options.policies.map((policy) => path.resolve(options.cwd, policy)))];
  if (policies.length === 0)
    throw new PeriHooksError(
      'usage',
      `no policy to register: install --host ${host.name} needs the Claude Code hooks peri-hooks should run`,
      'give their file with --policy <file>',
    );
  for (const policy of policies)
    if (!existsSync(policy))
      throw new PeriHooksError(
        'usage',
        `policy file ${policy} does not exist`,
        'give the path of a settings-style file holding the hooks, e.g. --policy team-policy.json',
      );
  const loaded = await loadSettings({ ...options.load, settings: policies, settingSources: [] });
  const errors = loaded.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length > 0 || loaded.sources.some((source) => source.status !== 'loaded')) {
    throw new PeriHooksError(
      'usage',
      `the policy does not load, so nothing was changed:\n${errors.map((diagnostic) => formatDiagnostic(diagnostic, '  ')).join('\n')}`,
      `peri-hooks validate --setting-sources none ${policies.map((policy) => `--settings ${policy}`).join(' ')} lists every problem`,
    );
  }
  const rejected = await rejectedPolicy(options, policies, options.force === true);
  const used = options.events ?? EVENT_NAMES.filter((event) => loaded.hooks.some((hook) => hook.event === event));
  const events = Object.entries(host.events)
    .filter(([, def]) => def.install && servedEvents(def).some((event) => used.includes(event)))
    .map(([hostEvent, def]) => ({ hostEvent, event: def.event }));
  if (events.length === 0) {
    throw new PeriHooksError(
      'usage',
      `the policy's events (${used.join(', ') || 'none'}) have no ${host.title} event to register`,
      `${host.title} maps: ${[...new Set(Object.values(host.events).flatMap(servedEvents))].join(', ')} (see docs/agents/other-agents.md)`,
    );
  }
  // A project's files are committed: the command (a plugin: its own file) finds the project from the file that holds it.
  const portable =
    options.scope === 'project'
      ? portableLaunch({ anchor: host.install.project }, path.resolve(options.load.projectDir ?? '.'))
      : undefined;
  const artefact = portable ? portableArtefact() : fastestArtefact();
  const launch: Launch = portable ? { portable } : { runner: artefact.runner };
  const auditFile = options.audit === undefined ? undefined : path.resolve(options.cwd, options.audit);
  const audit = auditWords(auditFile, portable, options.load.home ?? homedir());
  const sources = [
    ...policies.flatMap((policy) => ['--settings', { file: policy }]),
    '--setting-sources',
    'none',
    ...(options.failClosed ? ['--fail-closed'] : []),
    ...audit,
  ];
  const command = (hostEvent: string) =>
    launchCommand(
      launch,
      ['fire', '--host', host.name, hostEvent, ...sources],
      host.events[hostEvent]!.event,
      options.failClosed,
    );
  const viaMcp = events
    .filter(({ hostEvent }) => mcpFields?.[hostEvent] !== undefined)
    .map(({ hostEvent }) => hostEvent);
  // The host kills the registration at its timeout: the slowest hook of every Claude Code event it fires, plus the margin.
  const timeoutS = (hostEvent: string) =>
    Math.max(...servedEvents(host.events[hostEvent]!).map((event) => slowestS(event, loaded.hooks))) + MARGIN_S;
  const changes =
    host.install.shape === 'scripts'
      ? scriptChanges(
          host,
          file,
          events.map(({ hostEvent }) => ({
            name: hostEvent,
            text: `#!/bin/sh\n# ${GENERATED_MARK} ${host.name}\n${portable ? '' : 'exec '}${command(hostEvent)}\n`,
          })),
        )
      : host.install.shape === 'plugin'
        ? fileChanges(
            file,
            pluginSource(
              host.name,
              launch,
              policies,
              options.failClosed,
              events.map(({ hostEvent }) => hostEvent),
              auditFile,
            ),
          )
        : configChanges(
            host,
            file,
            new Map(
              events.map(({ hostEvent }) => [
                hostEvent,
                viaMcp.includes(hostEvent)
                  ? { hooks: [codexMcpHandler(mcpFields![hostEvent]!, Math.ceil(timeoutS(hostEvent)))] }
                  : entry(host, command(hostEvent), timeoutS(hostEvent)),
              ]),
            ),
          );
  // The server the mcp_tool hooks call; a registration of commands takes an old one away.
  const serverFile = host.install.mcpFields ? codexServerFile(options.scope, options.load) : undefined;
  if (serverFile)
    changes.push(
      ...serverChanges(
        serverFile,
        viaMcp.length > 0 ? serverEntry(launch, ['mcp', '--host', host.name, ...sources]) : undefined,
      ),
    );
  if (options.trust) trustChanges(host, file, changes, options.load);
  if (!options.dryRun) applyAll(changes, host.install.shape === 'scripts', hostRoot(options.scope, options.load));
  const unmapped = used.filter((event) => !events.some((registered) => registered.event === event));
  const warnings = [
    ...rejected,
    ...loaded.diagnostics.filter((diagnostic) => diagnostic.severity === 'warning'),
    ...(portable ? portableWarnings(portable, policies, file, options.load.env ?? process.env) : []),
  ];
  return {
    file,
    artefact,
    events,
    unmapped,
    changes,
    warnings,
    ...(serverFile && viaMcp.length > 0 ? { mcp: { file: serverFile, events: viaMcp } } : {}),
  };
}

/** The host events --via mcp registers as mcp_tool hooks; refused where the host has none, and fail-closed. */
function viaMcpFields(host: HostDef, failClosed: boolean): Readonly<Record<string, readonly string[]>> {
  if (!host.install.mcpFields)
    throw new PeriHooksError(
      'usage',
      `install --via mcp is not built for --host ${host.name}: ${host.title} has no mcp_tool hooks peri-hooks registers`,
      `register ${host.title} with commands: install --host ${host.name}`,
    );
  if (failClosed)
    throw new PeriHooksError(
      'usage',
      `install --host ${host.name} --via mcp cannot be fail-closed: ${host.title} lets the call run on every failure of an mcp_tool hook (a server that is not there, an error, plain text, a timeout) and ignores onFailure`,
      `register ${host.title} with commands (install --host ${host.name}, fail-closed by default), or accept a guard that opens on any failure with --via mcp --fail-open`,
    );
  return host.install.mcpFields;
}

/** Where Codex reads peri-hooks' MCP server for the scope: the project's .codex/config.toml, or the user's ($CODEX_HOME). */
export function codexServerFile(scope: HostScope, load: HostInstallOptions['load']): string {
  return scope === 'project'
    ? path.join(path.resolve(load.projectDir ?? '.'), '.codex/config.toml')
    : codexConfigFile(load.env ?? process.env, load.home ?? process.env.HOME ?? '');
}

/** `peri-hooks mcp …` as the agent starts it: by absolute paths, or (a project's committed file) the portable prologue under `sh -c`. */
function serverEntry(launch: Launch, words: readonly LaunchWord[]): McpServerEntry {
  if ('runner' in launch) {
    const [command, ...rest] = launch.runner;
    return {
      type: 'stdio',
      command: command!,
      args: [...rest, ...words.map((word) => (typeof word === 'string' ? word : word.file))],
    };
  }
  // Fail-open: a missing peri-hooks is said on the server's stderr, and the calls run.
  return { type: 'stdio', command: 'sh', args: ['-c', launchCommand(launch, words, 'mcp', false)] };
}

/** The config.toml change that defines (or, undefined, takes away) peri-hooks' server. */
function serverChanges(file: string, entry: McpServerEntry | undefined): FileChange[] {
  const before = readSettingsText(file).text;
  if (before === undefined && entry === undefined) return [];
  const after = withCodexServer(file, before ?? '', entry);
  return after === (before ?? '') ? [] : [{ file, before, after }];
}

/** Codex runs a hook only with its trusted_hash in config.toml: the one it computes for each of peri-hooks' entries. */
function trustChanges(host: HostDef, file: string, changes: FileChange[], load: HostInstallOptions['load']): void {
  if (host.name !== 'codex')
    throw new PeriHooksError(
      'usage',
      `--trust is for --host codex: ${host.title} keeps no per-hook trust that peri-hooks writes`,
      `leave --trust out; peri-hooks doctor checks what ${host.title} needs before it runs the registration`,
    );
  const text = changes.find((change) => change.file === file)?.after ?? readSettingsText(file).text ?? '';
  const config = codexConfigFile(load.env ?? process.env, load.home ?? process.env.HOME ?? '');
  // The user's config.toml may be changing already: it defines the user scope's MCP server.
  const pending = changes.find((change) => change.file === config);
  const before = pending?.after ?? readCodexConfig(config);
  const after = withTrustedHashes(
    before,
    codexHooks(file, text).filter((hook) => isOurCodexHook(hook, host.name)),
  );
  if (after === before) return;
  if (pending) pending.after = after;
  else changes.push({ file: config, before: existsSync(config) ? before : undefined, after });
}

/** A hook of a hooks.json that is peri-hooks' own: a firing for this host, or the mcp_tool hook that calls its server. */
export function isOurCodexHook(hook: CodexHook, host: HostName): boolean {
  return hook.mcp ? isCodexMcpHandler({ type: 'mcp_tool', ...hook.mcp }) : firesHost(hook.command, host);
}

export interface HostUninstallResult {
  file: string;
  changes: FileChange[];
}

export function hostUninstall(
  options: Pick<HostInstallOptions, 'host' | 'scope' | 'dryRun' | 'load'>,
): HostUninstallResult {
  const host = HOSTS[options.host];
  const file = hostFile(host, options.scope, options.load);
  const changes =
    host.install.shape === 'scripts'
      ? scriptChanges(host, file, [])
      : host.install.shape === 'plugin'
        ? isGenerated(file)
          ? [{ file, before: readSettingsText(file).text, after: '' }]
          : []
        : configChanges(host, file, new Map());
  if (host.install.mcpFields) changes.push(...serverChanges(codexServerFile(options.scope, options.load), undefined));
  if (!options.dryRun) applyAll(changes, false, hostRoot(options.scope, options.load));
  return { file, changes };
}

/** The folder whose subfolders install may make and uninstall remove: the project, or home. */
function hostRoot(scope: HostScope, load: Pick<LoadOptions, 'projectDir' | 'home'>): string {
  return scope === 'user' ? path.resolve(load.home ?? process.env.HOME ?? '') : path.resolve(load.projectDir ?? '.');
}

function slowestS(event: EventName, hooks: readonly LoadedHook[]): number {
  const own = hooks.filter((hook) => hook.event === event);
  return own.length === 0 ? 0 : Math.max(...own.map((hook) => timeoutMs(event, hook.handler, hooks, {}) / 1000));
}

/** One handler in the host's shape: its fixed keys, the command, the timeout in the host's unit. */
function entry(host: HostDef, command: string, timeoutS: number): Record<string, unknown> {
  const { handler, commandKey, timeout } = host.install;
  const value =
    timeout === undefined
      ? {}
      : {
          [timeout.key]:
            timeout.unit === 'ms'
              ? Math.round(timeoutS * 1000)
              : timeout.whole
                ? Math.ceil(timeoutS)
                : Math.round(timeoutS * 1000) / 1000,
        };
  const flat = { ...handler, [commandKey]: command, ...value };
  return host.install.shape === 'nested' ? { hooks: [flat] } : flat;
}

/** Whether a command line is peri-hooks firing for this host. */
export function firesHost(command: unknown, host: HostName): boolean {
  if (typeof command !== 'string') return false;
  const words = commandWords(command);
  if (!words) return false;
  const at = words.indexOf('fire');
  return at > 0 && words[at + 1] === '--host' && words[at + 2] === host;
}

/** Whether an entry of a host event's array is peri-hooks' own: a flat handler, or a group of nothing else. */
export function isOurEntry(host: HostDef, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (host.install.shape === 'nested') {
    const handlers = (value as { hooks?: unknown }).hooks;
    return (
      Array.isArray(handlers) &&
      handlers.length > 0 &&
      handlers.every(
        (handler) =>
          firesHost((handler as Record<string, unknown> | null)?.[host.install.commandKey], host.name) ||
          (host.install.mcpFields !== undefined && isCodexMcpHandler(handler)),
      )
    );
  }
  return firesHost((value as Record<string, unknown>)[host.install.commandKey], host.name);
}

/** The text of a file install creates: the skeleton keys, and the events container. */
function newFileText(host: HostDef): string {
  return `${JSON.stringify({ ...host.install.skeleton }, null, 2)}\n`;
}

/** The JSON configuration with exactly `wanted` as peri-hooks' entries (none: uninstall). */
function configChanges(
  host: HostDef,
  file: string,
  wanted: ReadonlyMap<string, Record<string, unknown>>,
): FileChange[] {
  const read = readSettingsText(file);
  if (read.text === undefined && wanted.size === 0) return [];
  let text = read.text ?? newFileText(host);
  let root = parseSettings(file, text);
  const container = () => host.install.under.reduce<Node | undefined>((node, key) => child(node, key), root);
  // The file before the first install: what was there empty stays, and blanks come back as they were.
  const before = read.text === undefined ? undefined : firstBackup(read);
  const prior =
    before === undefined
      ? undefined
      : host.install.under.reduce<Node | undefined>((node, key) => child(node, key), looseTree(before));
  // Out with every registration first, one at a time (the tree changes with each edit) …
  for (let target = ourEntry(host, container(), wanted); target; target = ourEntry(host, container(), wanted)) {
    root = parseSettings(file, (text = remove(text, emptied(target, prior))));
  }
  if (wanted.size === 0 && before !== undefined && text !== read.text && sameTokens(text, before)) text = before;
  // … then each wanted entry in place of the one already there, or at the end.
  for (const [hostEvent, value] of wanted) {
    const events = container();
    const array = child(events, hostEvent);
    const existing = (array?.children ?? []).find((node) => isOurEntry(host, nodeValue(node)));
    if (existing)
      text = JSON.stringify(nodeValue(existing)) === JSON.stringify(value) ? text : replace(text, existing, value);
    else if (array?.type === 'array') text = append(text, array, value);
    else if (array !== undefined)
      throw new PeriHooksError(
        'usage',
        `"${[...host.install.under, hostEvent].join('.')}" in ${file} is not an array; nothing was changed`,
        `fix the file as ${host.title} documents it`,
      );
    else
      text = events
        ? append(text, events, [value], hostEvent)
        : appendPath(text, root, host.install.under, { [hostEvent]: [value] });
    root = parseSettings(file, text);
  }
  if (text === read.text) return [];
  // A file that holds nothing but what install created goes again.
  const after = wanted.size === 0 && text === newFileText(host) && read.text !== undefined ? '' : text;
  return [{ file, before: read.text, after }];
}

/** A registration that must go: any in an event not wanted, or a second one of a wanted event. */
function ourEntry(host: HostDef, events: Node | undefined, wanted: ReadonlyMap<string, unknown>): Node | undefined {
  for (const property of events?.type === 'object' ? (events.children ?? []) : []) {
    const name = property.children?.[0]?.value as string;
    const array = property.children?.[1];
    if (array?.type !== 'array') continue;
    const ours = (array.children ?? []).filter((node) => isOurEntry(host, nodeValue(node)));
    const keep = wanted.has(name) ? 1 : 0;
    if (ours.length > keep) return ours.at(-1);
  }
  return undefined;
}

/**
 * The node to remove with a registration: its array too when it was the only entry, and the container when that
 * was its only event — each unless the file before install (`prior`, its events container) had it empty.
 */
function emptied(target: Node, prior: Node | undefined): Node {
  const array = target.parent!;
  const wasEmpty = (node: Node | undefined) => node !== undefined && node.children?.length === 0;
  if (array.children!.length > 1) return target;
  const property = array.parent!;
  if (wasEmpty(child(prior, property.children![0]!.value as string))) return target;
  const events = property.parent!;
  if (events.children!.length > 1 || !events.parent?.parent || wasEmpty(prior)) return property;
  return events.parent;
}

function appendPath(text: string, root: Node, under: readonly string[], value: Record<string, unknown>): string {
  let node = root;
  for (const [index, key] of under.entries()) {
    const next = child(node, key);
    if (!next)
      return append(
        text,
        node,
        under.slice(index + 1).reduceRight<unknown>((inner, name) => ({ [name]: inner }), value),
        key,
      );
    node = next;
  }
  return text;
}

/** Cline: one executable per event in the folder; peri-hooks' own are replaced or removed, others left alone. */
function scriptChanges(
  host: HostDef,
  folder: string,
  wanted: ReadonlyArray<{ name: string; text: string }>,
): FileChange[] {
  const names = new Set(wanted.map(({ name }) => name));
  const existing = existsSync(folder) ? readdirSync(folder).filter((name) => Object.hasOwn(host.events, name)) : [];
  const changes: FileChange[] = [];
  for (const name of existing) {
    const file = path.join(folder, name);
    if (!names.has(name) && isGenerated(file)) changes.push({ file, before: readSettingsText(file).text, after: '' });
  }
  for (const { name, text } of wanted) {
    const file = path.join(folder, name);
    const before = readSettingsText(file).text;
    if (before !== undefined && !isGenerated(file))
      throw new PeriHooksError(
        'usage',
        `${file} is a ${host.title} hook of its own; nothing was changed`,
        `move it out of ${folder} (its hook would be replaced), or leave its event out with --events`,
      );
    if (before !== text) changes.push({ file, before, after: text });
  }
  return changes;
}

function fileChanges(file: string, text: string): FileChange[] {
  const before = readSettingsText(file).text;
  if (before !== undefined && !isGenerated(file))
    throw new PeriHooksError(
      'usage',
      `${file} exists and is not peri-hooks' own; nothing was changed`,
      'move it away, or remove it',
    );
  return before === text ? [] : [{ file, before, after: text }];
}

function isGenerated(file: string): boolean {
  return readSettingsText(file).text?.includes(GENERATED_MARK) ?? false;
}

/** Writes the changes, once every file to write is known to take its new text faithfully. */
function applyAll(changes: readonly FileChange[], executable: boolean, root: string): void {
  checkWritable(changes.filter((change) => change.after !== '').map((change) => readSettingsText(change.file)));
  for (const change of changes) apply(change, executable, root);
}

/** Writes a change: '' removes the file; JSON files go through the settings writer (atomic, with a backup), the others are replaced atomically too. */
function apply(change: FileChange, executable: boolean, root: string): void {
  if (change.after === '') {
    // With the backup and the folders install made for it (.cursor/, .codex/), not above the project or home.
    if (createdByInstall(change.file)) removeCreated(change.file, root);
    else unlinkSync(change.file);
    return;
  }
  if (change.file.endsWith('.json')) {
    const backup = writeSettingsText({ ...readSettingsText(change.file), text: change.before }, change.after);
    if (backup !== undefined) change.backup = backup;
    return;
  }
  mkdirSync(path.dirname(change.file), { recursive: true });
  replaceFile(change.file, change.after, executable ? 0o755 : undefined);
}
