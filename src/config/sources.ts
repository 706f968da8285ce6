// Which settings sources a command reads: fire, validate, explain, list and replay take the same options.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { PeriHooksError } from '../errors.ts';
import { isDirectory } from '../platform/files.ts';
import type { LoadOptions } from './index.ts';

export interface SourceOptions {
  /** Project root; default CLAUDE_PROJECT_DIR, else found from the input's cwd (see findProject). */
  projectDir?: string;
  settings?: string[];
  pluginDirs?: string[];
  settingSources?: LoadOptions['settingSources'];
  managedDir?: string;
  /** Environment the hooks inherit and settings discovery reads; default process.env. */
  env?: Record<string, string | undefined>;
  home?: string;
}

/**
 * Which rule chose the project folder: the option, CLAUDE_PROJECT_DIR, the nearest ancestor of cwd with Claude
 * Code project settings, the git root, or cwd itself.
 */
export type ProjectDirFrom = 'option' | 'env' | 'settings' | 'git' | 'cwd';

export const PROJECT_DIR_RULES: Readonly<Record<ProjectDirFrom, string>> = {
  option: '--project-dir',
  env: 'CLAUDE_PROJECT_DIR',
  settings: 'the nearest folder above cwd with .claude/settings.json or .claude/settings.local.json',
  git: 'the git root of cwd (no folder above cwd has Claude Code project settings)',
  cwd: 'cwd (no project settings and no git root above it)',
};

export type SourcesToLoad = LoadOptions & { projectDirFrom: ProjectDirFrom };

/** The loader's options for these sources; without the option or CLAUDE_PROJECT_DIR the project is found from `cwd`. */
export function sourcesToLoad(options: SourceOptions, cwd: string): SourcesToLoad {
  const env = options.env ?? process.env;
  const home = options.home ?? env.HOME ?? homedir();
  const project =
    options.projectDir !== undefined
      ? named(options.projectDir)
      : env.CLAUDE_PROJECT_DIR
        ? { projectDir: env.CLAUDE_PROJECT_DIR, projectDirFrom: 'env' as const }
        : findProject(cwd, home);
  return {
    ...project,
    home,
    env,
    ...(options.managedDir ? { managedDir: options.managedDir } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
    ...(options.settingSources ? { settingSources: options.settingSources } : {}),
  };
}

function named(dir: string): { projectDir: string; projectDirFrom: 'option' } {
  if (!isDirectory(dir))
    throw new PeriHooksError(
      'usage',
      `--project-dir ${dir} is not a folder`,
      'give the project root, the folder that holds .claude/',
    );
  return { projectDir: dir, projectDirFrom: 'option' };
}

/**
 * The project a cwd belongs to, as a user expects after the model ran `cd sub`: the nearest ancestor (or cwd)
 * with project settings, never the home folder itself (its .claude/settings.json is the user file); else the
 * nearest git root; else cwd.
 */
export function findProject(
  cwd: string,
  home: string,
): { projectDir: string; projectDirFrom: 'settings' | 'git' | 'cwd' } {
  const start = path.resolve(cwd);
  const homeDir = path.resolve(home);
  let gitRoot: string | undefined;
  for (let dir = start; ; dir = path.dirname(dir)) {
    // Most folders have no .claude at all: one look instead of two (a resident server walks this per firing).
    const claude = path.join(dir, '.claude');
    if (
      dir !== homeDir &&
      existsSync(claude) &&
      (existsSync(path.join(claude, 'settings.json')) || existsSync(path.join(claude, 'settings.local.json')))
    ) {
      return { projectDir: dir, projectDirFrom: 'settings' };
    }
    gitRoot ??= existsSync(path.join(dir, '.git')) ? dir : undefined;
    if (path.dirname(dir) === dir) break;
  }
  return gitRoot ? { projectDir: gitRoot, projectDirFrom: 'git' } : { projectDir: start, projectDirFrom: 'cwd' };
}
