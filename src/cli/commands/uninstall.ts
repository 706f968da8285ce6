// `peri-hooks uninstall`: remove peri-hooks' registration from a Claude Code settings file.
import { EXIT } from '../../errors.ts';
import { diffs } from '../../install/diff.ts';
import { uninstall } from '../../install/uninstall.ts';
import { displayPath } from '../../text.ts';
import { write } from '../io.ts';
import { eventsOf, type SettingsFlags, scopeOf, settingsLocation } from '../settings-flags.ts';

export interface UninstallFlags extends SettingsFlags {
  host?: string;
  dryRun?: boolean;
}

export async function uninstallCommand(flags: UninstallFlags): Promise<number> {
  if (flags.host !== undefined)
    return (await import('./install-host.ts')).hostUninstallCommand({ ...flags, host: String(flags.host) });
  const events = eventsOf(flags);
  const dryRun = flags.dryRun === true;
  const result = uninstall({
    scope: scopeOf(flags),
    ...(events ? { events } : {}),
    dryRun,
    load: settingsLocation(flags),
  });
  const file = displayPath(result.file);
  const moved = result.movedHooks
    ? `note: the hooks that install --move-hooks moved are still in ${displayPath(result.movedHooks)}; to have Claude Code run them directly again, copy its "hooks" back into ${file}\n`
    : '';
  const server = result.serverChange
    ? result.serverChange.after === ''
      ? `removed ${displayPath(result.serverChange.file)} too: install created it for the MCP server peri-hooks, and nothing else is in it\n`
      : `removed the MCP server peri-hooks from ${displayPath(result.serverChange.file)}${result.serverChange.backup ? ` (backup: ${displayPath(result.serverChange.backup)})` : ''}\n`
    : '';
  if (!result.change && !result.serverChange) {
    await write(process.stdout, `peri-hooks: no peri-hooks registration in ${file}; nothing changed\n${moved}`);
    return EXIT.ok;
  }
  if (dryRun) {
    await write(process.stdout, diffs([result.change, result.serverChange].filter((change) => change !== undefined)));
    await write(process.stderr, 'peri-hooks: dry run: nothing was written\n');
    return EXIT.ok;
  }
  if (!result.change) {
    await write(process.stdout, `peri-hooks: ${server}${moved}`);
    return EXIT.ok;
  }
  const removed = result.removed.map(({ event }) => event).join(', ');
  const kept =
    result.change.after === ''
      ? `removed ${file} too: install created it, and nothing else is in it\n`
      : `backup: ${displayPath(result.change.backup!)}\n`;
  await write(
    process.stdout,
    `peri-hooks: removed the registration of ${removed} from ${file}\n${kept}${server}${moved}`,
  );
  return EXIT.ok;
}
