// The settings a source sets besides its hooks (disableAllHooks, allowedHttpHookUrls, ...), each checked on its own:
// a wrong value is a warning and is ignored, the rest of the file still loads.
import type * as z from 'zod';
import type { settingsSchema } from './schema.ts';
import { add, type Walk } from './walk.ts';

const SCALAR_KEYS = [
  'disableAllHooks',
  'allowManagedHooksOnly',
  'allowedHttpHookUrls',
  'httpHookAllowedEnvVars',
  'enabledPlugins',
  'peri_hooks_require_trust',
] as const;

export type ScalarKey = (typeof SCALAR_KEYS)[number];

const SCALAR_EXPECTED: Readonly<Record<ScalarKey, string>> = {
  disableAllHooks: 'true or false',
  allowManagedHooksOnly: 'true or false',
  allowedHttpHookUrls: 'an array of strings',
  httpHookAllowedEnvVars: 'an array of strings',
  enabledPlugins: 'an object',
  peri_hooks_require_trust: 'true or false',
};

export type ScalarSettings = { [K in ScalarKey]?: z.output<(typeof settingsSchema.shape)[K]> };

export function readScalars(walk: Walk, doc: Record<string, unknown>): ScalarSettings {
  const settings: Record<string, unknown> = {};
  for (const key of SCALAR_KEYS) {
    if (!Object.hasOwn(doc, key)) continue;
    const result = walk.checks.scalar(key, doc[key]);
    if (!result.success) {
      const expected = SCALAR_EXPECTED[key];
      add(
        walk,
        'warning',
        'invalid-setting',
        `/${key}`,
        `"${key}" must be ${expected}; ignored`,
        `write "${key}" as ${expected}`,
      );
      continue;
    }
    if (key === 'peri_hooks_require_trust' && (walk.origin.layer === 'project' || walk.origin.layer === 'local')) {
      add(
        walk,
        'note',
        'trust-setting-ignored',
        `/${key}`,
        '"peri_hooks_require_trust" is not honoured in project or local settings (a project cannot vouch for itself); ignored here',
        'move it to managed-settings.json or ~/.claude/settings.json',
      );
      continue;
    }
    if (key === 'allowManagedHooksOnly' && walk.origin.layer !== 'managed') {
      add(
        walk,
        'note',
        'managed-only-setting',
        `/${key}`,
        '"allowManagedHooksOnly" is honoured only in managed settings; ignored here',
        'move it to managed-settings.json',
      );
    }
    settings[key] = result.data;
  }
  return settings as ScalarSettings;
}
