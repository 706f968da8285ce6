// `peri-hooks install --host <agent>` and `uninstall --host <agent>`: the registration in another agent's hook
// configuration; `--dry-run` prints the diff instead.
import { EXIT } from '../../errors.ts';
import { checkHost } from '../../hosts/detect.ts';
import { HOSTS } from '../../hosts/table.ts';
import { HOST_SCOPES, hostInstall, hostUninstall } from '../../install/host-install.ts';
import { displayPath, formatDiagnostic } from '../../text.ts';
import { list, oneOf, write } from '../io.ts';
import { eventsOf, settingsLocation, type SettingsFlags } from '../settings-flags.ts';
import { diffs, failClosedOf } from './install.ts';

export interface HostInstallFlags extends SettingsFlags {
  host: string;
  policy?: unknown;
  failClosed?: boolean;
  failOpen?: boolean;
  force?: boolean;
  dryRun?: boolean;
}

export async function hostInstallCommand(flags: HostInstallFlags): Promise<number> {
  const host = checkHost(flags.host);
  const events = eventsOf(flags);
  const dryRun = flags.dryRun === true;
  const result = await hostInstall({
    host, scope: oneOf('--scope', flags.scope, HOST_SCOPES, 'project'), policies: list(flags.policy) ?? [], ...(events ? { events } : {}),
    failClosed: failClosedOf(flags), force: flags.force === true, dryRun, cwd: process.cwd(), load: settingsLocation(flags),
  });
  const warnings = result.warnings.map((warning) => `${formatDiagnostic(warning)}\n`).join('');
  const registered = result.events.map(({ hostEvent, event }) => `  ${hostEvent} (${event})`).join('\n');
  const summary = result.changes.length === 0
    ? `peri-hooks: already registered for ${HOSTS[host].title} in ${displayPath(result.file)}; nothing changed\n`
    : `peri-hooks: registered for ${HOSTS[host].title} in ${displayPath(result.file)}:\n${registered}\nruns: ${result.artefact.description}\nnext: peri-hooks doctor\n`;
  await write(process.stdout, dryRun ? diffs(result.changes) : summary);
  await write(process.stderr, warnings + (dryRun ? `peri-hooks: dry run: nothing was written${result.changes.length === 0 ? ' (and nothing would change)' : ''}\n` : ''));
  return EXIT.ok;
}

export async function hostUninstallCommand(flags: HostInstallFlags): Promise<number> {
  const host = checkHost(flags.host);
  const dryRun = flags.dryRun === true;
  const result = hostUninstall({ host, scope: oneOf('--scope', flags.scope, HOST_SCOPES, 'project'), dryRun, load: settingsLocation(flags) });
  if (result.changes.length === 0) {
    await write(process.stdout, `peri-hooks: no peri-hooks registration for ${HOSTS[host].title} in ${displayPath(result.file)}; nothing changed\n`);
    return EXIT.ok;
  }
  if (dryRun) {
    await write(process.stdout, diffs(result.changes));
    await write(process.stderr, 'peri-hooks: dry run: nothing was written\n');
    return EXIT.ok;
  }
  await write(process.stdout, `peri-hooks: removed the ${HOSTS[host].title} registration from ${result.changes.map((change) => displayPath(change.file)).join(', ')}\n`);
  return EXIT.ok;
}
