// Where approvals of a project's hooks are kept: one file per project in the user's state folder (never in the
// repository, which is what they guard against), named by the hash of the project's real path.
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PeriHooksError } from '../errors.ts';
import { sha256Hex } from '../platform/hash.ts';
import { resolveStateDir } from '../session/store.ts';

/** One approved hook: the file it sits in (relative to the project), its entry as canonical JSON, its scripts' SHA-256. */
export interface Approval {
  file: string;
  pointer: string;
  entry: string;
  scripts: Record<string, string>;
}

export interface ProjectApprovals {
  version: 1;
  project: string;
  approvedAt: string;
  hooks: Approval[];
}

export interface ApprovalPlace {
  env: Record<string, string | undefined>;
  home: string;
  /** --state-dir */
  stateDir?: string;
}

/** The project's real path: a symlinked checkout and its target share approvals. */
export function projectKey(projectDir: string): string {
  try {
    return realpathSync(projectDir);
  } catch {
    return path.resolve(projectDir);
  }
}

export function approvalsFile(projectDir: string, place: ApprovalPlace): string {
  const dir = path.join(resolveStateDir(place.env, place.home, place.stateDir), 'trust');
  return path.join(dir, `${sha256Hex(projectKey(projectDir)).slice(0, 32)}.json`);
}

/** The project's approvals; none when there is no file. A file that does not read is no approval, said by `problem`. */
export function readApprovals(
  projectDir: string,
  place: ApprovalPlace,
): { approvals: Approval[]; file: string; approvedAt?: string; problem?: string } {
  const file = approvalsFile(projectDir, place);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { approvals: [], file };
    return { approvals: [], file, problem: `cannot read the approvals ${file}: ${code ?? (error as Error).message}` };
  }
  try {
    const value = JSON.parse(text) as ProjectApprovals;
    if (value.version !== 1 || !Array.isArray(value.hooks) || value.project !== projectKey(projectDir))
      throw new Error('not an approvals file of this project');
    return { approvals: value.hooks, file, approvedAt: value.approvedAt };
  } catch (error) {
    return { approvals: [], file, problem: `the approvals ${file} do not read (${(error as Error).message})` };
  }
}

/** Replaces the project's approvals with these, atomically (a reader sees the old file or the new one). */
export function writeApprovals(projectDir: string, place: ApprovalPlace, hooks: Approval[], now: string): string {
  const file = approvalsFile(projectDir, place);
  const record: ProjectApprovals = { version: 1, project: projectKey(projectDir), approvedAt: now, hooks };
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    throw new PeriHooksError(
      'settings-unwritable',
      `cannot write the approvals ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      'make the state folder writable ($PERI_HOOKS_STATE_DIR, else $XDG_STATE_HOME/peri-hooks), or pass --state-dir',
    );
  }
  return file;
}

/** Removes the project's approvals; whether there were any. */
export function revokeApprovals(projectDir: string, place: ApprovalPlace): { file: string; removed: boolean } {
  const file = approvalsFile(projectDir, place);
  const existed = readApprovals(projectDir, place).approvals.length > 0;
  rmSync(file, { force: true });
  return { file, removed: existed };
}
