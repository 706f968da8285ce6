// One finding of `peri-hooks doctor`: what was checked, whether it would work, and what to do when not.

/** `fail`: the guard would not work as configured (exit 1); `warn`: it works, with a cost or a risk worth knowing. */
export type CheckStatus = 'pass' | 'warn' | 'fail';

export interface Check {
  /** Stable per kind of check: runtime, registration, artefact, server, policy, startup, state, target. */
  id: string;
  status: CheckStatus;
  title: string;
  detail: string;
  fix?: string;
}

export function check(id: string, status: CheckStatus, title: string, detail: string, fix?: string): Check {
  return { id, status, title, detail, ...(fix === undefined ? {} : { fix }) };
}
