// Where peri-hooks is registered: every scope's Claude Code settings file, read as install writes it.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadOptions } from '../config/index.ts';
import {
  MCP_SERVER_NAME,
  PROJECT_BIN,
  projectArgs,
  readMcpRegistration,
  readPortable,
  readRegistration,
  readServeRegistration,
  type ServeRegistration,
} from '../config/registration.ts';
import { PeriHooksError } from '../errors.ts';
import { canBlock, type EventName } from '../events.ts';
import { eventGroups, eventsIn, isRecord } from '../install/groups.ts';
import { strictJsonWarning } from '../install/install.ts';
import { parseSettings } from '../install/jsonc-edit.ts';
import { findPortable, portableLaunch } from '../install/launch.ts';
import { isServerEntry, type McpServerEntry, mcpServersPlace } from '../install/mcp-registration.ts';
import { readSettingsText, SCOPES, type Scope, scopeFile } from '../install/settings-file.ts';
import { displayPath } from '../text.ts';
import { type Check, check } from './check.ts';

export interface Found {
  scope: Scope;
  file: string;
  event: EventName;
  /** What the command starts; [] for an http registration. */
  runner: string[];
  /** The --settings values of the firing. */
  policies: string[];
  /** Its --mcp-config values: where its mcp_tool hooks find servers besides the configured ones. */
  mcpConfigs: string[];
  /** The server an http registration (`install --serve`) posts to, and the Authorization header it sends. */
  server?: string;
  authorization?: ServeRegistration['authorization'];
  /** The firing runs project and local hooks only with approved content. */
  requireTrust?: boolean;
  /** An mcp_tool registration (install --via mcp): the definition of the server Claude Code starts. */
  mcpServer?: { file: string; entry: McpServerEntry };
}

export async function findRegistrations(
  location: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'>,
): Promise<{ found: Found[]; checks: Check[] }> {
  const found: Found[] = [];
  const checks: Check[] = [];
  const unreadable: string[] = [];
  const files = SCOPES.map((scope) => ({ scope, file: scopeFile(scope, location) }));
  for (const { scope, file } of files) {
    try {
      const own = await inFile(scope, file, location);
      found.push(...own.found);
      checks.push(...own.checks);
    } catch (error) {
      if (!(error instanceof PeriHooksError)) throw error;
      // install's words for the same problem say what install did; here, what Claude Code does with the file.
      const unparsable = /^(.*) does not parse: (.*?); nothing was changed$/.exec(error.message);
      checks.push(
        unparsable
          ? check(
              'registration',
              'fail',
              `${scope} settings`,
              `${displayPath(file)} does not parse (${unparsable[2]}): Claude Code ignores all of it, so nothing it registers runs`,
              'make it strict JSON (no comments, no trailing commas), then run peri-hooks doctor',
            )
          : check(
              'registration',
              'fail',
              `${scope} settings`,
              error.message.replace(/; nothing was changed$/, ''),
              error.fix,
            ),
      );
      unreadable.push(displayPath(file));
    }
  }
  if (found.length === 0) {
    const which =
      unreadable.length > 0
        ? `Claude Code settings file that parses (${unreadable.join(', ')} does not)`
        : `Claude Code settings file (${files.map(({ file }) => displayPath(file)).join(', ')})`;
    checks.push(
      check(
        'registration',
        'fail',
        'registration',
        `peri-hooks is not registered in any ${which}`,
        'peri-hooks install --policy <file>',
      ),
    );
  }
  checks.push(...twiceRegistered(found));
  return { found, checks };
}

async function inFile(
  scope: Scope,
  file: string,
  location: Pick<LoadOptions, 'projectDir' | 'env' | 'home'>,
): Promise<{ found: Found[]; checks: Check[] }> {
  const { text } = readSettingsText(file);
  if (text === undefined) return { found: [], checks: [] };
  const root = parseSettings(file, text);
  const found: Found[] = [];
  const alongside: EventName[] = [];
  const missing = new Set<EventName>();
  const open = new Set<EventName>();
  const relative: string[] = [];
  const undefinedServer = new Set<EventName>();
  let defined: ReturnType<typeof definedServer> | undefined;
  for (const event of eventsIn(root)) {
    const views = eventGroups(file, root, event);
    for (const view of views) {
      const handlers = isRecord(view.value) ? (view.value.hooks as unknown[]) : [];
      for (const i of view.ours) {
        const handler = handlers[i] as { type: string };
        if (readMcpRegistration(handler)) {
          defined ??= definedServer(scope, location);
          if (!defined) {
            undefinedServer.add(event);
            continue;
          }
          if (!defined.args.includes('--fail-closed') && canBlock(event)) open.add(event);
          if (defined.runner.length === 0) missing.add(event);
          found.push({
            scope,
            file,
            event,
            runner: defined.runner,
            policies: flagValues(defined.args, '--settings'),
            mcpConfigs: flagValues(defined.args, '--mcp-config'),
            mcpServer: { file: defined.file, entry: defined.entry },
          });
          continue;
        }
        const registration = readRegistration(handler);
        const served = readServeRegistration(handler);
        // A portable registration starts what its prologue finds here, and names its policies from the project.
        const runner = registration?.project
          ? [findPortable(location.projectDir, location.env)].filter((bin) => bin !== undefined)
          : registration?.runner;
        const args = registration?.project ? projectArgs(registration.args, location.projectDir) : registration?.args;
        if (registration?.project && runner!.length === 0) missing.add(event);
        if (registration && !registration.args.includes('--fail-closed') && canBlock(event)) open.add(event);
        if (registration && !registration.project)
          relative.push(
            ...flagValues(registration.args, '--settings').filter(
              (policy) => !path.isAbsolute(policy) && !policy.trimStart().startsWith('{') && !policy.startsWith('$'),
            ),
          );
        if (registration)
          found.push({
            scope,
            file,
            event,
            runner: runner!,
            policies: flagValues(args!, '--settings'),
            mcpConfigs: flagValues(args!, '--mcp-config'),
            ...(args!.includes('--require-trust') ? { requireTrust: true } : {}),
          });
        else if (served)
          found.push({
            scope,
            file,
            event,
            runner: [],
            policies: [],
            mcpConfigs: [],
            server: served.server,
            ...(served.authorization ? { authorization: served.authorization } : {}),
          });
      }
    }
    if (views.some((view) => view.ours.length > 0) && views.some((view) => view.own)) alongside.push(event);
  }
  const serverChecks =
    undefinedServer.size > 0
      ? [
          check(
            'registration',
            'fail',
            `${scope} settings`,
            `${displayPath(file)} registers ${[...undefinedServer].join(', ')} as mcp_tool hooks that call the MCP server ${MCP_SERVER_NAME}, but ${scope === 'managed' ? 'no managed file' : displayPath(mcpServersPlace(scope, location).file)} does not define it: Claude Code says "not connected" on every firing, and blocks only where onFailure is "block"`,
            `peri-hooks install --via mcp${scope === 'project' ? '' : ` --scope ${scope}`} --policy <file> again`,
          ),
        ]
      : [];
  if (found.length === 0) return { found, checks: serverChecks };
  const events = [...new Set(found.map((entry) => entry.event))];
  const strict = await strictJsonWarning(file, text);
  const checks = [
    strict
      ? check(
          'registration',
          'fail',
          `${scope} settings`,
          `${displayPath(file)}:${strict.line}:${strict.column} registers ${events.join(', ')}, but ${strict.message}`,
          strict.fix,
        )
      : check('registration', 'pass', `${scope} settings`, `${displayPath(file)} registers ${events.join(', ')}`),
    ...serverChecks,
  ];
  if (relative.length > 0) {
    const shown = [...new Set(relative)];
    checks.push(
      check(
        'registration',
        'warn',
        `${scope} settings`,
        `${displayPath(file)} names its policy relative to the folder the hook runs in (${shown.join(', ')}): Claude Code runs hooks in the session's folder, so from a subfolder the policy is not found`,
        `name it from the project, --settings "$CLAUDE_PROJECT_DIR"/${shown[0]!.replace(/^\.\//, '')}, or run peri-hooks install, which does`,
      ),
    );
  }
  if (open.size > 0) {
    checks.push(
      check(
        'registration',
        'warn',
        `${scope} settings`,
        `${displayPath(file)} registers ${[...open].join(', ')} fail-open: a policy that does not load, a hook that fails or times out, and a peri-hooks that cannot start each let the call through (said only on stderr)`,
        'peri-hooks install again without --fail-open (fail-closed is the default): each of those then blocks',
      ),
    );
  }
  if (missing.size > 0) {
    checks.push(
      check(
        'artefact',
        'fail',
        'artefact',
        `${displayPath(file)} starts peri-hooks from the project's ${PROJECT_BIN} or from PATH, and on this machine neither is there (or node is not on PATH): its firings of ${[...missing].join(', ')} say so, and block where they are fail-closed`,
        portableLaunch({ variable: 'CLAUDE_PROJECT_DIR' }, location.projectDir).fix,
      ),
    );
  }
  if (alongside.length > 0) {
    checks.push(
      check(
        'registration',
        'warn',
        `${scope} settings`,
        `${displayPath(file)} also holds hooks of its own for ${alongside.join(', ')}: Claude Code runs them besides the policy`,
        'peri-hooks install --move-hooks moves them into the policy',
      ),
    );
  }
  return { found, checks };
}

/** peri-hooks' MCP server as the scope defines it (install --via mcp): what it starts here, its words after `mcp`. */
function definedServer(
  scope: Scope,
  location: Pick<LoadOptions, 'projectDir' | 'env' | 'home'>,
): { file: string; entry: McpServerEntry; runner: string[]; args: string[] } | undefined {
  if (scope === 'managed') return undefined;
  const place = mcpServersPlace(scope, location);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(place.file, 'utf8'));
  } catch {
    return undefined;
  }
  for (const key of [...place.keys, MCP_SERVER_NAME]) value = isRecord(value) ? value[key] : undefined;
  if (!isServerEntry(value)) return undefined;
  const entry = value as McpServerEntry;
  const portable = entry.command === 'sh' && entry.args[0] === '-c' ? readPortable(entry.args[1] ?? '') : undefined;
  if (portable) {
    const words = portable.words.slice(portable.words.indexOf('mcp') + 1);
    return {
      file: place.file,
      entry,
      runner: [findPortable(location.projectDir, location.env)].filter((bin) => bin !== undefined),
      args: projectArgs(words, location.projectDir),
    };
  }
  const at = entry.args.indexOf('mcp');
  return {
    file: place.file,
    entry,
    runner: [entry.command, ...entry.args.slice(0, at)],
    args: entry.args.slice(at + 1),
  };
}

/** The values of one flag in a registered command's arguments, `--flag value` or `--flag=value`. */
function flagValues(args: readonly string[], flag: string): string[] {
  return args.flatMap((arg, i) =>
    arg === flag && args[i + 1] !== undefined
      ? [args[i + 1]!]
      : arg.startsWith(`${flag}=`)
        ? [arg.slice(flag.length + 1)]
        : [],
  );
}

/** The same policy registered for an event in more than one scope: Claude Code runs each registration, so its hooks run twice. */
function twiceRegistered(found: readonly Found[]): Check[] {
  const scopes = new Map<string, Set<Scope>>();
  for (const entry of found) {
    for (const policy of entry.policies) {
      const key = JSON.stringify([entry.event, path.resolve(policy)]);
      scopes.set(key, (scopes.get(key) ?? new Set()).add(entry.scope));
    }
  }
  return [...scopes]
    .filter(([, where]) => where.size > 1)
    .map(([key, where]) => {
      const [event, policy] = JSON.parse(key) as [string, string];
      const all = [...where];
      return check(
        'registration',
        'warn',
        'registration',
        `${displayPath(policy)} is registered for ${event} in the ${all.join(' and ')} settings: Claude Code runs each registration, so every ${event} hook of it runs ${all.length} times`,
        `keep one: peri-hooks uninstall --scope ${all.at(-1)}${all.length > 2 ? ' (and the others but one)' : ''}`,
      );
    });
}
