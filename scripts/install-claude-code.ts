// Installs the exact Claude Code that peri-hooks is compared against (`npm run test:claude`) into a cache
// folder, outside the package's dependencies, and prints the path of its binary. Reuses the cache when it
// holds that version. `node scripts/install-claude-code.ts`
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLAUDE_CODE_VERSION = '2.1.332';
const PACKAGE = '@anthropic-ai/claude-code';
// The npm package's bin is a placeholder until its postinstall copies the platform binary over it.
const PLACEHOLDER_MAX_BYTES = 1_000_000;

export function claudeCodeCache(): string {
  return (
    process.env.PERI_HOOKS_CLAUDE_CACHE || join(homedir(), '.cache', 'peri-hooks', `claude-code-${CLAUDE_CODE_VERSION}`)
  );
}

/** The path of the claude binary of the cached version; installs it first when the cache lacks it. */
export function installClaudeCode(log: (text: string) => void = () => {}): string {
  const cache = claudeCodeCache();
  const found = cachedBinary(cache);
  if (found) return found;
  mkdirSync(cache, { recursive: true });
  log(`installing ${PACKAGE}@${CLAUDE_CODE_VERSION} into ${cache} (a platform binary of a few hundred MB)`);
  npmInstallInto(cache, `${PACKAGE}@${CLAUDE_CODE_VERSION}`);
  const installed = cachedBinary(cache);
  if (!installed)
    throw new Error(
      `${PACKAGE}@${CLAUDE_CODE_VERSION} was installed into ${cache}, but it holds no binary for ${process.platform}-${process.arch}; remove the folder and try again`,
    );
  return installed;
}

function cachedBinary(cache: string): string | undefined {
  const packageDir = join(cache, 'node_modules', PACKAGE);
  const manifest = join(packageDir, 'package.json');
  if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).version !== CLAUDE_CODE_VERSION)
    return undefined;
  const candidates = [
    join(packageDir, 'bin', 'claude.exe'),
    join(cache, 'node_modules', `${PACKAGE}-${process.platform}-${process.arch}`, 'claude'),
  ];
  return candidates.find((path) => existsSync(path) && statSync(path).size > PLACEHOLDER_MAX_BYTES);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(installClaudeCode((text) => console.error(text)));
}

/** `npm install <spec>` into the cache folder `cache`, nothing saved, npm's own output passed through. */
export function npmInstallInto(cache: string, spec: string): void {
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      cache,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      spec,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
}
