// `peri-hooks doctor`: will the guard work? The runtime, where peri-hooks is registered and what it starts,
// whether the policy files load, the measured start-up against the tightest budget, the state folder, and
// what every http, prompt, agent and mcp_tool hook would reach, and that the server of an http registration
// (install --serve) answers /healthz, and that the MCP server of an mcp_tool registration (install --via mcp)
// starts and answers a `fire` call. Nothing here runs a hook or calls a hook's target.
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type LoadOptions, loadSettings } from '../config/index.ts';
import { httpListsFor } from '../config/merge.ts';
import { MCP_FIRE_TOOL, MCP_SERVER_NAME, shellCommand } from '../config/registration.ts';
import { PeriHooksError } from '../errors.ts';
import { artefactVersion, fastestArtefact } from '../install/artefact.ts';
import { VERSION } from '../platform/version.ts';
import { resolveStateDir } from '../session/store.ts';
import { counted, displayPath, formatDiagnostic } from '../text.ts';
import { validate } from '../validate/index.ts';
import { type Check, check } from './check.ts';
import { findHostRegistrations, type HostMcpServer } from './hosts.ts';
import { type Found, findRegistrations } from './registrations.ts';
import { startupCheck } from './startup.ts';
import { targetChecks } from './targets.ts';
import { trustChecks } from './trust.ts';

export interface DoctorReport {
  /** False when a check failed: something would not work as configured. */
  ok: boolean;
  checks: Check[];
}

/** Diagnostics quoted in a failed policy check; validate shows them all. */
const SHOWN_DIAGNOSTICS = 5;

/** `mcpConfigs`: --mcp-config values for every registered firing, besides those its own command line gives. */
export async function doctor(
  location: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'>,
  mcpConfigs: readonly string[] = [],
): Promise<DoctorReport> {
  const { found, checks: claudeRegistered } = await findRegistrations(location);
  const hosts = findHostRegistrations(location);
  // Registered for another agent only: that Claude Code has no registration is no failure of the guard.
  const registered =
    hosts.found.length === 0
      ? claudeRegistered
      : claudeRegistered.map((entry) =>
          found.length === 0 && entry.status === 'fail' && entry.title === 'registration'
            ? { ...entry, status: 'warn' as const }
            : entry,
        );
  const runners = unique([...found, ...hosts.found].map((entry) => entry.runner).filter((runner) => runner.length > 0));
  const servers = [
    ...new Map(
      found.flatMap(({ scope, server, authorization }) =>
        server ? [[JSON.stringify([scope, server, authorization]), { scope, server, authorization }] as const] : [],
      ),
    ).values(),
  ];
  const policies = [...new Set([...found, ...hosts.found].flatMap((entry) => entry.policies))];
  const registeredMcpConfigs = [...new Set([...found.flatMap((entry) => entry.mcpConfigs), ...mcpConfigs])];
  const checks = [
    runtimeCheck(),
    ...registered,
    ...hosts.checks,
    ...runners.map(artefactCheck),
    ...(servers.length > 0 ? await serverChecks(servers, location) : []),
    ...(await mcpServerChecks(
      [
        ...found.flatMap(({ mcpServer }) => (mcpServer ? [{ ...mcpServer, agent: 'Claude Code' }] : [])),
        ...hosts.mcpServers,
      ],
      location,
    )),
    ...(policies.length > 0 ? await policyChecks(location, policies, registeredMcpConfigs) : []),
    startup(found, runners, location),
    stateCheck(location),
    ...(await trustChecks(
      location,
      found.some((entry) => entry.requireTrust),
    )),
  ];
  return { ok: !checks.some((entry) => entry.status === 'fail'), checks };
}

function runtimeCheck(): Check {
  const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
  const detail = process.getBuiltinModule?.('node:sea')?.isSea()
    ? `peri-hooks ${VERSION}, the single binary ${process.execPath}`
    : deno
      ? `peri-hooks ${VERSION} on Deno ${deno.version.deno}`
      : `peri-hooks ${VERSION} on Node ${process.version} (${process.execPath})`;
  return check('runtime', 'pass', 'runtime', detail);
}

/** The registered command starts a peri-hooks, and the same version as this one. */
function artefactCheck(runner: readonly string[]): Check {
  const shown = shellCommand(runner);
  const probe = artefactVersion(runner);
  if ('error' in probe)
    return check(
      'artefact',
      'fail',
      'artefact',
      `the registration starts ${shown}, but ${probe.error}`,
      'run peri-hooks install again from the peri-hooks you want registered',
    );
  if (probe.version !== VERSION)
    return check(
      'artefact',
      'warn',
      'artefact',
      `the registration starts ${shown}, peri-hooks ${probe.version}; this doctor is ${VERSION}`,
      'run peri-hooks install again to register this version',
    );
  return check('artefact', 'pass', 'artefact', `the registration starts ${shown} (peri-hooks ${probe.version})`);
}

/** Time for peri-hooks' MCP server to start and answer. */
const MCP_ANSWER_TIMEOUT_MS = 15_000;

/**
 * Each MCP server of an mcp_tool registration, started as Claude Code starts it (in the project, with
 * CLAUDE_PROJECT_DIR) and called with no event: its answer, a tool error that names the missing event, shows
 * that it starts, speaks MCP and has the fire tool, and runs no hook.
 */
async function mcpServerChecks(
  servers: ReadonlyArray<HostMcpServer>,
  location: Pick<LoadOptions, 'projectDir' | 'env'>,
): Promise<Check[]> {
  const defined = [
    ...new Map(servers.map((server) => [JSON.stringify([server.file, server.entry]), server] as const)).values(),
  ];
  if (defined.length === 0) return [];
  const { createConnectionPool } = await import('../mcp/pool.ts');
  return Promise.all(
    defined.map(async ({ file, entry, agent }) => {
      const pool = createConnectionPool();
      try {
        const answer = await pool.call(
          { name: MCP_SERVER_NAME, entry: { ...entry }, source: { scope: 'project', file, pointer: '' } },
          MCP_FIRE_TOOL,
          {},
          {
            timeoutMs: MCP_ANSWER_TIMEOUT_MS,
            signal: AbortSignal.timeout(2 * MCP_ANSWER_TIMEOUT_MS),
            projectDir: location.projectDir,
            env: location.env,
            urlPatterns: undefined,
          },
        );
        const text =
          answer.kind === 'result'
            ? answer.content.map((part) => (part as { text?: unknown }).text ?? '').join('\n')
            : undefined;
        if (answer.kind === 'result' && answer.isError && text?.includes('hook_event_name'))
          return check(
            'mcp-server',
            'pass',
            'MCP server',
            `the MCP server ${MCP_SERVER_NAME} of ${displayPath(file)} starts and answers the fire tool`,
          );
        const what =
          answer.kind === 'result'
            ? `answered ${JSON.stringify((text ?? '').slice(0, 200))}, not peri-hooks' fire tool`
            : answer.kind === 'not-connected'
              ? `does not start: ${answer.why}`
              : answer.kind === 'error'
                ? `answered with an error: ${answer.message}`
                : `did not answer within ${MCP_ANSWER_TIMEOUT_MS / 1000} s`;
        return check(
          'mcp-server',
          'fail',
          'MCP server',
          `the MCP server ${MCP_SERVER_NAME} of ${displayPath(file)} ${what}: ${agent}'s mcp_tool hooks would not reach the policy`,
          `run peri-hooks install${agent === 'Claude Code' ? '' : ' --host codex --fail-open'} --via mcp again from the peri-hooks you want registered`,
        );
      } finally {
        await pool.close();
      }
    }),
  );
}

/** Time for a server's /healthz to answer. */
const HEALTH_TIMEOUT_MS = 3000;

type Served = Pick<Found, 'scope' | 'authorization'> & { server: string };

/** The http registrations' servers, with their header variables allowed as the Claude Code settings they are in allow them. */
async function serverChecks(
  servers: Served[],
  location: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'>,
): Promise<Check[]> {
  const { settings } = await loadSettings(location);
  return Promise.all(
    servers.map((served) => serverCheck(served, httpListsFor(served.scope, settings).envVars, location.env)),
  );
}

/**
 * An http registration's server answers GET /healthz, as peri-hooks serve of this version, and takes the bearer
 * token the registration sends, filled in from this environment as Claude Code fills it from its own.
 */
async function serverCheck(
  { server, authorization }: Served,
  settingsEnvVars: string[] | undefined,
  env: Record<string, string | undefined>,
): Promise<Check> {
  const named = new Set<string>();
  const refused = new Set<string>();
  let header: string | undefined;
  if (authorization) {
    const { headerValue, headerVariableAllowed } = await import('../runners/http.ts');
    const allowed = headerVariableAllowed(authorization.allowedEnvVars, settingsEnvVars);
    header = headerValue(authorization.template, env, (name) => named.add(name) && allowed(name), refused);
  }
  const shown = (names: Iterable<string>) => [...names].map((name) => `$${name}`).join(', ');
  const variables = shown(named);
  const unset = [...named].filter((name) => !env[name]);
  try {
    const response = await fetch(`${server}/healthz`, {
      ...(header === undefined ? {} : { headers: { authorization: header } }),
      signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => undefined)) as
      | { ok?: boolean; version?: string; tokenRequired?: boolean }
      | undefined;
    if (response.status === 401 && refused.size > 0) {
      return check(
        'server',
        'fail',
        'server',
        `${server} refuses the bearer token the registration sends: Claude Code leaves ${shown(refused)} out, since the settings' httpHookAllowedEnvVars do not name it, and would get HTTP 401, a non-blocking error, and no decision`,
        `add ${shown(refused).replaceAll('$', '')} to httpHookAllowedEnvVars in the Claude Code settings file that registers peri-hooks`,
      );
    }
    if (response.status === 401) {
      const why =
        unset.length > 0
          ? `${shown(unset)} is not set here`
          : `the token in ${variables || 'its Authorization header'} is not the server's`;
      return check(
        'server',
        'fail',
        'server',
        `${server} refuses the bearer token the registration sends (${why}): Claude Code would get HTTP 401, a non-blocking error, and no decision`,
        `set ${variables || 'the variable of its Authorization header'} to the token in the server's --token-file, in the environment Claude Code starts in`,
      );
    }
    if (!response.ok || body?.ok !== true)
      return check(
        'server',
        'fail',
        'server',
        `${server}/healthz answered ${response.status}, not peri-hooks serve's health`,
        'check that --serve names the address peri-hooks serve listens on',
      );
    if (body.tokenRequired === true && header === undefined) {
      return check(
        'server',
        'fail',
        'server',
        `${server} needs a bearer token, and the registration sends none: Claude Code would get HTTP 401 and no decision`,
        `peri-hooks install --serve ${server} --token-env PERI_HOOKS_TOKEN, with PERI_HOOKS_TOKEN set to the server's token where Claude Code runs`,
      );
    }
    if (body.version !== VERSION)
      return check(
        'server',
        'warn',
        'server',
        `${server} is peri-hooks serve ${body.version}; this doctor is ${VERSION}`,
        'restart the server from this peri-hooks',
      );
    return check('server', 'pass', 'server', `${server} answers /healthz (peri-hooks serve ${body.version})`);
  } catch (error) {
    const reason =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    return check(
      'server',
      'fail',
      'server',
      `the registration posts to ${server}, which does not answer /healthz (${reason}): Claude Code would get no decision`,
      'start it: peri-hooks serve --listen <host:port> with the policy',
    );
  }
}

const loads = (hooks: number) => `${counted(hooks, 'hook')} load${hooks === 1 ? 's' : ''}`;

/** The policy files as the registered firings load them: validate's diagnostics, then what their hooks reach. */
async function policyChecks(
  location: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'>,
  policies: string[],
  mcpConfigs: readonly string[],
): Promise<Check[]> {
  const load: LoadOptions = { ...location, settings: policies, settingSources: [] };
  const report = await validate(load, false, mcpConfigs);
  const files = policies.map((policy) => displayPath(policy)).join(', ');
  const listed = (severity: string) =>
    report.diagnostics
      .filter((d) => d.severity === severity)
      .slice(0, SHOWN_DIAGNOSTICS)
      .map((d) => `\n    ${formatDiagnostic(d, '')}`)
      .join('');
  const fix = `peri-hooks validate --setting-sources none ${policies.map((policy) => `--settings ${policy}`).join(' ')} shows every problem`;
  const verdict =
    report.errors > 0
      ? check(
          'policy',
          'fail',
          'policy',
          `${files}: ${counted(report.errors, 'error')}, so some hooks would not run as written:${listed('error')}`,
          fix,
        )
      : report.warnings > 0
        ? check(
            'policy',
            'warn',
            'policy',
            `${files}: ${loads(report.hooks)}, with ${counted(report.warnings, 'warning')}:${listed('warning')}`,
            fix,
          )
        : check('policy', 'pass', 'policy', `${files}: ${loads(report.hooks)}`);
  const loaded = await loadSettings({ ...load, ...(mcpConfigs ? { mcpConfigs } : {}) });
  return [verdict, ...(await targetChecks(loaded, load.env))];
}

/** The registered artefact's start-up; without a registration, that of the artefact install would register. */
function startup(
  found: readonly Found[],
  runners: readonly string[][],
  location: Pick<LoadOptions, 'projectDir' | 'env'>,
): Check {
  let runner = runners[0];
  if (!runner) {
    try {
      runner = fastestArtefact().runner;
    } catch (error) {
      if (!(error instanceof PeriHooksError)) throw error;
      return check('startup', 'fail', 'start-up', error.message, error.fix);
    }
  }
  return startupCheck(
    runner,
    // An mcp_tool registration starts no process per firing.
    [...new Set(found.filter((entry) => !entry.mcpServer).map((entry) => entry.event))],
    location.projectDir,
    location.env as NodeJS.ProcessEnv,
  );
}

/** The folder where firings keep session state (once, Stop-block counts, async results) takes a file. */
function stateCheck(location: Pick<LoadOptions, 'home' | 'env'>): Check {
  const dir = resolveStateDir(location.env, location.home);
  const probe = path.join(dir, `.peri-hooks-doctor-${process.pid}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, '');
    unlinkSync(probe);
    return check('state', 'pass', 'state folder', `${displayPath(dir)} is writable`);
  } catch (error) {
    return check(
      'state',
      'fail',
      'state folder',
      `${displayPath(dir)} is not writable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): once hooks, the Stop loop guard and async results would be lost`,
      'set PERI_HOOKS_STATE_DIR to a writable folder',
    );
  }
}

function unique(runners: string[][]): string[][] {
  return [...new Map(runners.map((runner) => [JSON.stringify(runner), runner])).values()];
}
