// `peri-hooks install --host <agent>` and `uninstall --host <agent>`: the registration in another agent's hook
// configuration; `--dry-run` prints the diff instead.

import { HOST_GATES } from '../../doctor/host-gates.ts';
import { EXIT } from '../../errors.ts';
import { checkHost } from '../../hosts/detect.ts';
import { HOSTS } from '../../hosts/table.ts';
import { diffs } from '../../install/diff.ts';
import { HOST_SCOPES, hostInstall, hostUninstall } from '../../install/host-install.ts';
import type { FileChange } from '../../install/install.ts';
import { displayPath, formatDiagnostic } from '../../text.ts';
import { list, oneOf, write } from '../io.ts';
import { auditFlag, eventsOf, failClosedOf, type SettingsFlags, settingsLocation } from '../settings-flags.ts';

export interface HostInstallFlags extends SettingsFlags {
  host: string;
  policy?: unknown;
  failClosed?: boolean;
  trust?: boolean;
  failOpen?: boolean;
  force?: boolean;
  dryRun?: boolean;
  audit?: unknown;
  via?: 'command' | 'mcp';
}

export async function hostInstallCommand(flags: HostInstallFlags): Promise<number> {
  const host = checkHost(flags.host);
  const events = eventsOf(flags);
  const dryRun = flags.dryRun === true;
  const scope = oneOf('--scope', flags.scope, HOST_SCOPES, 'project');
  const load = settingsLocation(flags);
  const result = await hostInstall({
    host,
    scope,
    policies: list(flags.policy) ?? [],
    ...(events ? { events } : {}),
    failClosed: failClosedOf(flags),
    trust: flags.trust === true,
    force: flags.force === true,
    ...auditFlag(flags.audit),
    ...(flags.via === undefined ? {} : { via: flags.via }),
    dryRun,
    cwd: process.cwd(),
    load,
  });
  const unmapped =
    result.unmapped.length > 0
      ? `peri-hooks: ${HOSTS[host].title} has no event for ${result.unmapped.join(', ')}: those hooks of the policy do not run there (see docs/agents/other-agents.md)\n`
      : '';
  const warnings = result.warnings.map((warning) => `${formatDiagnostic(warning)}\n`).join('') + unmapped;
  const registered = result.events
    .map(
      ({ hostEvent, event }) =>
        `  ${hostEvent} (${event})${result.mcp?.events.includes(hostEvent) ? ': mcp_tool peri-hooks/fire' : ''}`,
    )
    .join('\n');
  // Said on every install: the agent lets the call run on any failure of an mcp_tool hook.
  const viaMcp = result.mcp
    ? `mcp: ${HOSTS[host].title} starts it as the MCP server peri-hooks (defined in ${displayPath(result.mcp.file)}); the other events stay commands\nFAIL-OPEN: ${HOSTS[host].title} runs the call without a word when an mcp_tool hook fails: the server not there or not starting, an error, a timeout (onFailure is ignored); for a guard that blocks on failure, register with commands (install --host ${host})\n`
    : '';
  const summary =
    result.changes.length === 0
      ? `peri-hooks: already registered for ${HOSTS[host].title} in ${displayPath(result.file)}; nothing changed\n`
      : `peri-hooks: registered for ${HOSTS[host].title} in ${displayPath(result.file)}:\n${registered}\nruns: ${result.artefact.description}\n${viaMcp}${trusted(result.changes, result.file)}next: peri-hooks doctor\n`;
  // What the agent's own gate still refuses (Codex: an untrusted project or hook), said plainly, with the way out.
  const gate = dryRun
    ? []
    : (HOST_GATES[host]?.(result.file, scope, load) ?? []).filter((entry) => entry.status === 'fail');
  const refused = gate
    .map(
      (entry) =>
        `peri-hooks: ${HOSTS[host].title} will not run this registration yet: ${entry.detail}\n  fix: ${entry.fix}\n`,
    )
    .join('');
  await write(process.stdout, (dryRun ? diffs(result.changes) : summary) + refused);
  await write(
    process.stderr,
    warnings +
      (dryRun
        ? `peri-hooks: dry run: nothing was written${result.changes.length === 0 ? ' (and nothing would change)' : ''}\n`
        : ''),
  );
  return EXIT.ok;
}

/** The line saying where install recorded the agent's trust (--trust), if it did. */
function trusted(changes: readonly FileChange[], file: string): string {
  const trust = changes.find((change) => change.file !== file && /trusted_hash/.test(change.after));
  return trust ? `trusted: ${displayPath(trust.file)} (Codex's trusted_hash for each entry)\n` : '';
}

export async function hostUninstallCommand(flags: HostInstallFlags): Promise<number> {
  const host = checkHost(flags.host);
  const dryRun = flags.dryRun === true;
  const result = hostUninstall({
    host,
    scope: oneOf('--scope', flags.scope, HOST_SCOPES, 'project'),
    dryRun,
    load: settingsLocation(flags),
  });
  if (result.changes.length === 0) {
    await write(
      process.stdout,
      `peri-hooks: no peri-hooks registration for ${HOSTS[host].title} in ${displayPath(result.file)}; nothing changed\n`,
    );
    return EXIT.ok;
  }
  if (dryRun) {
    await write(process.stdout, diffs(result.changes));
    await write(process.stderr, 'peri-hooks: dry run: nothing was written\n');
    return EXIT.ok;
  }
  await write(
    process.stdout,
    `peri-hooks: removed the ${HOSTS[host].title} registration from ${result.changes.map((change) => displayPath(change.file)).join(', ')}\n`,
  );
  return EXIT.ok;
}
