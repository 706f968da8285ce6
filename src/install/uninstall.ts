// `peri-hooks uninstall`: removes peri-hooks' registration from the settings file of a scope, and nothing else:
// an event array or a `hooks` object left empty goes too, unless it was there and empty before install (the
// first backup is the file before install), and where what is left differs from that backup in blanks only, the
// backup's bytes come back.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LoadOptions } from '../config/index.ts';
import { readMcpRegistration } from '../config/registration.ts';
import type { EventName } from '../events.ts';
import { createdByInstall, removeCreated } from './created.ts';
import { eventGroups, eventsIn, isRecord } from './groups.ts';
import { type FileChange, movedHooksFile, oldRegistration } from './install.ts';
import { child, looseTree, type Node, parseSettings, remove, sameTokens } from './jsonc-edit.ts';
import { mcpServersPlace, undefineServer } from './mcp-registration.ts';
import { firstBackup, readSettingsText, type Scope, scopeFile, writeSettingsText } from './settings-file.ts';

export interface UninstallOptions {
  scope: Scope;
  /** Default: every event. */
  events?: readonly EventName[];
  dryRun: boolean;
  load: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'>;
}

export interface UninstallResult {
  file: string;
  /** Registration handlers removed, per event. */
  removed: Array<{ event: EventName; handlers: number }>;
  change?: FileChange;
  /** The MCP server definition of install --via mcp, taken away (from .mcp.json or ~/.claude.json). */
  serverChange?: FileChange;
  /** The policy file that install --move-hooks wrote next to the settings, when there is one: it stays. */
  movedHooks?: string;
}

export function uninstall(options: UninstallOptions): UninstallResult {
  const result = uninstallHooks(options);
  // The server goes with the last mcp_tool hook that calls it.
  if (options.scope === 'managed' || (options.events && stillCalled(result.file))) return result;
  const serverChange = uninstallServer(mcpServersPlace(options.scope, options.load), options.dryRun);
  return serverChange ? { ...result, serverChange } : result;
}

function stillCalled(file: string): boolean {
  const { text } = readSettingsText(file);
  if (text === undefined) return false;
  const root = parseSettings(file, text);
  return eventsIn(root).some((event) =>
    eventGroups(file, root, event).some(
      (view) =>
        isRecord(view.value) &&
        view.ours.some((i) => readMcpRegistration((view.value as { hooks: Array<{ type: string }> }).hooks[i]!)),
    ),
  );
}

/** peri-hooks' server out of its file, which goes back to its bytes before install, or goes when install made it. */
function uninstallServer(place: { file: string; keys: string[] }, dryRun: boolean): FileChange | undefined {
  const read = readSettingsText(place.file);
  if (read.text === undefined) return undefined;
  const before = firstBackup(read);
  let text = undefineServer(place.file, read.text, place.keys, before === undefined ? undefined : looseTree(before));
  if (text === read.text) return undefined;
  if (before !== undefined && sameTokens(text, before)) text = before;
  if (text.trim() === '{}' && createdByInstall(read.real)) {
    // Only the file and its backup: the folder it is in (the project, the home) stays.
    if (!dryRun) removeCreated(read.real, path.dirname(read.real));
    return { file: place.file, before: read.text, after: '' };
  }
  const backup = dryRun ? undefined : writeSettingsText(read, text);
  return { file: place.file, before: read.text, after: text, ...(backup === undefined ? {} : { backup }) };
}

function uninstallHooks(options: UninstallOptions): UninstallResult {
  const settings = readSettingsText(scopeFile(options.scope, options.load));
  const { file } = settings;
  const movedFile = movedHooksFile(settings.real);
  const movedHooks = existsSync(movedFile) ? { movedHooks: movedFile } : {};
  if (settings.text === undefined) return { file, removed: [], ...movedHooks };
  let text = settings.text;
  let root = parseSettings(file, text);
  const before = firstBackup(settings);
  const prior = before === undefined ? undefined : looseTree(before);
  const removed: UninstallResult['removed'] = [];
  for (const event of eventsIn(root).filter((candidate) => options.events?.includes(candidate) ?? true)) {
    let handlers = 0;
    for (let target = oldRegistration(file, root, event); target; target = oldRegistration(file, root, event)) {
      handlers +=
        target.type === 'object' && Array.isArray(child(target, 'hooks')?.children)
          ? child(target, 'hooks')!.children!.length
          : 1;
      root = parseSettings(file, (text = remove(text, emptied(root, target, event, prior))));
    }
    if (handlers > 0) removed.push({ event, handlers });
  }
  if (before !== undefined && removed.length > 0 && sameTokens(text, before)) text = before;
  if (text === settings.text) return { file, removed, ...movedHooks };
  // A file install created and left empty goes, with its backup and the folders it made (above the project or home).
  if (text.trim() === '{}' && createdByInstall(settings.real)) {
    if (!options.dryRun) removeCreated(settings.real, path.dirname(path.dirname(settings.real)));
    return { file, removed, change: { file, before: settings.text, after: '' }, ...movedHooks };
  }
  const backup = options.dryRun ? undefined : writeSettingsText(settings, text);
  return {
    file,
    removed,
    change: { file, before: settings.text, after: text, ...(backup === undefined ? {} : { backup }) },
    ...movedHooks,
  };
}

/**
 * What goes with the last registration of an event: the event's array, and `hooks` when that was its only event
 * — each only where the file before install (`prior`) did not have it empty already.
 */
function emptied(root: Node, target: Node, event: EventName, prior: Node | undefined): Node {
  const hooks = child(root, 'hooks')!;
  const array = child(hooks, event)!;
  const wasEmpty = (node: Node | undefined) => node !== undefined && node.children?.length === 0;
  if (target.parent !== array || array.children!.length > 1 || wasEmpty(child(child(prior, 'hooks'), event)))
    return target;
  return hooks.children!.length > 1 || wasEmpty(child(prior, 'hooks')) ? array.parent! : hooks.parent!;
}
