// The registration of a policy for one event: one matcher group (no matcher: peri-hooks matches) whose handlers
// start peri-hooks for that event with the policy files. The policy's async hooks get their own handler per kind
// (`async`, `asyncRewake`), so that Claude Code's own async mechanism runs them, and the
// synchronous handler skips them.
import { SERVE_PROJECT_HEADER, SERVE_REGISTRATION_HEADER } from '../config/registration.ts';
import { EVENTS, type EventName } from '../events.ts';
import { timeoutMs } from '../plan.ts';
import type { LoadedHook } from '../types.ts';
import { type Launch, type LaunchWord, launchCommand } from './launch.ts';
import type { McpRegistrationHandler } from './mcp-registration.ts';

/** The fire flags that select the policy's async hooks, and that leave them out. */
export const ASYNC_FLAGS = { only: '--only-async', skip: '--skip-async' } as const;

/** peri-hooks' own start-up and answer, on top of its slowest hook. */
const MARGIN_S = 2;

export interface RegistrationHandler {
  type: 'command';
  command: string;
  async?: true;
  asyncRewake?: true;
  timeout: number;
}

/** `install --serve`: Claude Code posts the input to the server, which runs the policy it was started with. */
export interface ServeRegistrationHandler {
  type: 'http';
  url: string;
  headers: Record<string, string>;
  /** The variable that holds the bearer token, which Claude Code interpolates into the header. */
  allowedEnvVars?: string[];
  timeout: number;
}

export interface RegistrationGroup {
  /** Only where Claude Code reads the matcher for more than matching (FileChanged's watch list). */
  matcher?: string;
  hooks: Array<RegistrationHandler | ServeRegistrationHandler | McpRegistrationHandler>;
}

export interface RegistrationOptions {
  launch: Launch;
  /** Absolute paths, in order. */
  policies: readonly string[];
  failClosed: boolean;
  /** `--audit <file>` words (launch.ts auditWords), or none. */
  audit?: readonly LaunchWord[];
  /** The firings also load the project's settings (`install --project-hooks`): Claude Code runs them only through peri-hooks. */
  projectHooks?: boolean;
  /** The firings run project and local hooks only with approved content (`--require-trust`). */
  requireTrust?: boolean;
}

/** `hooks` are every hook of the policy files, as loaded (the SessionEnd budget depends on all of them). */
export function registrationGroup(
  event: EventName,
  hooks: readonly LoadedHook[],
  options: RegistrationOptions,
): RegistrationGroup {
  const own = hooks.filter((hook) => hook.event === event);
  const background = own.filter(isAsync);
  const foreground = own.filter((hook) => !isAsync(hook));
  const command = (...flags: string[]) =>
    launchCommand(
      options.launch,
      [
        'fire',
        event,
        '--output',
        'claude',
        ...options.policies.flatMap((policy) => ['--settings', { file: policy }]),
        '--setting-sources',
        options.projectHooks ? 'project,local' : 'none',
        ...(options.failClosed ? ['--fail-closed'] : []),
        ...(options.audit ?? []),
        ...(options.requireTrust ? ['--require-trust'] : []),
        ...flags,
      ],
      event,
      options.failClosed,
    );
  const timeout = (list: readonly LoadedHook[]) => registrationTimeout(event, list, hooks);
  const handlers: RegistrationHandler[] = [];
  if (foreground.length > 0 || background.length === 0) {
    handlers.push({
      type: 'command',
      command: command(...(background.length > 0 ? [ASYNC_FLAGS.skip] : [])),
      timeout: timeout(foreground),
    });
  }
  // Claude Code reads an async hook's messages but ignores the JSON of an asyncRewake one, so each kind gets its
  // own entry; headless, an asyncRewake hook without `async` runs in the foreground, so that flag is copied.
  const plain = background.filter((hook) => hook.handler.type === 'command' && hook.handler.asyncRewake !== true);
  const rewake = background.filter((hook) => hook.handler.type === 'command' && hook.handler.asyncRewake === true);
  if (plain.length > 0)
    handlers.push({ type: 'command', command: command(ASYNC_FLAGS.only), async: true, timeout: timeout(plain) });
  if (rewake.length > 0) {
    const alsoAsync = rewake.some((hook) => hook.handler.type === 'command' && hook.handler.async === true);
    handlers.push({
      type: 'command',
      command: command(ASYNC_FLAGS.only, 'asyncRewake'),
      ...(alsoAsync ? { async: true as const } : {}),
      asyncRewake: true,
      timeout: timeout(rewake),
    });
  }
  return { ...watchList(event, own), hooks: handlers };
}

/** Claude Code must not stop peri-hooks before peri-hooks stops the slowest of `list` (`hooks`: all of the policy's). */
export function registrationTimeout(
  event: EventName,
  list: readonly LoadedHook[],
  hooks: readonly LoadedHook[],
): number {
  const slowest =
    list.length === 0
      ? EVENTS[event].timeoutS
      : Math.max(...list.map((hook) => timeoutMs(event, hook.handler, hooks, {}) / 1000));
  return Math.round((slowest + MARGIN_S) * 1000) / 1000;
}

/**
 * Where the matchers are also what Claude Code watches (FileChanged), the registration carries every name the
 * policy's groups list, so that Claude Code watches what it would watch with the policy registered directly.
 */
export function watchList(event: EventName, hooks: readonly LoadedHook[]): Pick<RegistrationGroup, 'matcher'> {
  if (!EVENTS[event].matcherIsWatchList) return {};
  const names = [
    ...new Set(
      hooks
        .flatMap((hook) => (hook.matcher ?? '').split('|'))
        .map((name) => name.trim())
        .filter((name) => name !== '' && name !== '*'),
    ),
  ];
  return names.length > 0 ? { matcher: names.join('|') } : {};
}

function isAsync(hook: LoadedHook): boolean {
  return hook.handler.type === 'command' && (hook.handler.async === true || hook.handler.asyncRewake === true);
}

/**
 * The http registration of one event at a server. The project goes in a header (the server resolves the
 * project from it as fire does from CLAUDE_PROJECT_DIR); without one, the server takes the input's cwd. The
 * timeout is the event's, as a command registration's would be, plus the margin.
 */
export function serveGroup(
  event: EventName,
  server: string,
  hooks: readonly LoadedHook[],
  projectDir: string | undefined,
  tokenEnv?: string,
): RegistrationGroup {
  const own = hooks.filter((hook) => hook.event === event);
  return {
    ...watchList(event, own),
    hooks: [
      {
        type: 'http',
        url: `${server}/hooks/${event}`,
        headers: {
          [SERVE_REGISTRATION_HEADER]: 'registration',
          ...(projectDir ? { [SERVE_PROJECT_HEADER]: projectDir } : {}),
          ...(tokenEnv ? { Authorization: `Bearer $${tokenEnv}` } : {}),
        },
        ...(tokenEnv ? { allowedEnvVars: [tokenEnv] } : {}),
        timeout: registrationTimeout(event, own, hooks),
      },
    ],
  };
}
