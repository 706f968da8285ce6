// `peri-hooks trust`: the project's and local file's hooks (and those of the policy files a peri-hooks registration
// there names), with the project files they run, read once; it records approval of exactly that content in the user
// state folder. `--diff` shows what changed since, `--revoke` removes the approval.
import { homedir } from 'node:os';
import path from 'node:path';
import { loadSettings } from '../../config/index.ts';
import { sourcesToLoad } from '../../config/sources.ts';
import { findHostRegistrations } from '../../doctor/hosts.ts';
import { EXIT, PeriHooksError } from '../../errors.ts';
import { isoTime } from '../../platform/clock.ts';
import { describeHook } from '../../report/build.ts';
import { trustDocumentSchema } from '../../report/documents.ts';
import { documentText } from '../../report/shape.ts';
import { counted, displayPath, sourceCell } from '../../text.ts';
import { type ApprovalPlace, readApprovals, revokeApprovals, writeApprovals } from '../../trust/approvals.ts';
import { approvalOf, checkTrust, type HookTrust, trustView } from '../../trust/check.ts';
import { inside } from '../../trust/scripts.ts';
import { pointerLocator } from '../../validate/locate.ts';
import { outputForm, type SourceFlags, type StateFlags, sourceOptions, stateOptions, write } from '../io.ts';

export interface TrustFlags extends SourceFlags, StateFlags {
  output?: string;
  diff?: boolean;
  revoke?: boolean;
}

export async function trustCommand(flags: TrustFlags): Promise<number> {
  const output = outputForm(flags.output, 'human');
  if (flags.diff && flags.revoke)
    throw new PeriHooksError(
      'usage',
      '--diff and --revoke do not go together',
      'give one of them, or neither to approve',
    );
  const action = flags.revoke ? 'revoke' : flags.diff ? 'diff' : 'approve';
  // Only the files that arrive with the repository, the policy files their registrations name, and those that other
  // agents' registrations in the project name (they load as --settings files).
  const given = sourcesToLoad(sourceOptions(flags), process.cwd());
  const { projectDir } = given;
  const hostPolicies = findHostRegistrations(given)
    .found.filter((found) => inside(projectDir, found.file))
    .flatMap((found) => found.policies.map((policy) => path.resolve(projectDir, policy)))
    .filter((policy) => inside(projectDir, policy));
  const load = {
    ...given,
    settings: [...new Set([...(given.settings ?? []), ...hostPolicies])],
    settingSources: ['project', 'local'] as Array<'project' | 'local'>,
  };
  const { stateDir } = stateOptions(flags);
  const place: ApprovalPlace = {
    env: process.env,
    home: process.env.HOME ?? homedir(),
    ...(stateDir ? { stateDir } : {}),
  };
  if (action === 'revoke') {
    const { file, removed } = revokeApprovals(projectDir, place);
    if (output === 'json')
      await write(
        process.stdout,
        documentText(trustDocumentSchema(), { projectDir, action, approvals: file, approvedAt: null, hooks: [] }),
      );
    else
      await write(
        process.stdout,
        removed
          ? `revoked the approval of ${displayPath(projectDir)}'s hooks (${displayPath(file)})\n`
          : `no approval of ${displayPath(projectDir)}'s hooks to revoke\n`,
      );
    return EXIT.ok;
  }
  const loaded = await loadSettings(load);
  const before = readApprovals(projectDir, place);
  const states = await checkTrust(loaded.hooks, projectDir, before.approvals);
  const approvable = states.filter((state) => state.status !== 'unapprovable');
  let approvedAt = before.approvedAt ?? null;
  let file = before.file;
  if (action === 'approve') {
    approvedAt = isoTime();
    file = writeApprovals(projectDir, place, approvable.map(approvalOf), approvedAt);
  }
  const locate = await pointerLocator(load);
  const lines = await Promise.all(
    states.map(async (state) => (await locate(state.hook.provenance.file, state.hook.provenance.pointer))?.line),
  );
  if (output === 'json') {
    await write(
      process.stdout,
      documentText(trustDocumentSchema(), {
        projectDir,
        action,
        approvals: file,
        approvedAt,
        hooks: states.map((state, i) => ({
          ...describeHook(state.hook),
          line: lines[i] ?? null,
          event: state.hook.event,
          trust: trustView(state),
        })),
      }),
    );
  } else {
    await write(process.stdout, human(states, lines, action, projectDir, file, before.problem));
  }
  return action === 'approve' && approvable.length < states.length ? EXIT.runnerError : EXIT.ok;
}

function human(
  states: readonly HookTrust[],
  lines: readonly (number | undefined)[],
  action: 'approve' | 'diff',
  projectDir: string,
  file: string,
  problem: string | undefined,
): string {
  const out: string[] = problem ? [`peri-hooks: warning: ${problem}; approving writes it anew`] : [];
  states.forEach((state, i) => {
    const hook = describeHook(state.hook);
    out.push(
      `${state.hook.event}${hook.matcher ? ` (${hook.matcher})` : ''}: ${hook.type} ${hook.label.replace(/\s+/g, ' ')}`,
    );
    out.push(`  in ${sourceCell(hook, lines[i])}`);
    for (const script of state.scripts)
      out.push(
        `  runs ${script.relative}${script.kind === 'file' ? ` sha256 ${script.sha256}` : script.kind === 'escapes' ? `: leads out of the project (to ${script.target})` : `: ${script.why}`}`,
      );
    for (const note of state.notes) out.push(`  note: ${note}`);
    out.push(`  ${STATUS_WORDS[state.status]}${state.changes.length > 0 ? `: ${state.changes.join('; ')}` : ''}`);
  });
  if (states.length === 0) out.push(`${displayPath(projectDir)} has no project or local hooks`);
  const refused = states.filter((state) => state.status === 'unapprovable').length;
  const changed = states.filter((state) => state.status === 'new' || state.status === 'changed').length;
  if (action === 'approve')
    out.push(
      `approved ${counted(states.length - refused, 'hook')} of ${displayPath(projectDir)} as shown (${displayPath(file)})${refused > 0 ? `; ${counted(refused, 'hook')} cannot be approved and will not run where trust is required` : ''}`,
    );
  else
    out.push(
      changed + refused === 0
        ? 'nothing changed since the approval'
        : `${counted(changed, 'hook')} not approved as it is now${refused > 0 ? `, ${refused} that cannot be` : ''}; approve with: peri-hooks trust`,
    );
  return `${out.join('\n')}\n`;
}

const STATUS_WORDS: Readonly<Record<HookTrust['status'], string>> = {
  approved: 'approved',
  new: 'not approved (new)',
  changed: 'changed since approved',
  unapprovable: 'cannot be approved',
};
