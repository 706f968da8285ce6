// The trust stage: each project or local hook against the user's approvals of exactly its content (its entry and
// the files it runs, read once here). A hook whose content is not approved is marked with why, and the plan skips it.
import path from 'node:path';
import { shellCommand } from '../config/registration.ts';
import type { CommandHook } from '../config/schema.ts';
import { sameEntries } from '../platform/records.ts';
import type { LoadedHook } from '../types.ts';
import type { Approval } from './approvals.ts';
import {
  besideFiles,
  inside,
  ownPath,
  readScript,
  type ScriptContent,
  type ScriptWord,
  scriptWords,
  shellRuns,
} from './scripts.ts';

/** The layers whose hooks arrive with the repository. */
export const TRUSTED_LAYERS = ['project', 'local'] as const;

export type TrustStatus = 'approved' | 'new' | 'changed' | 'unapprovable';

export interface HookTrust {
  hook: LoadedHook;
  /** The settings file, relative to the project. */
  file: string;
  /** Canonical JSON of what the hook is: its event, matcher and handler. */
  entry: string;
  /** The files it runs, each read once (a file named twice is read once). */
  scripts: ScriptContent[];
  status: TrustStatus;
  /** What differs from the approval, or why it cannot be approved, one line each. */
  changes: string[];
  /** Each word of the command that names a pinned file, with that file's content as read. */
  pins: Array<{ word: ScriptWord; script: Extract<ScriptContent, { kind: 'file' }> }>;
  /** What the user should know that is neither a change nor a refusal (a script whose folder is not pinned). */
  notes: string[];
}

/**
 * Whether this hook arrives with the repository (and so needs approval when trust is required): a project or local
 * hook, or one of a --settings file inside the project (the policy another agent's project registration names).
 */
export function needsTrust(hook: LoadedHook, projectDir: string): boolean {
  const { layer, file } = hook.provenance;
  return (
    (TRUSTED_LAYERS as readonly string[]).includes(layer) ||
    (layer === 'flag' && path.isAbsolute(file) && inside(projectDir, file))
  );
}

/** The state of every project and local hook among `hooks`. */
export async function checkTrust(
  hooks: readonly LoadedHook[],
  projectDir: string,
  approvals: readonly Approval[],
): Promise<HookTrust[]> {
  return Promise.all(
    hooks.filter((hook) => needsTrust(hook, projectDir)).map((hook) => checkHook(hook, projectDir, approvals)),
  );
}

async function checkHook(hook: LoadedHook, projectDir: string, approvals: readonly Approval[]): Promise<HookTrust> {
  const file = relativeTo(projectDir, hook.provenance.file);
  const entry = canonicalJson({
    event: hook.event,
    ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
    handler: hook.handler,
  });
  const words = hook.handler.type === 'command' ? scriptWords(hook.handler as CommandHook, projectDir) : [];
  // A file named twice is read once: both words run the same bytes.
  const unique = [...new Map(words.map((word) => [word.file, word])).values()];
  const read = new Map(
    await Promise.all(
      unique.map(async (word) => [word.file, await readScript(word.file, word.inProject, projectDir)] as const),
    ),
  );
  const pins = words.flatMap((word) => {
    const script = read.get(word.file);
    return script?.kind === 'file' ? [{ word, script }] : [];
  });
  const notes = await readBeside(pins, read, projectDir);
  await readRuns(read, projectDir);
  const scripts = [...read.values()].filter((script): script is ScriptContent => script !== undefined);
  const base = { hook, file, entry, scripts, pins, notes };
  const refused = scripts.flatMap((script) =>
    script.kind === 'escapes'
      ? [`${script.relative} leads out of the project (to ${script.target})`]
      : script.kind === 'unhashable'
        ? [`${script.relative} cannot be pinned (${script.why})`]
        : [],
  );
  if (refused.length > 0) return { ...base, status: 'unapprovable', changes: refused };
  const hashes = Object.fromEntries(scripts.map((script) => [script.relative, (script as { sha256: string }).sha256]));
  const sameEntry = approvals.filter((approval) => approval.file === file && approval.entry === entry);
  if (sameEntry.some((approval) => sameEntries(approval.scripts, hashes)))
    return { ...base, status: 'approved', changes: [] };
  const before =
    sameEntry[0] ??
    approvals.find((approval) => approval.file === file && approval.pointer === hook.provenance.pointer);
  if (!before) return { ...base, status: 'new', changes: ['never approved'] };
  return {
    ...base,
    status: 'changed',
    changes: [
      ...(before.entry === entry ? [] : [`its entry in ${file} changed`]),
      ...scriptChanges(before.scripts, hashes),
    ],
  };
}

/**
 * The files beside each pinned script that loads them (ownPath), read into `read` (they run from a copy of its
 * folder); a note for each such script whose folder cannot be pinned.
 */
async function readBeside(
  pins: HookTrust['pins'],
  read: Map<string, ScriptContent | undefined>,
  projectDir: string,
): Promise<string[]> {
  const notes: string[] = [];
  for (const { word, script } of new Map(pins.map((pin) => [pin.word.file, pin])).values()) {
    const how = ownPath(script.bytes, word.file);
    if (how === undefined) continue;
    const beside = besideFiles(word.file, projectDir);
    if ('why' in beside) {
      notes.push(
        `${script.relative} loads files beside it (${how}), but its folder is not pinned (${beside.why}): they are not there when it runs; give it and them a folder of their own`,
      );
      continue;
    }
    for (const other of beside.files) if (!read.has(other)) read.set(other, await readScript(other, true, projectDir));
  }
  return notes;
}

/** The project files that the files in `read` run by a path (shellRuns), read into it, and the files they run. */
async function readRuns(read: Map<string, ScriptContent | undefined>, projectDir: string): Promise<void> {
  const queue = [...read.entries()];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const [file, script] = next;
    if (script?.kind !== 'file') continue;
    for (const word of shellRuns(script.bytes, file, projectDir)) {
      if (read.has(word.file)) continue;
      const content = await readScript(word.file, word.inProject, projectDir);
      read.set(word.file, content);
      queue.push([word.file, content]);
    }
  }
}

function scriptChanges(approved: Record<string, string>, now: Record<string, string>): string[] {
  const names = [...new Set([...Object.keys(approved), ...Object.keys(now)])].sort();
  return names.flatMap((name) =>
    approved[name] === now[name]
      ? []
      : approved[name] === undefined
        ? [`${name} is new (sha256 ${now[name]!.slice(0, 12)})`]
        : now[name] === undefined
          ? [`${name} is no longer run`]
          : [`${name} changed (sha256 ${approved[name]!.slice(0, 12)} → ${now[name]!.slice(0, 12)})`],
  );
}

/** The approval that records exactly this state (only for hooks that can be approved). */
export function approvalOf(trust: HookTrust): Approval {
  return {
    file: trust.file,
    pointer: trust.hook.provenance.pointer,
    entry: trust.entry,
    scripts: Object.fromEntries(
      trust.scripts.flatMap((script) => (script.kind === 'file' ? [[script.relative, script.sha256]] : [])),
    ),
  };
}

/** The command that approves a project's hooks (naming the policy file of a hook that came through --settings). */
export function approveCommand(projectDir: string, hook?: LoadedHook): string {
  const policy = hook?.provenance.layer === 'flag' ? ['--settings', hook.provenance.file] : [];
  return shellCommand(['peri-hooks', 'trust', '--project-dir', projectDir, ...policy]);
}

/** JSON with object keys sorted at every level: the same content always reads the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

function relativeTo(projectDir: string, file: string): string {
  const relative = path.relative(path.resolve(projectDir), file);
  return relative.split(path.sep).join('/');
}

/** The trust state as the JSON documents show it. */
export function trustView(trust: HookTrust): {
  status: TrustStatus;
  changes: string[];
  scripts: Array<{ file: string; sha256: string | null; problem: string | null }>;
  notes: string[];
} {
  return {
    status: trust.status,
    changes: trust.changes,
    scripts: trust.scripts.map((script) => ({
      file: script.relative,
      sha256: script.kind === 'file' ? script.sha256 : null,
      problem:
        script.kind === 'escapes'
          ? `leads out of the project (to ${script.target})`
          : script.kind === 'unhashable'
            ? script.why
            : null,
    })),
    notes: trust.notes,
  };
}

/** A hook's trust state in a few words, with what changed. */
export function trustWords(trust: { status: string; changes: string[] }): string {
  const status =
    trust.status === 'new' ? 'not approved' : trust.status === 'unapprovable' ? 'cannot be approved' : trust.status;
  return trust.changes.length > 0 && trust.status !== 'new' ? `${status} (${trust.changes.join('; ')})` : status;
}
