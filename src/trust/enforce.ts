// Trust, enforced in a firing: before the plan, each project and local hook of the event is checked against the
// approvals (an unapproved one is marked, and the plan skips it); after the plan, each approved hook that runs a
// project file runs a private copy of exactly the bytes that were hashed, so a file changed between the check and
// the run (or named twice and swapped between) cannot slip in.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { shellCommand } from '../config/registration.ts';
import type { CommandHook } from '../config/schema.ts';
import { labelOf } from '../hook-label.ts';
import type { Plan, PlannedHook } from '../plan.ts';
import type { Diagnostic, LoadedHook } from '../types.ts';
import { type ApprovalPlace, readApprovals } from './approvals.ts';
import { approveCommand, checkTrust, type HookTrust } from './check.ts';

/** The code of the finding that an unapproved hook did not run: it counts as policy not enforced. */
export const UNTRUSTED_CODE = 'hook-untrusted';

export interface Guarded {
  /** The hooks, each unapproved project or local one marked `untrusted`. */
  hooks: LoadedHook[];
  trust: Map<string, HookTrust>;
  /** Approvals that could not be read. */
  problem?: string;
}

/** Marks the unapproved project and local hooks among `hooks` (those of this event only are checked). */
export async function guardHooks(
  hooks: readonly LoadedHook[],
  event: string,
  projectDir: string,
  place: ApprovalPlace,
  why: string,
): Promise<Guarded> {
  const { approvals, problem } = readApprovals(projectDir, place);
  const states = await checkTrust(
    hooks.filter((hook) => hook.event === event),
    projectDir,
    approvals,
  );
  const trust = new Map(states.map((state) => [state.hook.id, state]));
  return {
    hooks: hooks.map((hook) => {
      const state = trust.get(hook.id);
      if (!state || state.status === 'approved') return hook;
      const what = state.changes.join('; ');
      return {
        ...hook,
        untrusted:
          state.status === 'unapprovable'
            ? `${why}, and it cannot be approved: ${what}`
            : `${why}, and it is not approved: ${what}; review it, then approve it with: ${approveCommand(projectDir, hook)}`,
      };
    }),
    trust,
    ...(problem ? { problem } : {}),
  };
}

/** One finding per skipped unapproved hook, located at its entry: said in every answer, a block under fail-closed. */
export function untrustedFindings(plan: Plan): Diagnostic[] {
  return plan.skipped
    .filter((skip) => skip.reason === 'untrusted')
    .map(({ hook, detail }) => ({
      severity: 'warning' as const,
      code: UNTRUSTED_CODE,
      file: hook.provenance.file,
      pointer: hook.provenance.pointer,
      message: `the ${hook.provenance.layer} hook ${JSON.stringify(labelOf(hook))} did not run: ${detail}`,
    }));
}

/**
 * The plan with each approved hook that runs project files pointed at private copies of the hashed bytes; `cleanup`
 * removes them once the firing has run (a hook that went to the background has opened its copy by then).
 */
export function pinPlan(plan: Plan, trust: ReadonlyMap<string, HookTrust>): { plan: Plan; cleanup: () => void } {
  let dir: string | undefined;
  let count = 0;
  const pinned = new Map<string, LoadedHook>();
  const pin = (hook: LoadedHook): LoadedHook => {
    const state = trust.get(hook.id);
    if (state?.status !== 'approved' || hook.handler.type !== 'command') return hook;
    const files = state.pins;
    if (files.length === 0) return hook;
    const known = pinned.get(hook.id);
    if (known) return known;
    dir ??= mkdtempSync(path.join(tmpdir(), 'peri-hooks-pinned-'));
    // Each hook's files where they sit in the project, so a script finds the files beside it that were pinned with it.
    const folder = path.join(dir, String(count++));
    for (const script of state.scripts) {
      if (script.kind !== 'file') continue;
      const copy = path.join(folder, ...script.relative.split('/'));
      mkdirSync(path.dirname(copy), { recursive: true, mode: 0o700 });
      writeFileSync(copy, script.bytes, { mode: script.executable ? 0o500 : 0o400, flag: 'wx' });
    }
    const copies = new Map(
      files.map(({ word, script }) => [word.file, path.join(folder, ...script.relative.split('/'))]),
    );
    const handler = hook.handler as CommandHook;
    const result = { ...hook, pinned: rewritten(handler, files, copies) };
    pinned.set(hook.id, result);
    return result;
  };
  const each = (planned: PlannedHook): PlannedHook => ({ ...planned, hook: pin(planned.hook) });
  const next = { ...plan, run: plan.run.map(each), chains: plan.chains.map((chain) => chain.map(each)) };
  return {
    plan: next,
    cleanup: () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The command (and exec-form args) with each word that names a pinned file replaced by its copy. */
function rewritten(
  handler: CommandHook,
  files: HookTrust['pins'],
  copies: ReadonlyMap<string, string>,
): { command: string; args?: string[] } {
  if (handler.args) {
    const words = [handler.command, ...handler.args];
    for (const { word } of files) if ('index' in word.at) words[word.at.index] = copies.get(word.file)!;
    return { command: words[0]!, args: words.slice(1) };
  }
  let command = handler.command;
  const spans = files
    .map(({ word }) => word)
    .filter((word): word is typeof word & { at: { start: number; end: number } } => 'start' in word.at)
    .sort((a, b) => b.at.start - a.at.start);
  for (const word of spans)
    command = command.slice(0, word.at.start) + shellCommand([copies.get(word.file)!]) + command.slice(word.at.end);
  return { command };
}

/**
 * The trust state of each project and local hook among `hooks`, by id (list, explain, doctor), and whether the
 * project has approvals at all (people who never approved are not shown the state unless trust is required).
 */
export async function trustStates(
  hooks: readonly LoadedHook[],
  projectDir: string,
  place: ApprovalPlace,
): Promise<{ states: Map<string, HookTrust>; approvals: boolean }> {
  const { approvals } = readApprovals(projectDir, place);
  const states = await checkTrust(hooks, projectDir, approvals);
  return { states: new Map(states.map((state) => [state.hook.id, state])), approvals: approvals.length > 0 };
}
