// `peri-hooks install`: register peri-hooks in a Claude Code settings file; `--dry-run` prints the diff instead.
import { EXIT, PeriHooksError } from '../../errors.ts';
import { diffs } from '../../install/diff.ts';
import { type InstallResult, install } from '../../install/install.ts';
import { displayPath, formatDiagnostic, table } from '../../text.ts';
import { list, write } from '../io.ts';
import { auditFlag, eventsOf, failClosedOf, type SettingsFlags, scopeOf, settingsLocation } from '../settings-flags.ts';

export interface InstallFlags extends SettingsFlags {
  host?: string;
  policy?: unknown;
  failClosed?: boolean;
  failOpen?: boolean;
  force?: boolean;
  moveHooks?: boolean;
  projectHooks?: boolean;
  requireTrust?: boolean;
  dryRun?: boolean;
  serve?: string;
  tokenEnv?: string;
  audit?: unknown;
  via?: string;
}

export async function installCommand(flags: InstallFlags): Promise<number> {
  if (flags.host !== undefined) {
    const { via, ...rest } = flags;
    return (await import('./install-host.ts')).hostInstallCommand({
      ...rest,
      host: String(flags.host),
      ...(via === undefined ? {} : { via: viaOf(via) }),
    });
  }
  const events = eventsOf(flags);
  const dryRun = flags.dryRun === true;
  const result = await install({
    scope: scopeOf(flags),
    policies: list(flags.policy) ?? [],
    ...(events ? { events } : {}),
    failClosed: failClosedOf(flags),
    moveHooks: flags.moveHooks === true,
    force: flags.force === true,
    ...(flags.projectHooks ? { projectHooks: true } : {}),
    ...(flags.requireTrust === undefined ? {} : { requireTrust: flags.requireTrust }),
    ...(flags.serve === undefined ? {} : { serve: String(flags.serve) }),
    ...(flags.tokenEnv === undefined ? {} : { tokenEnv: String(flags.tokenEnv) }),
    ...auditFlag(flags.audit),
    ...(flags.via === undefined ? {} : { via: viaOf(flags.via) }),
    dryRun,
    cwd: process.cwd(),
    load: settingsLocation(flags),
  });
  const warnings = result.warnings.map((warning) => `${formatDiagnostic(warning)}\n`).join('');
  await write(process.stdout, dryRun ? diffs(result.changes) : summary(result));
  await write(
    process.stderr,
    warnings +
      (dryRun
        ? `peri-hooks: dry run: nothing was written${result.changes.length === 0 ? ' (and nothing would change)' : ''}\n`
        : ''),
  );
  return EXIT.ok;
}

/** --via: how the hooks reach peri-hooks. */
export function viaOf(value: unknown): 'command' | 'mcp' {
  if (value === 'command' || value === 'mcp') return value;
  throw new PeriHooksError(
    'usage',
    `--via ${JSON.stringify(value)} is not a registration peri-hooks makes`,
    'give --via command (a process per firing, the default) or --via mcp (mcp_tool hooks to peri-hooks mcp)',
  );
}

function handlerKind(handler: InstallResult['events'][number]['group']['hooks'][number]): string {
  switch (handler.type) {
    case 'http':
      return `${handler.url}, ${handler.allowedEnvVars ? `token from $${handler.allowedEnvVars[0]}, ` : ''}`;
    case 'mcp_tool':
      return `mcp_tool ${handler.server}/${handler.tool}, ${handler.onFailure ? 'onFailure block, ' : ''}`;
    default:
      return handler.asyncRewake ? 'asyncRewake entry, ' : handler.async ? 'async entry, ' : '';
  }
}

function summary(result: InstallResult): string {
  if (result.changes.length === 0)
    return `peri-hooks: already registered in ${displayPath(result.file)}; nothing changed\n`;
  const rows = result.events.map(({ event, group, status }) => [
    `  ${event}`,
    status,
    group.hooks.map((handler) => `${handlerKind(handler)}timeout ${handler.timeout} s`).join('; '),
  ]);
  const lines = [
    `peri-hooks: registered in ${displayPath(result.file)}:`,
    table(rows),
    `runs: ${result.artefact.description}`,
    ...(result.audit ? [`audit log: ${displayPath(result.audit)}`] : []),
    ...(result.mcpServers
      ? [
          `mcp: Claude Code starts it as the MCP server peri-hooks (defined in ${displayPath(result.mcpServers)}) once per session; SessionStart, Setup, InstructionsLoaded and SessionEnd stay commands (no MCP server to reach there)`,
        ]
      : []),
    ...(result.failClosed === false
      ? [
          'fail-open (--fail-open): a policy that does not load, a hook that fails, or a peri-hooks that cannot start lets the call through',
        ]
      : []),
    ...(result.events.some(({ group }) =>
      group.hooks.some((hook) => hook.type === 'command' && hook.command.includes('--require-trust')),
    )
      ? [
          "trust required: the project's hooks run only as approved by peri-hooks trust (each developer approves their checkout)",
        ]
      : []),
    ...(result.policies.length > 0
      ? [`policy: ${result.policies.map((policy) => displayPath(policy)).join(', ')}`]
      : []),
    ...(result.moved
      ? [
          `moved: the hooks of ${result.moved.events.join(', ')} from ${displayPath(result.file)} into ${displayPath(result.moved.file)}`,
        ]
      : []),
    ...result.changes.flatMap((change) => (change.backup ? [`backup: ${displayPath(change.backup)}`] : [])),
    'next: peri-hooks doctor',
  ];
  return `${lines.join('\n')}\n`;
}
