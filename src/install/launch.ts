// How a registration starts peri-hooks: by the absolute paths of this machine (local, user and managed scopes),
// or portably (a project's committed files): the project found at run time, peri-hooks in its node_modules/.bin
// or on PATH, and a command that says what is missing, and blocks under --fail-closed, where peri-hooks is not.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_BIN, type ProjectRoot, portableCommand, shellCommand } from '../config/registration.ts';
import { PeriHooksError } from '../errors.ts';
import { canBlock } from '../events.ts';
import type { Diagnostic } from '../types.ts';
import type { Artefact } from './artefact.ts';

export type Launch = { runner: readonly string[] } | { portable: Portable };

export interface Portable {
  root: ProjectRoot;
  /** The project on this machine: policy files are named relative to it. */
  projectDir: string;
  /** The one command that puts peri-hooks where the registration looks. */
  fix: string;
}

/**
 * A word of the command: as is, or a file named by its absolute path here (relative to the project in a portable
 * command), or a file in the home folder (`inHome`: relative to it), which a portable command names from `$HOME`.
 */
export type LaunchWord = string | { file: string; inHome?: string };

/** The command line that runs peri-hooks with `words`; `event` decides (with `failClosed`) whether a missing peri-hooks blocks. */
export function launchCommand(
  launch: Launch,
  words: readonly LaunchWord[],
  event: string,
  failClosed: boolean,
): string {
  if ('runner' in launch)
    return shellCommand([...launch.runner, ...words.map((word) => (typeof word === 'string' ? word : word.file))]);
  const { root, projectDir, fix } = launch.portable;
  const blocks = failClosed && canBlock(event);
  const message = `peri-hooks cannot start here: neither ${PROJECT_BIN} (with node on PATH) nor peri-hooks on PATH; fix: ${fix}${blocks ? '; blocking because the registration is --fail-closed' : ''}`;
  return portableCommand(
    root,
    words.map((word) =>
      typeof word === 'string'
        ? word
        : word.inHome !== undefined
          ? { inHome: word.inHome }
          : { inProject: path.relative(projectDir, word.file) || '.' },
    ),
    { message, exitCode: blocks ? 2 : 1 },
  );
}

/**
 * `install --audit <file>`: the firings' audit log in the registration. By its absolute path where the
 * registration names this machine's paths; in a portable one (committed), relative to the project, or to the home
 * of whoever runs it (each developer keeps their own log, outside the repository); anywhere else is refused.
 */
export function auditWords(file: string | undefined, portable: Portable | undefined, home: string): LaunchWord[] {
  if (file === undefined) return [];
  if (!portable || inside(portable.projectDir, file)) return ['--audit', { file }];
  if (home !== '' && inside(home, file)) return ['--audit', { file, inHome: path.relative(home, file) }];
  throw new PeriHooksError(
    'usage',
    `the audit log ${file} is neither in the project nor in the home folder: the project's registration is committed, and that path is this machine's only`,
    'give a log in the home folder (each developer keeps their own: --audit ~/.local/state/peri-hooks/audit.jsonl), or one in the project that git ignores',
  );
}

const inside = (folder: string, file: string) => {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

/** The portable launch of the project at `projectDir`: its install command when its package.json lists peri-hooks, else the single binary. */
export function portableLaunch(root: ProjectRoot, projectDir: string): Portable {
  return {
    root,
    projectDir,
    fix: listsPeriHooks(projectDir)
      ? 'run npm install in the project'
      : 'put the peri-hooks single binary on PATH (or npm install --save-dev peri-hooks, Node >= 22.19)',
  };
}

/** What a portable registration starts, for people. */
export function portableArtefact(): Artefact {
  return {
    runner: [],
    description: `peri-hooks from the project's ${PROJECT_BIN}, else from PATH (nothing of this machine is written)`,
  };
}

/** Warnings about a portable registration on this machine: policies outside the project, and a peri-hooks it would not find. */
export function portableWarnings(
  portable: Portable,
  policies: readonly string[],
  file: string,
  env: Record<string, string | undefined>,
): Diagnostic[] {
  const warnings: Diagnostic[] = [];
  for (const policy of policies) {
    if (!path.relative(portable.projectDir, policy).startsWith('..')) continue;
    warnings.push({
      severity: 'warning',
      code: 'policy-outside-project',
      file,
      message: `the policy ${policy} is outside the project ${portable.projectDir}: the registration names it as ${path.relative(portable.projectDir, policy)}, which another checkout may not have`,
      fix: 'keep the policy in the project (committed with it)',
    });
  }
  if (findPortable(portable.projectDir, env) === undefined) {
    warnings.push({
      severity: 'warning',
      code: 'peri-hooks-not-found',
      file,
      message: `on this machine the registration finds no peri-hooks (neither ${path.join(portable.projectDir, PROJECT_BIN)} with node on PATH nor peri-hooks on PATH): it says so on every firing and blocks where it is fail-closed`,
      fix: portable.fix,
    });
  }
  return warnings;
}

/** What a portable registration starts on this machine, as its sh prologue finds it; undefined when it finds nothing. */
export function findPortable(projectDir: string, env: Record<string, string | undefined>): string | undefined {
  const bin = path.join(projectDir, PROJECT_BIN);
  if (executable(bin) && onPath('node', env)) return bin;
  return onPath('peri-hooks', env);
}

function onPath(name: string, env: Record<string, string | undefined>): string | undefined {
  return (env.PATH ?? '')
    .split(':')
    .filter((dir) => dir !== '')
    .map((dir) => path.join(dir, name))
    .find(executable);
}

function executable(file: string): boolean {
  try {
    return statSync(file).isFile() && (statSync(file).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function listsPeriHooks(projectDir: string): boolean {
  const manifest = path.join(projectDir, 'package.json');
  if (!existsSync(manifest)) return false;
  try {
    const json = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, Record<string, unknown> | undefined>;
    return ['devDependencies', 'dependencies', 'optionalDependencies'].some(
      (key) => json[key]?.['peri-hooks'] !== undefined,
    );
  } catch {
    return false;
  }
}
