// `doctor` and other agents: where peri-hooks is registered in their hook configurations (as install --host
// writes it), what each registration starts and which policy files it runs, for the runtime, artefact and policy
// checks that follow.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { LoadOptions } from '../config/index.ts';
import { commandWords, type PortableWord, portableCommand, projectArgs, readPortable } from '../config/registration.ts';
import { PeriHooksError } from '../errors.ts';
import { HOSTS, type HostDef } from '../hosts/table.ts';
import { HOST_NAMES, type HostName } from '../hosts/types.ts';
import { codexServer, isCodexMcpHandler } from '../install/codex-mcp.ts';
import {
  codexServerFile,
  firesHost,
  HOST_SCOPES,
  type HostScope,
  hostFile,
  isOurEntry,
} from '../install/host-install.ts';
import { GENERATED_MARK } from '../install/host-plugin.ts';
import { child, nodeValue, parseSettings } from '../install/jsonc-edit.ts';
import { findPortable } from '../install/launch.ts';
import type { McpServerEntry } from '../install/mcp-registration.ts';
import { readSettingsText } from '../install/settings-file.ts';
import { displayPath } from '../text.ts';
import { type Check, check } from './check.ts';
import { geminiGate } from './gemini-gate.ts';
import { HOST_GATES } from './host-gates.ts';

export interface HostFound {
  file: string;
  host: HostName;
  runner: string[];
  policies: string[];
}

/** The MCP server of an agent's mcp_tool registration (install --host codex --via mcp), for doctor to start. */
export interface HostMcpServer {
  agent: string;
  file: string;
  entry: McpServerEntry;
}

export function findHostRegistrations(location: Pick<LoadOptions, 'projectDir' | 'home' | 'env'>): {
  found: HostFound[];
  checks: Check[];
  mcpServers: HostMcpServer[];
} {
  const found: HostFound[] = [];
  const checks: Check[] = [];
  const mcpServers: HostMcpServer[] = [];
  for (const name of HOST_NAMES) {
    const host = HOSTS[name];
    for (const scope of HOST_SCOPES) {
      const file = hostFile(host, scope, location);
      try {
        const commands = registeredCommands(host, file);
        const viaMcp = host.install.mcpFields ? registeredMcpEvents(host, file) : [];
        if (commands.length === 0 && viaMcp.length === 0) continue;
        const firings = commands
          .map((command) => firingOf(command, location))
          .filter((firing): firing is HostFound & { event: string; failClosed: boolean } => firing !== undefined)
          .map((firing) => ({ ...firing, file, host: name }));
        if (viaMcp.length > 0) {
          const server = mcpServerOf(host, scope, file, viaMcp, location, checks);
          if (server) {
            mcpServers.push({ agent: host.title, file: server.file, entry: server.entry });
            found.push({ ...server.found, file, host: name });
          }
        }
        found.push(...firings);
        if (firings.some((firing) => firing.runner.length === 0)) {
          checks.push(
            check(
              'artefact',
              'fail',
              `${host.title} registration`,
              `${displayPath(file)} starts peri-hooks from the project's node_modules/.bin or from PATH, and on this machine neither is there (or node is not on PATH): its firings say so, and block where they are fail-closed`,
              'run npm install in the project, or put the peri-hooks single binary on PATH',
            ),
          );
        }
        checks.push(
          check(
            'registration',
            'pass',
            `${host.title} registration`,
            `${displayPath(file)}: ${[...new Set([...firings.map((firing) => firing.event), ...viaMcp.map((event) => `${event} (mcp_tool)`)])].join(', ')}`,
          ),
        );
        // Where the agent does not refuse the action itself when its hook fails, a fail-open firing lets it through.
        const order = Object.keys(host.events);
        const open = [
          ...new Set(
            firings
              .filter(
                (firing) =>
                  !firing.failClosed && host.events[firing.event]?.blocks && !host.events[firing.event]?.failsClosed,
              )
              .map((firing) => firing.event),
          ),
        ].sort((a, b) => order.indexOf(a) - order.indexOf(b));
        if (open.length > 0)
          checks.push(
            check(
              'registration',
              'warn',
              `${host.title} registration`,
              `${displayPath(file)} registers ${open.join(', ')} fail-open: a policy that does not load, a hook that fails or times out, and a peri-hooks that cannot start each let the action through in ${host.title} (said only on stderr)`,
              `peri-hooks install --host ${name} again without --fail-open (fail-closed is the default): each of those then blocks`,
            ),
          );
        checks.push(...(HOST_GATES[name]?.(file, scope, location) ?? []));
      } catch (error) {
        if (!(error instanceof PeriHooksError)) throw error;
        checks.push(check('registration', 'fail', `${host.title} registration`, error.message, error.fix));
      }
    }
  }
  // Gemini runs the hooks of either scope only in a folder it trusts.
  if (found.some((firing) => firing.host === 'gemini')) checks.push(geminiGate(location));
  return { found, checks, mcpServers };
}

/** The host events whose hooks in the file are peri-hooks' mcp_tool hooks. */
function registeredMcpEvents(host: HostDef, file: string): string[] {
  if (!existsSync(file)) return [];
  const root = parseSettings(file, readSettingsText(file).text ?? '{}');
  const events = host.install.under.reduce<ReturnType<typeof child>>((node, key) => child(node, key), root);
  return (events?.type === 'object' ? (events.children ?? []) : []).flatMap((property) =>
    (property.children?.[1]?.children ?? [])
      .map(nodeValue)
      .some(
        (entry) =>
          isOurEntry(host, entry) &&
          (entry as { hooks: unknown[] }).hooks.some((handler) => isCodexMcpHandler(handler)),
      )
      ? [String(property.children![0]!.value)]
      : [],
  );
}

/**
 * The server an mcp_tool registration calls, as the scope's config.toml defines it, with what it starts and runs;
 * the checks say that the registration is fail-open, and fail where no server is defined.
 */
function mcpServerOf(
  host: HostDef,
  scope: HostScope,
  file: string,
  events: readonly string[],
  location: Pick<LoadOptions, 'projectDir' | 'home' | 'env'>,
  checks: Check[],
): { file: string; entry: McpServerEntry; found: HostFound } | undefined {
  checks.push(
    check(
      'registration',
      'warn',
      `${host.title} registration`,
      `${displayPath(file)} registers ${events.join(', ')} as mcp_tool hooks, which are fail-open: ${host.title} runs the call without a word when one fails (the server not there or not starting, an error, a timeout; onFailure is ignored)`,
      `peri-hooks install --host ${host.name}${scope === 'user' ? ' --scope user' : ''} --policy <file> without --via mcp: commands, fail-closed by default`,
    ),
  );
  const serverFile = codexServerFile(scope, location);
  const entry = codexServer(readSettingsText(serverFile).text ?? '');
  if (!entry) {
    checks.push(
      check(
        'mcp-server',
        'fail',
        'MCP server',
        `${displayPath(file)} registers mcp_tool hooks that call the MCP server peri-hooks, but ${displayPath(serverFile)} does not define it: ${host.title} runs every call unguarded`,
        `peri-hooks install --host ${host.name} --via mcp --fail-open${scope === 'user' ? ' --scope user' : ''} --policy <file> again`,
      ),
    );
    return undefined;
  }
  const portable = entry.command === 'sh' ? readPortable(entry.args[1] ?? '') : undefined;
  const projectDir = path.resolve(location.projectDir ?? '.');
  const words = portable ? projectArgs(portable.words, projectDir) : [entry.command, ...entry.args];
  const at = words.indexOf('mcp');
  const bin = portable ? findPortable(projectDir, location.env ?? process.env) : undefined;
  return {
    file: serverFile,
    entry,
    found: {
      file,
      host: host.name,
      runner: portable ? (bin ? [bin] : []) : words.slice(0, at),
      policies: words.flatMap((word, i) => (words[i - 1] === '--settings' ? [word] : [])),
    },
  };
}

/** The command lines of peri-hooks' registrations in one host file (or folder of scripts). */
function registeredCommands(host: HostDef, file: string): string[] {
  if (!existsSync(file)) return [];
  if (host.install.shape === 'scripts') {
    return readdirSync(file)
      .filter((name) => Object.hasOwn(host.events, name))
      .map((name) => readSettingsText(path.join(file, name)).text ?? '')
      .filter((text) => text.includes(GENERATED_MARK))
      .map((text) =>
        text
          .trim()
          .split('\n')
          .at(-1)!
          .replace(/^exec /, ''),
      );
  }
  if (host.install.shape === 'plugin') {
    const text = readSettingsText(file).text ?? '';
    if (!text.includes(GENERATED_MARK)) return [];
    const runner = JSON.parse(/^const RUNNER = (.+);$/m.exec(text)?.[1] ?? '[]') as string[] | null;
    const args = JSON.parse(/^const ARGS = (.+);$/m.exec(text)?.[1] ?? '[]') as PortableWord[];
    // One firing per event the plugin hands to peri-hooks (`fire("<event>", …)` in its source).
    return Object.keys(host.events)
      .filter((hostEvent) => text.includes(`fire(${JSON.stringify(hostEvent)},`))
      .map((hostEvent) => {
        const words = ['fire', '--host', host.name, hostEvent, ...args];
        // A project's plugin finds peri-hooks and the policy from the project, as a portable command does.
        if (runner === null)
          return portableCommand({ anchor: host.install.project }, words, { message: '', exitCode: 1 });
        return [...runner, ...words]
          .map((word) =>
            typeof word === 'string' ? word : 'inProject' in word ? word.inProject : path.join(homedir(), word.inHome),
          )
          .map((word) => `'${word.replace(/'/g, `'\\''`)}'`)
          .join(' ');
      });
  }
  const root = parseSettings(file, readSettingsText(file).text ?? '{}');
  const events = host.install.under.reduce<ReturnType<typeof child>>((node, key) => child(node, key), root);
  return (events?.type === 'object' ? (events.children ?? []) : [])
    .flatMap((property) => (property.children?.[1]?.children ?? []).map(nodeValue))
    .filter((entry) => isOurEntry(host, entry))
    .flatMap((entry) =>
      host.install.shape === 'nested'
        ? (entry as { hooks: Array<Record<string, unknown>> }).hooks
        : [entry as Record<string, unknown>],
    )
    .map((handler) => String(handler[host.install.commandKey]))
    .filter((command) => firesHost(command, host.name));
}

/** A portable registration (a project's file) starts what its prologue finds here, with its policies named from the project. */
function firingOf(
  command: string,
  location: Pick<LoadOptions, 'projectDir' | 'env'>,
): (HostFound & { event: string; failClosed: boolean }) | undefined {
  const portable = readPortable(command) !== undefined;
  const found = commandWords(command);
  const words = found && portable ? projectArgs(found, path.resolve(location.projectDir ?? '.')) : found;
  const at = words?.indexOf('fire') ?? -1;
  if (!words || at < 1) return undefined;
  const policies = words.flatMap((word, i) => (words[i - 1] === '--settings' ? [word] : []));
  const bin = portable
    ? findPortable(path.resolve(location.projectDir ?? '.'), location.env ?? process.env)
    : undefined;
  return {
    file: '',
    host: words[at + 2] as HostName,
    event: words[at + 3] ?? '',
    runner: portable ? (bin ? [bin] : []) : words.slice(0, at),
    policies,
    failClosed: words.includes('--fail-closed'),
  };
}
