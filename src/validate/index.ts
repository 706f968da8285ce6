// `peri-hooks validate`: load every source that `fire` would read (the loader's located diagnostics), then
// lint every entry, applied or not: an inapplicable file and the inside of a dropped entry are linted too, so
// that one mistake hides no other. Nothing runs. The report doubles as a test oracle for the loader and the rules.
import path from 'node:path';
import { LOADER_CODES, loaderCodeCost } from '../config/codes.ts';
import type { LoadOptions, SourceReport } from '../config/index.ts';
import { loadSettings } from '../config/index.ts';
import type { Diagnostic, LoadedHook, Severity } from '../types.ts';
import { pointerLocator } from './locate.ts';
import { type Finding, GROUP_RULES, type Group, HOOK_RULES, type LintContext, type Rule, SET_RULES } from './rules.ts';

/** A validate finding; `makesSourceInapplicable` marks the entries that keep their whole file from applying. */
export interface ValidateDiagnostic extends Diagnostic {
  makesSourceInapplicable?: true;
}

export interface ValidateReport {
  /** False when there are errors (with `strict`, warnings too). */
  ok: boolean;
  errors: number;
  warnings: number;
  notes: number;
  /** Hooks loaded from all sources. */
  hooks: number;
  sources: SourceReport[];
  diagnostics: ValidateDiagnostic[];
}

/** `mcpConfigs`: the --mcp-config values that fire would be given, for the servers of mcp_tool hooks. */
export async function validate(
  load: LoadOptions,
  strict = false,
  mcpConfigs?: readonly string[],
): Promise<ValidateReport> {
  const loaded = await loadSettings({ ...load, everyEntry: true, ...(mcpConfigs ? { mcpConfigs } : {}) });
  const ctx: LintContext = {
    projectDir: path.resolve(load.projectDir),
    home: load.home,
    env: load.env,
    mcpServers: loaded.mcpServers,
  };
  const located = await locateAll(load, await lint(loaded.hooks, ctx, loaded.unapplied));
  const regraded = loaded.diagnostics.map((d): ValidateDiagnostic => {
    if (makesSourceInapplicable(d)) return { ...d, makesSourceInapplicable: true };
    // The loader warns and goes on (as Claude Code does) when it drops something, but for validate a hook that never runs is an error.
    return d.severity === 'warning' && LOADER_CODES[d.code] !== 'nothing' ? { ...d, severity: 'error' } : d;
  });
  const order = new Map(loaded.sources.map((source, i) => [source.file, i]));
  const diagnostics = [...regraded, ...located].sort(
    (a, b) =>
      (order.get(a.file ?? '') ?? -1) - (order.get(b.file ?? '') ?? -1) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
  const count = (severity: Severity) => diagnostics.filter((d) => d.severity === severity).length;
  const errors = count('error');
  const warnings = count('warning');
  return {
    ok: errors === 0 && (!strict || warnings === 0),
    errors,
    warnings,
    notes: count('note'),
    hooks: loaded.hooks.length,
    sources: loaded.sources,
    diagnostics,
  };
}

/** The loader reports an entry as an error exactly when it voids its file (a guard event's unloadable entry). */
function makesSourceInapplicable(diagnostic: Diagnostic): boolean {
  return (
    diagnostic.severity === 'error' &&
    diagnostic.code !== 'source-inapplicable' &&
    loaderCodeCost(diagnostic.code) === 'hooks'
  );
}

/**
 * Every rule over the loaded hooks, and the per-group and per-hook rules over the unapplied ones too (the set
 * rules, such as duplicates, are about what runs). Diagnostics carry file and pointer, not yet line and column.
 */
export async function lint(
  hooks: readonly LoadedHook[],
  ctx: LintContext,
  unapplied: readonly LoadedHook[] = [],
): Promise<Diagnostic[]> {
  const run = async <S>(rules: ReadonlyArray<Rule<S>>, subject: S, file: string | undefined) =>
    (
      await Promise.all(
        rules.map(async (rule) => (await rule.check(subject, ctx)).map((finding) => toDiagnostic(rule, finding, file))),
      )
    ).flat();
  const every = [...hooks, ...unapplied];
  const results = await Promise.all([
    ...groupsOf(every).map((group) => run(GROUP_RULES, group, group.file)),
    ...every.map((hook) => run(HOOK_RULES, hook, hook.provenance.file)),
    run(SET_RULES, hooks, undefined),
  ]);
  return results.flat();
}

function toDiagnostic(
  rule: Pick<Rule<never>, 'code' | 'severity'>,
  finding: Finding,
  file: string | undefined,
): Diagnostic {
  return {
    severity: rule.severity,
    code: finding.code ?? rule.code,
    message: finding.message,
    file: finding.file ?? file!,
    pointer: finding.pointer,
    fix: finding.fix,
  };
}

/** Groups with a matcher, once each. */
function groupsOf(hooks: readonly LoadedHook[]): Group[] {
  const groups = new Map<string, Group>();
  for (const hook of hooks) {
    if (hook.matcher === undefined) continue;
    const pointer = hook.provenance.pointer.replace(/\/hooks\/\d+$/, '');
    const key = `${hook.provenance.file}#${pointer}`;
    if (!groups.has(key))
      groups.set(key, { event: hook.event, matcher: hook.matcher, file: hook.provenance.file, pointer });
  }
  return [...groups.values()];
}

async function locateAll(load: LoadOptions, diagnostics: Diagnostic[]): Promise<Diagnostic[]> {
  if (diagnostics.length === 0) return diagnostics;
  const locate = await pointerLocator(load);
  return Promise.all(diagnostics.map(async (d) => ({ ...d, ...(await locate(d.file!, d.pointer!)) })));
}
