// `peri-hooks install`: peri-hooks' registration in the Claude Code settings file of a scope, one matcher group
// per event the policy files use. The file's other keys, comments and formatting stay as they are; a file
// that still holds hooks of its own for those events is refused (both would run) unless they are moved into a
// policy file next to it.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { type LoadOptions, loadSettings } from '../config/index.ts';
import { syntaxErrorPosition } from '../config/locate.ts';
import { httpListsFor } from '../config/merge.ts';
import { PeriHooksError } from '../errors.ts';
import { EVENT_NAMES, type EventName } from '../events.ts';
import { isUrlAllowed } from '../net/url-allowlist.ts';
import { isLoopback } from '../serve/auth.ts';
import { formatDiagnostic } from '../text.ts';
import type { Diagnostic } from '../types.ts';
import { type Artefact, fastestArtefact } from './artefact.ts';
import { type RegistrationGroup, registrationGroup, serveGroup } from './entries.ts';
import { appendGroup, eventGroups, eventsIn, type GroupView, isRecord } from './groups.ts';
import { append, child, type Node, nodeValue, parseSettings, remove, replace } from './jsonc-edit.ts';
import { auditWords, portableArtefact, portableLaunch, portableWarnings } from './launch.ts';
import {
  defineServer,
  type McpServerEntry,
  mcpGroup,
  mcpServerEntry,
  mcpServersPlace,
  undefineServer,
  viaMcp,
} from './mcp-registration.ts';
import {
  checkWritable,
  readSettingsText,
  type Scope,
  type SettingsText,
  scopeFile,
  writeSettingsText,
} from './settings-file.ts';

export interface InstallOptions {
  scope: Scope;
  /** As given; relative to `cwd`. */
  policies: readonly string[];
  /** Default: every event that has hooks in the policy files. */
  events?: readonly EventName[];
  failClosed: boolean;
  dryRun: boolean;
  moveHooks: boolean;
  /** Register a policy that validate rejects (said loudly). */
  force?: boolean;
  /** The firings load the project's and local settings too, for every event (or --events): with allowManagedHooksOnly, Claude Code runs them only through peri-hooks. */
  projectHooks?: boolean;
  /** --require-trust on the firings; default true in the managed scope. */
  requireTrust?: boolean;
  /** A `serve` URL: register http hooks that post to it instead of commands that start peri-hooks. */
  serve?: string;
  /** With `serve`: the variable Claude Code fills the bearer token from (the token itself is never written). */
  tokenEnv?: string;
  /** `--audit <file>` (relative to `cwd`): the registered firings append to this audit log. */
  audit?: string;
  /** `mcp`: mcp_tool hooks that call `peri-hooks mcp`, which Claude Code starts once per session (mcp-registration.ts). */
  via?: 'command' | 'mcp';
  cwd: string;
  load: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'>;
}

/** One file the command changes: its text before (undefined: a new file) and after, and its backup once written. */
export interface FileChange {
  file: string;
  before: string | undefined;
  after: string;
  backup?: string;
}

export interface InstallResult {
  file: string;
  /** Whether the firings are registered with --fail-closed; absent for --serve, where the server decides. */
  failClosed?: boolean;
  artefact: Artefact;
  /** The audit log the registered firings append to (`--audit`), as an absolute path here. */
  audit?: string;
  policies: string[];
  events: Array<{ event: EventName; group: RegistrationGroup; status: 'added' | 'updated' | 'unchanged' }>;
  /** With --via mcp: the file that defines the MCP server Claude Code starts. */
  mcpServers?: string;
  /** The policy file that --move-hooks filled, and the events whose hooks it moved now. */
  moved?: { file: string; events: EventName[] };
  /** The files that change (none when the registration is already there). */
  changes: FileChange[];
  warnings: Diagnostic[];
}

/** Where --move-hooks puts a settings file's hooks: next to it, named after it. */
export function movedHooksFile(settingsFile: string): string {
  return path.join(path.dirname(settingsFile), `${path.basename(settingsFile, '.json')}.peri-hooks-policy.json`);
}

export async function install(options: InstallOptions): Promise<InstallResult> {
  if (options.tokenEnv !== undefined && options.serve === undefined)
    throw new PeriHooksError(
      'usage',
      "--token-env names the bearer token of a server's http hooks",
      'give it with --serve <url>',
    );
  if (options.projectHooks && options.scope !== 'managed')
    throw new PeriHooksError(
      'usage',
      `--project-hooks registers peri-hooks to run the project's hooks in Claude Code's place: only the managed scope can keep Claude Code from running them itself (allowManagedHooksOnly)`,
      'install --scope managed --project-hooks (as root, or with --managed-dir)',
    );
  const settings = readSettingsText(scopeFile(options.scope, options.load));
  const { file } = settings;
  let text = settings.text ?? '{}\n';
  let root = parseSettings(file, text);
  const movedFile = movedHooksFile(settings.real);
  const given = [...new Set(options.policies.map((policy) => path.resolve(options.cwd, policy)))];
  for (const policy of given) checkPolicy(policy, settings);

  if (options.serve !== undefined) {
    if (options.via === 'mcp')
      throw new PeriHooksError(
        'usage',
        '--via mcp and --serve do not go together: one registers mcp_tool hooks, the other http hooks',
        'give one of them',
      );
    return installServe(options, settings, root, given);
  }
  const mcpPlace =
    options.scope === 'managed' && options.via !== 'mcp' ? undefined : mcpServersPlace(options.scope, options.load);
  const moved = options.moveHooks ? hooksToMove(settings, root, options.events) : new Map<EventName, unknown[]>();
  const policies = [...given, ...(moved.size > 0 || existsSync(movedFile) ? [movedFile] : [])];
  if (policies.length === 0 && !options.projectHooks) {
    throw new PeriHooksError(
      'usage',
      'no policy to register: install needs the hooks peri-hooks should run',
      `give their file with --policy <file>, or add --move-hooks to move the hooks of ${file} into one`,
    );
  }
  const loaded = await loadPolicies(options, given, movedFile, moved);
  // The hooks being moved are checked inline, as loadPolicies loads them.
  const rejected = await rejectedPolicy(
    options,
    [
      ...given,
      ...(existsSync(movedFile) ? [movedFile] : []),
      ...(moved.size > 0 ? [JSON.stringify({ hooks: Object.fromEntries(moved) })] : []),
    ],
    options.force === true,
  );
  // The project's hooks may use any event: each gets its registration.
  const events =
    options.events ??
    EVENT_NAMES.filter(
      (event) => options.projectHooks || moved.has(event) || loaded.hooks.some((hook) => hook.event === event),
    );
  if (events.length === 0)
    throw new PeriHooksError(
      'usage',
      `the policy files hold no hooks: nothing to register (${policies.join(', ')})`,
      'add hooks to the policy, or name the events with --events',
    );
  refuseOwnHooks(settings, root, events, moved, movedFile);

  // The project's file is committed: nothing of this machine goes in it.
  const portable =
    options.scope === 'project'
      ? portableLaunch({ variable: 'CLAUDE_PROJECT_DIR' }, path.dirname(path.dirname(file)))
      : undefined;
  const artefact = portable ? portableArtefact() : fastestArtefact();
  const auditFile = options.audit === undefined ? undefined : path.resolve(options.cwd, options.audit);
  const audit = auditWords(auditFile, portable, options.load.home ?? homedir());
  const results: InstallResult['events'] = [];
  const registration = {
    launch: portable ? { portable } : { runner: artefact.runner },
    policies,
    failClosed: options.failClosed,
    audit,
    ...(options.projectHooks ? { projectHooks: true } : {}),
    ...((options.requireTrust ?? options.scope === 'managed') ? { requireTrust: true } : {}),
  };
  let served = false;
  for (const event of events) {
    const mcp = options.via === 'mcp' && viaMcp(event, loaded.hooks);
    served ||= mcp;
    const group = mcp
      ? mcpGroup(event, loaded.hooks, options.failClosed)
      : registrationGroup(event, loaded.hooks, registration);
    const edited = registerEvent(file, text, root, event, group, moved.has(event));
    results.push({ event, group, status: edited.status });
    if (edited.text !== text) root = parseSettings(file, (text = edited.text));
  }

  // Claude Code runs only managed hooks, so the project's run once, through peri-hooks.
  if (options.projectHooks) {
    const switchNode = child(root, 'allowManagedHooksOnly');
    if (switchNode === undefined) text = append(text, root, true, 'allowManagedHooksOnly');
    else if (nodeValue(switchNode) !== true) text = replace(text, switchNode, true);
  }
  const edits: Array<{ read: SettingsText; after: string }> = [];
  if (moved.size > 0) edits.push(movedPolicyEdit(movedFile, moved));
  // The server before the hooks that call it; a command registration takes an old one away.
  const server = mcpPlace && serverEdit(mcpPlace, served ? mcpServerEntry(registration) : undefined);
  if (server) edits.push(server);
  if (text !== settings.text) edits.push({ read: settings, after: text });
  const changes = writeEdits(edits, options.dryRun);
  const strict = await strictJsonWarning(file, text);
  return {
    file,
    failClosed: options.failClosed,
    artefact,
    ...(auditFile ? { audit: auditFile } : {}),
    policies,
    events: results,
    changes,
    ...(served ? { mcpServers: mcpPlace!.file } : {}),
    ...(moved.size > 0 ? { moved: { file: movedFile, events: [...moved.keys()] } } : {}),
    warnings: [
      ...rejected,
      ...loaded.diagnostics.filter((diagnostic) => diagnostic.severity === 'warning'),
      ...(strict ? [strict] : []),
      ...(portable ? portableWarnings(portable, policies, file, options.load.env) : []),
    ],
  };
}

/** The edit that defines peri-hooks' MCP server (`entry`), or takes it away (undefined); none when nothing changes. */
function serverEdit(
  place: { file: string; keys: string[] },
  entry: McpServerEntry | undefined,
): { read: SettingsText; after: string } | undefined {
  let read: SettingsText;
  try {
    read = readSettingsText(place.file);
  } catch (error) {
    // Taking an old server away is tidying: a file that cannot be read here holds none of ours to take.
    if (entry === undefined) return undefined;
    throw error;
  }
  if (entry === undefined && read.text === undefined) return undefined;
  const text = read.text ?? '{}\n';
  const after = entry
    ? defineServer(place.file, text, place.keys, entry)
    : undefineServer(place.file, text, place.keys, undefined);
  return after === read.text ? undefined : { read, after };
}

function writeEdits(edits: ReadonlyArray<{ read: SettingsText; after: string }>, dryRun: boolean): FileChange[] {
  checkWritable(edits.map(({ read }) => read));
  return edits.map(({ read, after }): FileChange => {
    // In order: a policy before the registration that names it.
    const backup = dryRun ? undefined : writeSettingsText(read, after);
    return { file: read.file, before: read.text, after, ...(backup === undefined ? {} : { backup }) };
  });
}

/**
 * `install --serve <url>`: an http hook per event that posts to the server, which runs the policy it was started
 * with (--policy only chooses the events and timeouts here). With --token-env the hooks send the token from that
 * variable. Claude Code merges `allowedHttpHookUrls` and `httpHookAllowedEnvVars` across its settings files, so
 * where a list is in force that does not let the hooks through, their URL pattern or variable is added to this
 * file's list; where none is, no list is made, since a new one would restrict every other http hook.
 */
async function installServe(
  options: InstallOptions,
  settings: SettingsText,
  start: Node,
  given: string[],
): Promise<InstallResult> {
  const server = serverUrl(options.serve!);
  const tokenEnv = tokenVariable(options.tokenEnv, server);
  if (options.failClosed)
    throw new PeriHooksError(
      'usage',
      '--fail-closed belongs on the server with --serve: it decides what a failure does',
      'start the server with peri-hooks serve --fail-closed, and install --serve without it',
    );
  if (options.audit !== undefined)
    throw new PeriHooksError(
      'usage',
      '--audit belongs on the server with --serve: it runs the firings',
      'start the server with peri-hooks serve --audit <file>, and install --serve without it',
    );
  if (options.moveHooks)
    throw new PeriHooksError(
      'usage',
      "--move-hooks and --serve do not go together: the server does not read the moved hooks' file",
      'move the hooks into the policy the server runs, then install --serve',
    );
  const loaded =
    given.length > 0 ? await loadPolicies(options, given, movedHooksFile(settings.real), new Map()) : undefined;
  const events = options.events ?? EVENT_NAMES.filter((event) => loaded?.hooks.some((hook) => hook.event === event));
  if (events.length === 0)
    throw new PeriHooksError(
      'usage',
      'install --serve needs the events to register',
      'name them with --events PreToolUse,Stop, or give the policy the server runs with --policy',
    );
  const { file } = settings;
  let text = settings.text ?? '{}\n';
  let root = start;
  refuseOwnHooks(settings, root, events, new Map(), movedHooksFile(settings.real));
  const projectDir = options.scope === 'project' || options.scope === 'local' ? options.load.projectDir : undefined;
  const results: InstallResult['events'] = [];
  for (const event of events) {
    const group = serveGroup(event, server, loaded?.hooks ?? [], projectDir, tokenEnv);
    const edited = registerEvent(file, text, root, event, group, false);
    results.push({ event, group, status: edited.status });
    if (edited.text !== text) root = parseSettings(file, (text = edited.text));
  }
  const inForce = httpListsFor(options.scope, (await loadSettings(options.load)).settings);
  const refusesAHook = (urls: string[]) =>
    events.some((event) => !isUrlAllowed(new URL(`${server}/hooks/${event}`), urls));
  if (inForce.urls !== undefined && refusesAHook(inForce.urls))
    text = addToList(file, text, 'allowedHttpHookUrls', `${server}/hooks/*`);
  if (tokenEnv && inForce.envVars !== undefined && !inForce.envVars.includes(tokenEnv))
    text = addToList(file, text, 'httpHookAllowedEnvVars', tokenEnv);
  const changes = writeEdits(text !== settings.text ? [{ read: settings, after: text }] : [], options.dryRun);
  const strict = await strictJsonWarning(file, text);
  return {
    file,
    artefact: { runner: [], description: `http hooks posting to ${server}` },
    policies: given,
    events: results,
    changes,
    warnings: [
      ...(loaded?.diagnostics.filter((diagnostic) => diagnostic.severity === 'warning') ?? []),
      ...(strict ? [strict] : []),
    ],
  };
}

/** The server's base URL: http(s), no query, no trailing slash. */
function serverUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new PeriHooksError(
      'usage',
      `--serve ${JSON.stringify(value)} is not a URL`,
      "give the server's address, e.g. --serve http://127.0.0.1:7387",
    );
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search ||
    url.hash ||
    url.username ||
    url.password
  ) {
    throw new PeriHooksError(
      'usage',
      `--serve ${JSON.stringify(value)} must be a plain http:// or https:// address`,
      'e.g. --serve http://127.0.0.1:7387 (no query, no credentials)',
    );
  }
  return url.toString().replace(/\/+$/, '');
}

/** --token-env: a name Claude Code interpolates (upper case, §11.1); a server off loopback needs one, as serve does. */
function tokenVariable(name: string | undefined, server: string): string | undefined {
  if (name === undefined) {
    if (isLoopback(new URL(server).hostname.replace(/^\[|\]$/g, ''))) return undefined;
    throw new PeriHooksError(
      'usage',
      `--serve ${server} is not a loopback address, so the server needs a bearer token, and the hooks would send none`,
      "add --token-env PERI_HOOKS_TOKEN (the hooks send Authorization: Bearer $PERI_HOOKS_TOKEN; set it to the token of the server's --token-file where Claude Code runs)",
    );
  }
  if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) {
    throw new PeriHooksError(
      'usage',
      `--token-env ${JSON.stringify(name)} is not a variable name Claude Code fills in`,
      'use upper-case letters, digits and _, e.g. --token-env PERI_HOOKS_TOKEN',
    );
  }
  return name;
}

/** `entry` in the file's list under `key` (the list is made when the file has none). */
function addToList(
  file: string,
  text: string,
  key: 'allowedHttpHookUrls' | 'httpHookAllowedEnvVars',
  entry: string,
): string {
  const root = parseSettings(file, text);
  const list = child(root, key);
  if (!list) return append(text, root, [entry], key);
  // A list that is not one is the loader's to report; it is left as it is.
  if (list.type !== 'array' || (nodeValue(list) as unknown[]).includes(entry)) return text;
  return append(text, list, entry);
}

/** Comments are kept, but Claude Code reads settings files as strict JSON: with them, it ignores the whole file. */
export async function strictJsonWarning(file: string, text: string): Promise<Diagnostic | undefined> {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return {
      severity: 'warning',
      code: 'settings-not-strict-json',
      file,
      ...(await syntaxErrorPosition(text, (error as Error).message)),
      message:
        'this file is not strict JSON (a comment or a trailing comma): Claude Code rejects it as malformed and ignores all of it, the registration included',
      fix: 'remove the comments (keep the notes in another file), then run peri-hooks doctor',
    };
  }
}

function checkPolicy(policy: string, settings: SettingsText): void {
  if (!existsSync(policy) || !statSync(policy).isFile()) {
    throw new PeriHooksError(
      'usage',
      `policy file ${policy} does not exist`,
      'give the path of a settings-style file holding the hooks, e.g. --policy team-policy.json',
    );
  }
  if (realpathSync(policy) === settings.real) {
    throw new PeriHooksError(
      'usage',
      `${policy} is the settings file install writes to: Claude Code runs its hooks itself`,
      'add --move-hooks to move its hooks into a policy file that peri-hooks runs',
    );
  }
}

/** The groups --move-hooks takes from the file, per event, without peri-hooks' own handlers. */
function hooksToMove(
  settings: SettingsText,
  root: Node,
  only: readonly EventName[] | undefined,
): Map<EventName, unknown[]> {
  const moved = new Map<EventName, unknown[]>();
  for (const event of only ?? eventsIn(root)) {
    const groups = eventGroups(settings.file, root, event)
      .filter((view) => view.own)
      .map(withoutOurs);
    if (groups.length > 0) moved.set(event, groups);
  }
  return moved;
}

function withoutOurs(view: GroupView): unknown {
  if (view.ours.length === 0 || !isRecord(view.value)) return view.value;
  return { ...view.value, hooks: (view.value.hooks as unknown[]).filter((_, i) => !view.ours.includes(i)) };
}

/** The policy files as the registered firing will load them; one that does not load is refused before anything is written. */
async function loadPolicies(
  options: InstallOptions,
  given: string[],
  movedFile: string,
  moved: Map<EventName, unknown[]>,
) {
  // Hooks being moved are loaded inline: their file is written only once everything checks out.
  const sources = [
    ...given,
    ...(existsSync(movedFile) ? [movedFile] : []),
    ...(moved.size > 0 ? [JSON.stringify({ hooks: Object.fromEntries(moved) })] : []),
  ];
  const loaded = await loadSettings({ ...options.load, settings: sources, settingSources: [] });
  const broken = loaded.sources.filter((source) => source.status !== 'loaded');
  const errors = loaded.diagnostics.filter(
    (diagnostic) => diagnostic.severity === 'error' || broken.some((source) => source.file === diagnostic.file),
  );
  if (broken.length > 0 || errors.length > 0) {
    throw new PeriHooksError(
      'usage',
      `the policy does not load, so nothing was changed:\n${errors.map((diagnostic) => formatDiagnostic(diagnostic, '  ')).join('\n')}`,
      `fix it first; peri-hooks validate --setting-sources none ${sources
        .filter((source) => !source.startsWith('{'))
        .map((source) => `--settings ${source}`)
        .join(' ')} lists every problem`,
    );
  }
  return loaded;
}

/**
 * What `validate` rejects in the policy (a hook that never runs or always fails) refuses the install; with
 * `force` it is registered, and each error comes back as a warning that says so.
 */
export async function rejectedPolicy(
  options: Pick<InstallOptions, 'load'>,
  policies: readonly string[],
  force: boolean,
): Promise<Diagnostic[]> {
  const { validate } = await import('../validate/index.ts');
  const report = await validate({ ...options.load, settings: [...policies], settingSources: [] });
  const errors = report.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length === 0) return [];
  if (!force) {
    throw new PeriHooksError(
      'usage',
      `validate rejects the policy, so nothing was changed:\n${errors.map((diagnostic) => formatDiagnostic(diagnostic, '  ')).join('\n')}`,
      `fix it (peri-hooks validate --setting-sources none ${policies
        .filter((policy) => !policy.startsWith('{'))
        .map((policy) => `--settings ${policy}`)
        .join(' ')}), or register it as it is with --force`,
    );
  }
  return errors.map((diagnostic) => ({
    ...diagnostic,
    severity: 'warning' as const,
    message: `REGISTERED ANYWAY (--force): ${diagnostic.message}`,
  }));
}

function refuseOwnHooks(
  settings: SettingsText,
  root: Node,
  events: readonly EventName[],
  moved: Map<EventName, unknown[]>,
  movedFile: string,
): void {
  const clashes = events.flatMap((event) =>
    moved.has(event)
      ? []
      : eventGroups(settings.file, root, event).flatMap((view, i) => (view.own ? [`/hooks/${event}/${i}`] : [])),
  );
  if (clashes.length === 0) return;
  throw new PeriHooksError(
    'usage',
    `${settings.file} still holds hooks of its own for the events to register (${clashes.join(', ')}): Claude Code would run them and the policy both; nothing was changed`,
    `add --move-hooks to move them into ${movedFile}, which the registration runs, or leave those events out with --events`,
  );
}

/** The file with `group` as the event's registration: in place of the old one, or added at the end. */
function registerEvent(
  file: string,
  text: string,
  root: Node,
  event: EventName,
  group: RegistrationGroup,
  moving: boolean,
): { text: string; status: 'added' | 'updated' | 'unchanged' } {
  if (moving) return { text: replace(text, child(child(root, 'hooks'), event)!, [group]), status: 'added' };
  const views = eventGroups(file, root, event);
  const pure = views.filter((view) => !view.own && view.ours.length > 0);
  if (pure.length === 1 && !views.some((view) => view.own && view.ours.length > 0)) {
    if (JSON.stringify(pure[0]!.value) === JSON.stringify(group)) return { text, status: 'unchanged' };
    return { text: replace(text, pure[0]!.node, group), status: 'updated' };
  }
  // Several old registrations, or one inside a group of other hooks: out with them, one at a time, then one group at the end.
  let edited = text;
  let tree = root;
  let removed = false;
  for (let target = oldRegistration(file, tree, event); target; target = oldRegistration(file, tree, event)) {
    tree = parseSettings(file, (edited = remove(edited, target)));
    removed = true;
  }
  return { text: appendGroup(edited, tree, event, group), status: removed ? 'updated' : 'added' };
}

/** The last registration left in the event's groups: a group of only peri-hooks handlers, or one such handler. */
export function oldRegistration(file: string, root: Node, event: EventName): Node | undefined {
  const view = eventGroups(file, root, event).findLast((candidate) => candidate.ours.length > 0);
  if (!view) return undefined;
  return view.own ? child(child(view.node, 'hooks'), view.ours.at(-1)!) : view.node;
}

function movedPolicyEdit(movedFile: string, moved: Map<EventName, unknown[]>): { read: SettingsText; after: string } {
  const read = readSettingsText(movedFile);
  let text = read.text ?? '{}\n';
  for (const [event, groups] of moved) {
    for (const group of groups) text = appendGroup(text, parseSettings(movedFile, text), event, group);
  }
  return { read, after: text };
}
