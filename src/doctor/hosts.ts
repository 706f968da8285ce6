// `doctor` and other agents: where peri-hooks is registered in their hook configurations (as install --host
// writes it), what each registration starts and which policy files it runs, for the runtime, artefact and policy
// checks that follow.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { LoadOptions } from '../config/index.ts';
import { shellWords } from '../config/registration.ts';
import { PeriHooksError } from '../errors.ts';
import { HOSTS, type HostDef } from '../hosts/table.ts';
import { HOST_NAMES, type HostName } from '../hosts/types.ts';
import { GENERATED_MARK } from '../install/host-plugin.ts';
import { HOST_SCOPES, firesHost, hostFile, isOurEntry } from '../install/host-install.ts';
import { child, parseSettings, valueOf } from '../install/jsonc-edit.ts';
import { readSettingsText } from '../install/settings-file.ts';
import { displayPath } from '../text.ts';
import { check, type Check } from './check.ts';
import { geminiGate } from './gemini-gate.ts';
import { HOST_GATES } from './host-gates.ts';

export interface HostFound {
  file: string;
  host: HostName;
  runner: string[];
  policies: string[];
}

export function findHostRegistrations(location: Pick<LoadOptions, 'projectDir' | 'home' | 'env'>): { found: HostFound[]; checks: Check[] } {
  const found: HostFound[] = [];
  const checks: Check[] = [];
  for (const name of HOST_NAMES) {
    const host = HOSTS[name];
    for (const scope of HOST_SCOPES) {
      const file = hostFile(host, scope, location);
      try {
        const commands = registeredCommands(host, file);
        if (commands.length === 0) continue;
        const firings = commands.map(firingOf).filter((firing): firing is HostFound & { event: string } => firing !== undefined).map((firing) => ({ ...firing, file, host: name }));
        found.push(...firings);
        checks.push(check('registration', 'pass', `${host.title} registration`, `${displayPath(file)}: ${[...new Set(firings.map((firing) => firing.event))].join(', ')}`));
        checks.push(...(HOST_GATES[name]?.(file, scope, location) ?? []));
      } catch (error) {
        if (!(error instanceof PeriHooksError)) throw error;
        checks.push(check('registration', 'fail', `${host.title} registration`, error.message, error.fix));
      }
    }
  }
  // Gemini runs the hooks of either scope only in a folder it trusts.
  if (found.some((firing) => firing.host === 'gemini')) checks.push(geminiGate(location));
  return { found, checks };
}

/** The command lines of peri-hooks' registrations in one host file (or folder of scripts). */
function registeredCommands(host: HostDef, file: string): string[] {
  if (!existsSync(file)) return [];
  if (host.install.shape === 'scripts') {
    return readdirSync(file).filter((name) => Object.hasOwn(host.events, name)).map((name) => readSettingsText(path.join(file, name)).text ?? '')
      .filter((text) => text.includes(GENERATED_MARK)).flatMap((text) => (/^exec (.+)$/m.exec(text)?.[1] ?? []));
  }
  if (host.install.shape === 'plugin') {
    const text = readSettingsText(file).text ?? '';
    if (!text.includes(GENERATED_MARK)) return [];
    const runner = JSON.parse(/^const RUNNER = (.+);$/m.exec(text)?.[1] ?? '[]') as string[];
    const args = JSON.parse(/^const ARGS = (.+);$/m.exec(text)?.[1] ?? '[]') as string[];
    return [[...runner, 'fire', '--host', host.name, 'plugin', ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ')];
  }
  const root = parseSettings(file, readSettingsText(file).text ?? '{}');
  const events = host.install.under.reduce<ReturnType<typeof child>>((node, key) => child(node, key), root);
  return (events?.type === 'object' ? events.children ?? [] : []).flatMap((property) => (property.children?.[1]?.children ?? []).map(valueOf))
    .filter((entry) => isOurEntry(host, entry))
    .flatMap((entry) => (host.install.shape === 'nested' ? (entry as { hooks: Array<Record<string, unknown>> }).hooks : [entry as Record<string, unknown>]))
    .map((handler) => String(handler[host.install.commandKey]))
    .filter((command) => firesHost(command, host.name));
}

function firingOf(command: string): (HostFound & { event: string }) | undefined {
  const words = shellWords(command);
  const at = words?.indexOf('fire') ?? -1;
  if (!words || at < 1) return undefined;
  const policies = words.flatMap((word, i) => (words[i - 1] === '--settings' ? [word] : []));
  return { file: '', host: words[at + 2] as HostName, event: words[at + 3] ?? '', runner: words.slice(0, at), policies };
}
