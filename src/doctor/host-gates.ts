// Each agent's own gate in front of its hook configuration: what it must trust or enable before it runs a
// registration that install --host wrote. doctor fails where the agent would not run it; install says so.
// One function per host that has a gate; hosts without one run what their file registers.
import path from 'node:path';
import type { LoadOptions } from '../config/index.ts';
import {
  codexConfigFile,
  codexHooks,
  hookGate,
  projectTrust,
  readCodexConfig,
  readToml,
} from '../hosts/codex-trust.ts';
import type { HostName } from '../hosts/types.ts';
import { type HostScope, isOurCodexHook } from '../install/host-install.ts';
import { displayPath } from '../text.ts';
import { type Check, check } from './check.ts';
import { copilotGate } from './copilot-gate.ts';

export type HostGate = (
  file: string,
  scope: HostScope,
  location: Pick<LoadOptions, 'projectDir' | 'home' | 'env'>,
) => Check[];

export const HOST_GATES: Partial<Record<HostName, HostGate>> = {
  codex: codexGate,
  copilot: (_file, scope, location) => copilotGate(scope, location),
};

function codexGate(
  file: string,
  scope: HostScope,
  location: Pick<LoadOptions, 'projectDir' | 'home' | 'env'>,
): Check[] {
  const configFile = codexConfigFile(location.env ?? process.env, location.home ?? process.env.HOME ?? '');
  const config = readToml(readCodexConfig(configFile));
  const checks: Check[] = [];
  if (scope === 'project') {
    const project = projectTrust(file.replace(/\/\.codex\/hooks\.json$/, ''), config);
    checks.push(
      project.trusted
        ? check(
            'host-gate',
            'pass',
            'Codex CLI project trust',
            `${displayPath(project.root)} is trusted in ${displayPath(configFile)}`,
          )
        : check(
            'host-gate',
            'fail',
            'Codex CLI project trust',
            `Codex does not load ${displayPath(file)}: the project ${displayPath(project.root)} is not trusted in ${displayPath(configFile)}`,
            `trust the folder when Codex asks on its first start there, or add [projects."${project.root}"] trust_level = "trusted" to ${displayPath(configFile)}`,
          ),
    );
  }
  // Codex reads the user's hooks.json next to its config.toml ($CODEX_HOME), not ~/.codex when CODEX_HOME moves it.
  if (scope === 'user' && path.dirname(file) !== path.dirname(configFile)) {
    checks.push(
      check(
        'host-gate',
        'fail',
        'Codex CLI user hooks',
        `Codex reads ${displayPath(path.join(path.dirname(configFile), 'hooks.json'))} (CODEX_HOME), not ${displayPath(file)}`,
        'install with CODEX_HOME unset, or move the file into $CODEX_HOME',
      ),
    );
  }
  const ours = codexHooks(file, readCodexConfig(file)).filter((hook) => isOurCodexHook(hook, 'codex'));
  const refused = ours.flatMap((hook) => {
    const why = hookGate(hook, config);
    return why === undefined ? [] : [`${hook.key.slice(file.length + 1)}: ${why}`];
  });
  checks.push(
    refused.length === 0
      ? check(
          'host-gate',
          'pass',
          'Codex CLI hook trust',
          `Codex trusts peri-hooks' ${ours.length} hook${ours.length === 1 ? '' : 's'} in ${displayPath(file)}`,
        )
      : check(
          'host-gate',
          'fail',
          'Codex CLI hook trust',
          `Codex will not run ${refused.length} of peri-hooks' ${ours.length} hooks in ${displayPath(file)} (${refused.join('; ')})`,
          `review them in Codex (/hooks), or run peri-hooks install --host codex --trust${scope === 'user' ? ' --scope user' : ''} with the same policy, which writes Codex's trusted_hash to ${displayPath(configFile)}`,
        ),
  );
  return checks;
}
