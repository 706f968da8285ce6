// `peri-hooks init`: a starter policy, its tests and a CI workflow in the project; then the install command.
import { EXIT } from '../../errors.ts';
import { init, STARTER_POLICY } from '../../install/init.ts';
import { displayPath } from '../../text.ts';
import { write } from '../io.ts';
import { type SettingsFlags, settingsLocation } from '../settings-flags.ts';

export async function initCommand(flags: SettingsFlags & { dryRun?: boolean }): Promise<number> {
  const { projectDir } = settingsLocation(flags);
  const result = init(projectDir, flags.dryRun === true);
  const lines = [
    ...result.written.map((file) => `${flags.dryRun ? 'would write' : 'wrote'} ${file}`),
    ...result.kept.map((file) => `kept ${file} (it exists; init never overwrites)`),
    '',
    `try it:    peri-hooks fire --tool Bash --command 'git push --force' --setting-sources none --settings ${STARTER_POLICY}`,
    `test it:   peri-hooks test ${STARTER_POLICY.replace(/\/[^/]+$/, '')}`,
    `enforce:   peri-hooks install --policy ${STARTER_POLICY}   (then commit .claude/ and .github/)`,
    'check:     peri-hooks doctor',
  ];
  await write(process.stdout, `peri-hooks: starter policy in ${displayPath(projectDir)}\n${lines.join('\n')}\n`);
  return EXIT.ok;
}
