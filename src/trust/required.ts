// Whether a firing requires trust: no dependencies, since every firing asks (trust/enforce.ts is loaded only when so).
import type { EffectiveSettings } from '../types.ts';

/** The variable that requires trust in every firing of this environment, whatever its registration says. */
export const REQUIRE_TRUST_VARIABLE = 'PERI_HOOKS_REQUIRE_TRUST';

/** Why trust is required in this firing, or undefined: the option, the environment, or a managed, user or --settings file. */
export function trustRequired(
  option: boolean | undefined,
  env: Record<string, string | undefined>,
  settings: EffectiveSettings,
): string | undefined {
  if (option) return 'trust is required (--require-trust)';
  const variable = env[REQUIRE_TRUST_VARIABLE];
  if (variable && variable !== '0' && variable !== 'false') return `trust is required (${REQUIRE_TRUST_VARIABLE})`;
  if (settings.requireTrust) return `trust is required (peri_hooks_require_trust in ${settings.requireTrust.file})`;
  return undefined;
}
