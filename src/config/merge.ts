// Merge the loaded files: hooks are concatenated in configuration order (nothing overrides, §1); scalar
// settings follow precedence (§9.1); kill switches (§9.3) mark hooks with the reason they are off.
import type { EffectiveSettings, Layer, LoadedHook } from '../types.ts';
import type { FileResult } from './load.ts';
import type { ScalarSettings } from './scalars.ts';

/** Lowest precedence first; within a layer, later files (flag order, sorted drop-ins) override earlier ones. */
const PRECEDENCE: readonly Layer[] = ['user', 'project', 'local', 'flag', 'managed'];

interface Found<T> {
  value: T;
  file: string;
  layer: Layer;
}

export function merge(results: FileResult[]): { hooks: LoadedHook[]; settings: EffectiveSettings } {
  const ranked = results
    .filter((r) => r.settings !== undefined)
    .sort((a, b) => PRECEDENCE.indexOf(a.report.layer) - PRECEDENCE.indexOf(b.report.layer));
  const managed = ranked.filter((r) => r.report.layer === 'managed');

  const disable = winner(ranked, 'disableAllHooks');
  const managedDisable = winner(managed, 'disableAllHooks');
  const managedOnly = winner(managed, 'allowManagedHooksOnly');
  const urls = mergedList(ranked, 'allowedHttpHookUrls');
  const envVars = mergedList(ranked, 'httpHookAllowedEnvVars');
  const trust = ranked.find((r) => r.settings!.peri_hooks_require_trust === true);
  const settings: EffectiveSettings = {
    ...(trust ? { requireTrust: { file: trust.report.file } } : {}),
    disableAllHooks: disable?.value ?? false,
    allowManagedHooksOnly: managedOnly?.value ?? false,
    allowedHttpHookUrls: urls,
    httpHookAllowedEnvVars: envVars,
    managedAllowedHttpHookUrls: mergedList(managed, 'allowedHttpHookUrls') && urls,
    managedHttpHookAllowedEnvVars: mergedList(managed, 'httpHookAllowedEnvVars') && envVars,
  };

  const forced = forceEnabledPlugins(managed);
  const throughPeriHooks = projectHooksRegistered(managed);
  const exempt = (hook: LoadedHook): boolean =>
    hook.provenance.layer === 'managed' ||
    // A managed registration of `install --project-hooks` runs them: Claude Code through peri-hooks.
    ((hook.provenance.layer === 'project' || hook.provenance.layer === 'local') && throughPeriHooks.has(hook.event)) ||
    (hook.provenance.layer === 'plugin' && forced.has(hook.provenance.pluginName ?? ''));
  const reasonFor = (hook: LoadedHook): string | undefined => {
    if (managedDisable?.value)
      return `disableAllHooks: true in managed settings ${managedDisable.file} turns off every hook`;
    if (disable?.value && !exempt(hook)) return `disableAllHooks: true in ${disable.layer} settings ${disable.file}`;
    if (managedOnly?.value && !exempt(hook))
      return `allowManagedHooksOnly: true in managed settings ${managedOnly.file}: only managed hooks run`;
    return undefined;
  };
  const hooks = results
    .flatMap((r) => r.hooks)
    .map((hook) => {
      const disabledReason = reasonFor(hook);
      return disabledReason === undefined ? hook : { ...hook, disabledReason };
    });
  return { hooks, settings };
}

/**
 * The http hooks' lists as Claude Code 2.1.332 merges them: every file's entries, so a `[]` in one file does not
 * refuse what another lists; undefined when no file sets the key.
 */
function mergedList(ranked: FileResult[], key: 'allowedHttpHookUrls' | 'httpHookAllowedEnvVars'): string[] | undefined {
  const lists = ranked.flatMap((r) => (r.settings![key] ? [r.settings![key]] : []));
  return lists.length > 0 ? [...new Set(lists.flat())] : undefined;
}

/** The URL and header-variable lists that apply to an http hook (or an mcp_tool hook's HTTP server) of `layer`. */
export function httpListsFor(layer: Layer, settings: EffectiveSettings): { urls?: string[]; envVars?: string[] } {
  return layer === 'managed'
    ? { urls: settings.managedAllowedHttpHookUrls, envVars: settings.managedHttpHookAllowedEnvVars }
    : { urls: settings.allowedHttpHookUrls, envVars: settings.httpHookAllowedEnvVars };
}

/** The value of the highest-precedence file that defines `key`. */
function winner<K extends keyof ScalarSettings>(
  ranked: FileResult[],
  key: K,
): Found<NonNullable<ScalarSettings[K]>> | undefined {
  let found: Found<NonNullable<ScalarSettings[K]>> | undefined;
  for (const r of ranked) {
    const value = r.settings![key];
    if (value !== undefined && value !== null) found = { value, file: r.report.file, layer: r.report.layer };
  }
  return found;
}

/** The events whose project and local hooks a managed registration of peri-hooks runs (`install --project-hooks`). */
function projectHooksRegistered(managed: FileResult[]): Set<string> {
  return new Set(
    managed.flatMap((r) =>
      (r.registrations ?? [])
        .filter((registration) =>
          registration.args.some((arg, i, args) =>
            /^(project|local)(,(project|local))*$/.test(
              arg.startsWith('--setting-sources=') ? arg.slice(18) : args[i - 1] === '--setting-sources' ? arg : '',
            ),
          ),
        )
        .map((registration) => registration.event),
    ),
  );
}

/**
 * Plugins that managed `enabledPlugins` turns on ("name@marketplace": true). Plugins given by --plugin-dir
 * have no marketplace, so they match on the name before `@`.
 */
function forceEnabledPlugins(managed: FileResult[]): Set<string> {
  const merged: Record<string, unknown> = Object.assign({}, ...managed.map((r) => r.settings!.enabledPlugins ?? {}));
  return new Set(
    Object.entries(merged)
      .filter(([, on]) => on === true)
      .map(([id]) => id.split('@')[0]!),
  );
}
