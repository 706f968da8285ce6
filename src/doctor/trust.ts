// doctor's view of trust: each project and local hook against the user's approvals (`peri-hooks trust`), where trust
// is required or the project was approved before. An unapproved hook is a warning, not a failure: where trust is
// required the guard works by not running it.
import { type LoadOptions, loadSettings } from '../config/index.ts';
import { labelOf } from '../hook-label.ts';
import { approveCommand, needsTrust, trustWords } from '../trust/check.ts';
import { trustStates } from '../trust/enforce.ts';
import { trustRequired } from '../trust/required.ts';
import { type Check, check } from './check.ts';

export async function trustChecks(
  location: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'>,
  required: boolean,
): Promise<Check[]> {
  const loaded = await loadSettings({ ...location, settingSources: ['project', 'local'] });
  const hooks = loaded.hooks.filter((hook) => needsTrust(hook, location.projectDir));
  if (hooks.length === 0) return [];
  const { states, approvals } = await trustStates(hooks, location.projectDir, {
    env: location.env,
    home: location.home,
  });
  const enforced =
    required || trustRequired(undefined, location.env, (await loadSettings(location)).settings) !== undefined;
  // Where trust is neither required nor used, the state of each hook is news to nobody.
  if (!enforced && !approvals) return [];
  const cost = enforced ? 'does not run (trust is required)' : 'would not run where trust is required';
  return [...states.values()].map((state) =>
    state.status === 'approved'
      ? check(
          'trust',
          'pass',
          'trust',
          `${state.hook.event} ${JSON.stringify(labelOf(state.hook))} (${state.file}): approved`,
        )
      : check(
          'trust',
          'warn',
          'trust',
          `${state.hook.event} ${JSON.stringify(labelOf(state.hook))} (${state.file}): ${trustWords(state)}; it ${cost}`,
          state.status === 'unapprovable'
            ? 'keep the files it runs inside the project and under 1 MiB'
            : `review it, then: ${approveCommand(location.projectDir, state.hook)}`,
        ),
  );
}
