// Installs the exact agents that `npm run test:hosts` drives into cache folders, outside the package's
// dependencies, and prints the path of the one asked for. Reuses a cache that holds its version.
// `node scripts/install-agent.ts <codex|gemini|copilot|qwen|opencode>`
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmInstallInto } from './install-claude-code.ts';

/** Each agent's npm package, pinned version and command. */
export const AGENTS = {
  codex: { package: '@openai/codex', version: '0.171.0', bin: 'codex' },
  gemini: { package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  copilot: { package: '@github/copilot', version: '1.0.102', bin: 'copilot' },
  qwen: { package: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  opencode: { package: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
} as const;

export type AgentName = keyof typeof AGENTS;

export function agentCache(name: AgentName): string {
  const { version } = AGENTS[name];
  return join(process.env.PERI_HOOKS_AGENT_CACHE || join(homedir(), '.cache', 'peri-hooks'), `${name}-${version}`);
}

/** The path of the agent's command in its cache; installs it first when the cache lacks that version. */
export function installAgent(name: AgentName, log: (text: string) => void = () => {}): string {
  const { package: pkg, version, bin } = AGENTS[name];
  const cache = agentCache(name);
  const command = join(cache, 'node_modules', '.bin', bin);
  if (installedVersion(cache, pkg) === version && existsSync(command)) return command;
  mkdirSync(cache, { recursive: true });
  log(`installing ${pkg}@${version} into ${cache}`);
  npmInstallInto(cache, `${pkg}@${version}`);
  if (!existsSync(command))
    throw new Error(
      `${pkg}@${version} was installed into ${cache}, but ${command} is missing; remove the folder and try again`,
    );
  return command;
}

function installedVersion(cache: string, pkg: string): string | undefined {
  const manifest = join(cache, 'node_modules', pkg, 'package.json');
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const name = process.argv[2] as AgentName;
  if (!(name in AGENTS)) {
    console.error(`usage: node scripts/install-agent.ts <${Object.keys(AGENTS).join('|')}>`);
    process.exit(1);
  }
  console.log(installAgent(name, (text) => console.error(text)));
}
