// Copilot CLI's own gate on a project registration: it loads `.github/hooks/` only in a folder it trusts, one in
// or under `trustedFolders` of its config.json ($COPILOT_HOME, else ~/.copilot; the older `trusted_folders` is
// read too), or for a `copilot -p` run given --trust-folder. Elsewhere it runs without the hooks and says
// nothing, so doctor fails there: the guard would be open. Personal hooks (~/.copilot/hooks/) have no such gate.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { type ParseError, parse } from 'jsonc-parser';
import type { LoadOptions } from '../config/index.ts';
import type { HostScope } from '../install/host-install.ts';
import { displayPath } from '../text.ts';
import { type Check, check } from './check.ts';

const TITLE = 'GitHub Copilot CLI folder trust';

export function copilotGate(scope: HostScope, location: Pick<LoadOptions, 'projectDir' | 'home' | 'env'>): Check[] {
  if (scope !== 'project') return [];
  const project = real(path.resolve(location.projectDir ?? '.'));
  const home = location.env?.COPILOT_HOME || path.join(location.home ?? process.env.HOME ?? '', '.copilot');
  const config = path.join(home, 'config.json');
  const fix = `start copilot in ${displayPath(project)} once and trust the folder (or a folder above it); a \`copilot -p\` run loads the hooks only with --trust-folder`;
  const trusted = trustedFolders(config);
  if ('error' in trusted)
    return [
      check(
        'registration',
        'fail',
        TITLE,
        `${displayPath(config)} ${trusted.error}, so Copilot may trust no folder and skip .github/hooks/ without a word`,
        `fix the file, then ${fix}`,
      ),
    ];
  const by = trusted.folders.find((folder) => within(project, real(folder)));
  if (by === undefined) {
    return [
      check(
        'registration',
        'fail',
        TITLE,
        `${displayPath(project)} is not a trusted folder in ${displayPath(config)}: Copilot CLI skips .github/hooks/ there without a word, so peri-hooks never runs (except in \`copilot -p\` runs given --trust-folder)`,
        fix,
      ),
    ];
  }
  return [
    check(
      'registration',
      'pass',
      TITLE,
      `${displayPath(project)} is trusted (${displayPath(by)} in ${displayPath(config)}), so Copilot CLI loads .github/hooks/`,
    ),
  ];
}

function trustedFolders(config: string): { folders: string[] } | { error: string } {
  if (!existsSync(config)) return { folders: [] };
  const errors: ParseError[] = [];
  const value = parse(readFileSync(config, 'utf8'), errors, {
    allowTrailingComma: true,
    disallowComments: false,
  }) as unknown;
  if (errors.length > 0 || typeof value !== 'object' || value === null) return { error: 'does not parse as JSON' };
  const record = value as Record<string, unknown>;
  const list = [record.trustedFolders, record.trusted_folders].flatMap((entry) => (Array.isArray(entry) ? entry : []));
  return { folders: list.filter((entry): entry is string => typeof entry === 'string' && entry !== '') };
}

function within(folder: string, trusted: string): boolean {
  const relative = path.relative(trusted, folder);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function real(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}
