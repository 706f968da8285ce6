// Where peri-hooks is registered: every scope's Claude Code settings file, read as install writes it.
import type { LoadOptions } from '../config/index.ts';
import { PROJECT_BIN, projectArgs, readRegistration, readServeRegistration, type ServeRegistration } from '../config/registration.ts';
import { BLOCKABLE_EVENTS } from '../cli/node-version.ts';
import type { EventName } from '../events.ts';
import { PeriHooksError } from '../errors.ts';
import { eventGroups, eventsIn, isRecord } from '../install/groups.ts';
import { strictJsonWarning } from '../install/install.ts';
import { findPortable, portableLaunch } from '../install/launch.ts';
import { parseSettings } from '../install/jsonc-edit.ts';
import { readSettingsText, scopeFile, SCOPES, type Scope } from '../install/settings-file.ts';
import { displayPath } from '../text.ts';
import { check, type Check } from './check.ts';

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
}

export async function findRegistrations(location: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'>): Promise<{ found: Found[]; checks: Check[] }> {
  const found: Found[] = [];
  const checks: Check[] = [];
  const files = SCOPES.map((scope) => ({ scope, file: scopeFile(scope, location) }));
  for (const { scope, file } of files) {
    try {
      const own = await inFile(scope, file, location);
      found.push(...own.found);
      checks.push(...own.checks);
    } catch (error) {
      if (!(error instanceof PeriHooksError)) throw error;
      checks.push(check('registration', 'fail', `${scope} settings`, error.message, error.fix));
    }
  }
  if (found.length === 0) {
    checks.push(check('registration', 'fail', 'registration', `peri-hooks is not registered in any Claude Code settings file (${files.map(({ file }) => displayPath(file)).join(', ')})`, 'peri-hooks install --policy <file>'));
  }
  return { found, checks };
}

async function inFile(scope: Scope, file: string, location: Pick<LoadOptions, 'projectDir' | 'env'>): Promise<{ found: Found[]; checks: Check[] }> {
  const { text } = readSettingsText(file);
  if (text === undefined) return { found: [], checks: [] };
  const root = parseSettings(file, text);
  const found: Found[] = [];
  const alongside: EventName[] = [];
  const missing = new Set<EventName>();
  const open = new Set<EventName>();
  for (const event of eventsIn(root)) {
    const views = eventGroups(file, root, event);
    for (const view of views) {
      const handlers = isRecord(view.value) ? (view.value.hooks as unknown[]) : [];
      for (const i of view.ours) {
        const handler = handlers[i] as { type: string };
        const registration = readRegistration(handler);
        const served = readServeRegistration(handler);
        // A portable registration starts what its prologue finds here, and names its policies from the project.
        const runner = registration?.project ? [findPortable(location.projectDir, location.env)].filter((bin) => bin !== undefined) : registration?.runner;
        const args = registration?.project ? projectArgs(registration.args, location.projectDir) : registration?.args;
        if (registration?.project && runner!.length === 0) missing.add(event);
        if (registration && !registration.args.includes('--fail-closed') && BLOCKABLE_EVENTS.includes(event)) open.add(event);
        if (registration) found.push({ scope, file, event, runner: runner!, policies: flagValues(args!, '--settings'), mcpConfigs: flagValues(args!, '--mcp-config') });
        else if (served) found.push({ scope, file, event, runner: [], policies: [], mcpConfigs: [], server: served.server, ...(served.authorization ? { authorization: served.authorization } : {}) });
      }
    }
    if (views.some((view) => view.ours.length > 0) && views.some((view) => view.own)) alongside.push(event);
  }
  if (found.length === 0) return { found, checks: [] };
  const events = [...new Set(found.map((entry) => entry.event))];
  const strict = await strictJsonWarning(file, text);
  const checks = [strict
    ? check('registration', 'fail', `${scope} settings`, `${displayPath(file)}:${strict.line}:${strict.column} registers ${events.join(', ')}, but ${strict.message}`, strict.fix)
    : check('registration', 'pass', `${scope} settings`, `${displayPath(file)} registers ${events.join(', ')}`)];
  if (open.size > 0) {
    checks.push(check('registration', 'warn', `${scope} settings`, `${displayPath(file)} registers ${[...open].join(', ')} fail-open: a policy that does not load, a hook that fails or times out, and a peri-hooks that cannot start each let the call through (said only on stderr)`, 'peri-hooks install again without --fail-open (fail-closed is the default): each of those then blocks'));
  }
  if (missing.size > 0) {
    checks.push(check('artefact', 'fail', 'artefact', `${displayPath(file)} starts peri-hooks from the project's ${PROJECT_BIN} or from PATH, and on this machine neither is there (or node is not on PATH): its firings of ${[...missing].join(', ')} say so, and block where they are fail-closed`, portableLaunch({ variable: 'CLAUDE_PROJECT_DIR' }, location.projectDir).fix));
  }
  if (alongside.length > 0) {
    checks.push(check('registration', 'warn', `${scope} settings`, `${displayPath(file)} also holds hooks of its own for ${alongside.join(', ')}: Claude Code runs them besides the policy`, 'peri-hooks install --move-hooks moves them into the policy'));
  }
  return { found, checks };
}

/** The values of one flag in a registered command's arguments, `--flag value` or `--flag=value`. */
function flagValues(args: readonly string[], flag: string): string[] {
  return args.flatMap((arg, i) => (arg === flag && args[i + 1] !== undefined ? [args[i + 1]!] : arg.startsWith(`${flag}=`) ? [arg.slice(flag.length + 1)] : []));
}
