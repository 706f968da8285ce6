// Read one source and validate it entry by entry (spec §1, §5): a bad group or handler costs only itself,
// except on guard events, where it makes its whole file inapplicable. Every problem is a located diagnostic.
// For `validate`, `everyEntry` also walks what is dropped (an inapplicable file, the inside of a dropped
// entry), so that one mistake does not hide the others; what it finds there never applies.

import path from 'node:path';
import type * as z from 'zod';
import { deniedPermissionFlag, permissionError } from '../errors.ts';
import { EVENT_NAMES, EVENTS, type EventName, isEventName, suggestEvent } from '../events.ts';
import { readSettingsBytes } from '../files.ts';
import { DEFER, HOOK_TYPES, handlerCheck, matcherCheck, sequentialCheck, settingChecks } from '../generated/checks.ts';
import { closest } from '../suggest.ts';
import { shownUrl } from '../text.ts';
import type { LoadedHook, Provenance, Severity } from '../types.ts';
import { LOADER_CODES, type LoaderCode, type LoaderDiagnostic } from './codes.ts';
import type { SourceSpec } from './discover.ts';
import type { SourceReport } from './index.ts';
import { createLocator, escapeSegment, positionAt, syntaxErrorPosition } from './locate.ts';
import { excessNesting, MAX_NESTING } from './nesting.ts';
import { type FollowedRegistration, followedPolicies, isOwnRegistration } from './registration.ts';
import type { HookHandler, settingsSchema } from './schema.ts';

const SCALAR_KEYS = [
  'disableAllHooks',
  'allowManagedHooksOnly',
  'allowedHttpHookUrls',
  'httpHookAllowedEnvVars',
  'enabledPlugins',
  'peri_hooks_require_trust',
] as const;
type ScalarKey = (typeof SCALAR_KEYS)[number];
const SCALAR_EXPECTED: Readonly<Record<ScalarKey, string>> = {
  disableAllHooks: 'true or false',
  allowManagedHooksOnly: 'true or false',
  allowedHttpHookUrls: 'an array of strings',
  httpHookAllowedEnvVars: 'an array of strings',
  enabledPlugins: 'an object',
  peri_hooks_require_trust: 'true or false',
};
export type ScalarSettings = { [K in ScalarKey]?: z.output<(typeof settingsSchema.shape)[K]> };

export interface FileResult {
  report: SourceReport;
  hooks: LoadedHook[];
  /** Hooks that were read but do not apply: an inapplicable file's, and with `everyEntry` those inside dropped entries. */
  unapplied: LoadedHook[];
  diagnostics: LoaderDiagnostic[];
  /** Scalar settings of an applied settings file (never of plugins), each key validated on its own. */
  settings?: ScalarSettings;
  /** peri-hooks' own registrations in the file that can be followed to their policy files (loadSettings does). */
  registrations?: FollowedRegistration[];
}

/** Peri's snake_case spellings of handler fields, read as Claude Code's. */
const PERI_ALIASES: Readonly<Record<string, string>> = {
  status_message: 'statusMessage',
  allowed_env_vars: 'allowedEnvVars',
};

/** Handler fields that Claude Code ignores when written on the matcher group (observed for onFailure, §19). */
const HANDLER_FIELDS = [
  'type',
  'command',
  'args',
  'url',
  'prompt',
  'timeout',
  'onFailure',
  'statusMessage',
  'if',
  'async',
];

const REQUIRED_FIX: Readonly<Record<string, string>> = {
  command: 'add "command": "<shell command line>"',
  url: 'add "url": "https://example.com/hook"',
  prompt: 'add "prompt": "<what to check>"',
  server: 'add "server": "<connected MCP server name>"',
  tool: 'add "tool": "<tool name on that server>"',
};

/** Required string fields that Claude Code accepts empty. */
const EMPTY_CHECKED = ['command', 'prompt', 'server', 'tool'];

const STRICT_JSON = 'settings files are strict JSON: no comments, no trailing commas, double-quoted keys';

type Origin = Omit<Provenance, 'pointer'>;
type Read = { kind: 'missing' } | { kind: 'error'; message: string } | { kind: 'text'; text: string };
type Parsed = { ok: true; value: Record<string, unknown>; text: string } | { ok: false; result: FileResult };

type Checked<T> =
  | { success: true; data: T }
  | { success: false; data?: undefined; error: { issues: z.core.$ZodIssue[] } };

/** How a walk validates each part: the generated checks, which defer what they cannot accept, or zod's schemas. */
export interface Checks {
  scalar(key: ScalarKey, value: unknown): Checked<unknown>;
  matcher(value: unknown): Checked<string | undefined>;
  sequential(value: unknown): Checked<boolean | undefined>;
  handler(value: unknown): Checked<HookHandler>;
}

/** Thrown by the generated checks to abandon a walk: the file is walked again with zod. */
const DEFERRED = new Error('a generated check deferred to zod');
function accepted<T>(data: unknown): Checked<T> {
  if (data === DEFER) throw DEFERRED;
  return { success: true, data: data as T };
}
const GENERATED_CHECKS: Checks = {
  scalar: (key, value) => accepted(settingChecks[key]!(value)),
  matcher: (value) => accepted(matcherCheck(value)),
  sequential: (value) => accepted(sequentialCheck(value)),
  handler: (value) => accepted(handlerCheck(value)),
};

/**
 * Walks a document with the generated checks, so that valid settings never load zod; when one of them defers,
 * the document is walked again with zod's schemas, which accept it or word each problem.
 */
async function walked(origin: Origin, everyEntry: boolean, visit: (walk: Walk) => void): Promise<Walk> {
  const walk = newWalk(origin, everyEntry, GENERATED_CHECKS);
  try {
    visit(walk);
    return walk;
  } catch (error) {
    if (error !== DEFERRED) throw error;
  }
  const withZod = newWalk(origin, everyEntry, (await import('./zod-checks.ts')).ZOD_CHECKS);
  visit(withZod);
  return withZod;
}

/** The state of validating one file. */
interface Walk {
  origin: Origin;
  checks: Checks;
  everyEntry: boolean;
  hooks: LoadedHook[];
  unapplied: LoadedHook[];
  /** Above 0 while walking the inside of a dropped entry (only with `everyEntry`). */
  dropped: number;
  diagnostics: LoaderDiagnostic[];
  registrations: FollowedRegistration[];
  /** The first unloadable entry of a guard event: the file is then inapplicable. */
  brokenGuard?: { event: EventName; pointer: string };
}

export async function loadSpec(spec: SourceSpec, everyEntry = false): Promise<FileResult[]> {
  if (spec.kind === 'plugin') return loadPlugin(spec.root, everyEntry);
  const origin: Origin = { layer: spec.layer, file: spec.file };
  const read: Read = spec.kind === 'inline' ? { kind: 'text', text: spec.text } : await readText(spec.file);
  const parsed = await parseDocument(origin, read, spec.kind === 'file' && spec.required === true);
  if (!parsed.ok) return [parsed.result];
  let settings: ScalarSettings = {};
  const walk = await walked(origin, everyEntry, (walk) => {
    settings = readScalars(walk, parsed.value);
    if (parsed.value.hooks !== undefined) walkHooks(walk, parsed.value.hooks, '/hooks');
  });
  const result = await finish(walk, parsed.text, settings);
  if (spec.kind === 'file' && spec.required === true) emptyPolicy(result, parsed.text, settings, parsed.value);
  return [result];
}

/**
 * A policy the user named that holds no hooks says so: a truncated save or a full disk empties a file, and an
 * empty policy enforces nothing. Not where a finding already says why, where the file turns hooks off, nor where
 * it carries settings of its own (a file of `allowedHttpHookUrls` for another policy's http hooks is no policy).
 */
function emptyPolicy(result: FileResult, text: string, settings: ScalarSettings, value: Record<string, unknown>): void {
  if (result.hooks.length > 0 || result.unapplied.length > 0 || settings.disableAllHooks === true) return;
  if (Object.keys(value).some((key) => key !== 'hooks' && key !== '$schema')) return;
  if (result.diagnostics.some((diagnostic) => LOADER_CODES[diagnostic.code] !== 'nothing')) return;
  const file = result.report.file;
  result.diagnostics.push({
    severity: 'warning',
    code: 'policy-without-hooks',
    file,
    message: `the --settings file ${file} ${text.trim() === '' ? 'is empty' : 'holds no hooks'}: none of its policy is enforced`,
    fix: "restore the policy's hooks (a truncated save or a full disk empties a file), or stop naming the file with --settings",
  });
}

/** A plugin: hooks/hooks.json, then plugin.json `hooks` (inline, a path, or paths relative to the root). */
async function loadPlugin(root: string, everyEntry: boolean): Promise<FileResult[]> {
  const manifestFile = path.join(root, '.claude-plugin', 'plugin.json');
  const standardFile = path.join(root, 'hooks', 'hooks.json');
  const [manifestRead, standardRead] = await Promise.all([readText(manifestFile), readText(standardFile)]);
  const manifest = await parseDocument({ layer: 'plugin', file: manifestFile }, manifestRead, false);
  const name =
    manifest.ok && typeof manifest.value.name === 'string' && manifest.value.name !== ''
      ? manifest.value.name
      : path.basename(root);
  const origin = (file: string): Origin => ({ layer: 'plugin', file, pluginRoot: root, pluginName: name });
  const results = [await loadPluginHooksFile(origin(standardFile), standardRead, everyEntry)];
  if (!manifest.ok) return [...results, manifest.result];

  let refs: Array<{ file: string; pointer: string }> = [];
  const walk = await walked(origin(manifestFile), everyEntry, (walk) => {
    refs = manifestRefs(walk, manifest.value.hooks, standardFile, root);
  });
  const reads = await Promise.all(refs.map((ref) => readText(ref.file)));
  refs.forEach((ref, i) => {
    if (reads[i]!.kind === 'missing')
      add(
        walk,
        'warning',
        'file-missing',
        ref.pointer,
        `hooks file named in plugin.json does not exist: ${ref.file}`,
        'paths in plugin.json "hooks" are relative to the plugin root',
      );
  });
  const loaded = refs.map((ref, i) => loadPluginHooksFile(origin(ref.file), reads[i]!, everyEntry));
  return [...results, await finish(walk, manifest.text), ...(await Promise.all(loaded))];
}

/** The hook files plugin.json names; inline hooks are walked on the spot. */
function manifestRefs(
  walk: Walk,
  hooks: unknown,
  standardFile: string,
  root: string,
): Array<{ file: string; pointer: string }> {
  if (hooks === undefined) return [];
  if (isRecord(hooks)) {
    walkHooks(walk, hooks, '/hooks');
    return [];
  }
  const entries =
    typeof hooks === 'string'
      ? [{ value: hooks, pointer: '/hooks' }]
      : Array.isArray(hooks)
        ? hooks.map((value, i) => ({ value, pointer: `/hooks/${i}` }))
        : undefined;
  if (!entries || entries.some((entry) => typeof entry.value !== 'string')) {
    add(
      walk,
      'warning',
      'plugin-hooks-invalid',
      '/hooks',
      '"hooks" in plugin.json must be an object of hooks, a path, or an array of paths',
      'e.g. "hooks": "./config/hooks.json"',
    );
    return [];
  }
  const seen = new Set([standardFile]);
  const refs: Array<{ file: string; pointer: string }> = [];
  for (const entry of entries) {
    const file = path.resolve(root, entry.value as string);
    if (seen.has(file)) {
      add(
        walk,
        'note',
        'plugin-hooks-duplicate',
        entry.pointer,
        `${file} is already loaded; read once`,
        'remove the repeated entry (hooks/hooks.json is always loaded)',
      );
      continue;
    }
    seen.add(file);
    refs.push({ file, pointer: entry.pointer });
  }
  return refs;
}

/** A plugin hooks file, with or without the `hooks` wrapper. */
async function loadPluginHooksFile(origin: Origin, read: Read, everyEntry: boolean): Promise<FileResult> {
  const parsed = await parseDocument(origin, read, false);
  if (!parsed.ok) return parsed.result;
  const wrapped = Object.hasOwn(parsed.value, 'hooks');
  const walk = await walked(origin, everyEntry, (walk) =>
    walkHooks(
      walk,
      wrapped ? parsed.value.hooks : parsed.value,
      wrapped ? '/hooks' : '',
      wrapped ? [] : ['description'],
    ),
  );
  return await finish(walk, parsed.text);
}

/**
 * Read synchronously: a settings file is small and, once checked, a regular file; a hop through libuv's thread pool
 * per call, and starting the pool's four threads, cost a firing more than the reads themselves.
 */
async function readText(file: string): Promise<Read> {
  try {
    const read = readSettingsBytes(file);
    if ('refused' in read) return { kind: 'error', message: read.refused };
    const text = read.bytes.toString('utf8');
    return { kind: 'text', text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (error) {
    const flag = deniedPermissionFlag(error);
    if (flag) throw permissionError(`to read ${file}`, flag);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'error', message: code === 'EISDIR' ? 'it is a directory' : (error as Error).message };
  }
}

async function parseDocument(origin: Origin, read: Read, required: boolean): Promise<Parsed> {
  const fail = (status: SourceReport['status'], diagnostic?: LoaderDiagnostic): Parsed => ({
    ok: false,
    result: {
      report: { layer: origin.layer, file: origin.file, status, hooks: 0 },
      hooks: [],
      unapplied: [],
      diagnostics: diagnostic ? [diagnostic] : [],
    },
  });
  const { file } = origin;
  if (read.kind === 'missing') {
    return fail(
      'missing',
      required
        ? {
            severity: 'warning',
            code: 'file-missing',
            message: `--settings file does not exist: ${file}`,
            file,
            fix: 'give the path of a settings file, or inline JSON starting with {',
          }
        : undefined,
    );
  }
  if (read.kind === 'error') {
    return fail('invalid', {
      severity: 'warning',
      code: 'settings-unreadable',
      message: `cannot read ${file}: ${read.message}; its settings are skipped`,
      file,
      fix: 'make it a readable file (or remove it)',
    });
  }
  const { text } = read;
  // An empty file is an empty configuration, not a syntax error.
  if (text.trim() === '') return { ok: true, value: {}, text };
  const subject = file.startsWith('--settings') ? `${file} value ${JSON.stringify(clip(text))}` : file;
  const tooDeep = excessNesting(text);
  if (tooDeep !== undefined) {
    return fail('invalid', {
      severity: 'warning',
      code: 'too-deeply-nested',
      message: `${subject} nests arrays and objects more than ${MAX_NESTING} levels deep; its settings are skipped`,
      file,
      ...positionAt(text, tooDeep),
      fix: 'flatten or remove the value that goes that deep: hook settings need only a few levels',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const raw = (error as Error).message;
    const position = await syntaxErrorPosition(text, raw);
    const reason = raw.replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
    return fail('invalid', {
      severity: 'warning',
      code: 'invalid-json',
      message: `${subject} is not valid JSON (${reason}); its settings are skipped`,
      file,
      ...position,
      fix: STRICT_JSON,
    });
  }
  if (!isRecord(value)) {
    return fail('invalid', {
      severity: 'warning',
      code: 'not-an-object',
      message: `${file} must hold a JSON object; its settings are skipped`,
      file,
      line: 1,
      column: 1,
      fix: 'write { "hooks": { ... } }',
    });
  }
  return { ok: true, value, text };
}

function readScalars(walk: Walk, doc: Record<string, unknown>): ScalarSettings {
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

function walkHooks(walk: Walk, hooks: unknown, base: string, skip: readonly string[] = []): void {
  if (!isRecord(hooks)) {
    add(
      walk,
      'warning',
      'hooks-not-object',
      base,
      '"hooks" must be an object keyed by event name',
      'write "hooks": { "PreToolUse": [ {"matcher": ..., "hooks": [ ... ]} ] }',
    );
    return;
  }
  for (const [key, groups] of Object.entries(hooks)) {
    if (skip.includes(key)) continue;
    const pointer = `${base}/${escapeSegment(key)}`;
    if (!isEventName(key)) {
      const suggestion = suggestEvent(key);
      add(
        walk,
        'warning',
        'unknown-event',
        pointer,
        `unknown hook event "${key}"; entry ignored`,
        suggestion
          ? `did you mean ${suggestion}?`
          : `use one of the ${EVENT_NAMES.length} event names, e.g. PreToolUse`,
      );
      // Read as the event it was likely meant for, so that fixing the name reveals nothing new.
      if (suggestion && Array.isArray(groups))
        insideDropped(walk, () => groups.forEach((group, i) => walkGroup(walk, suggestion, group, `${pointer}/${i}`)));
    } else if (!Array.isArray(groups)) {
      unloadable(
        walk,
        key,
        pointer,
        'event-not-array',
        `"${key}" must be an array of matcher groups`,
        `write "${key}": [ {"matcher": ..., "hooks": [ ... ]} ]`,
      );
    } else {
      groups.forEach((group, i) => walkGroup(walk, key, group, `${pointer}/${i}`));
    }
  }
}

function walkGroup(walk: Walk, event: EventName, group: unknown, pointer: string): void {
  if (!isRecord(group)) {
    unloadable(
      walk,
      event,
      pointer,
      'group-not-object',
      'a matcher group must be an object',
      'write {"matcher": ..., "hooks": [ ... ]}',
    );
    return;
  }
  if (!Object.hasOwn(group, 'hooks') && (Object.hasOwn(group, 'type') || Object.hasOwn(group, 'command'))) {
    unloadable(
      walk,
      event,
      pointer,
      'handler-without-group',
      `a handler sits directly in the ${event} array, without a matcher group`,
      'wrap it: {"matcher": ..., "hooks": [ ... ]}',
    );
    insideDropped(walk, () =>
      walkHandler(walk, event, { matcher: undefined, index: groupIndexOf(pointer), sequential: false }, group, pointer),
    );
    return;
  }
  const matcher = walk.checks.matcher(group.matcher);
  if (!matcher.success) {
    unloadable(
      walk,
      event,
      `${pointer}/matcher`,
      'matcher-not-string',
      '"matcher" must be a string',
      'e.g. "matcher": "Bash" or "Edit|Write"; leave it out to match everything',
    );
    if (Array.isArray(group.hooks))
      insideDropped(walk, () =>
        walkHandlers(
          walk,
          event,
          group.hooks as unknown[],
          { matcher: undefined, index: groupIndexOf(pointer), sequential: false },
          pointer,
        ),
      );
    return;
  }
  if (!Array.isArray(group.hooks)) {
    const missing = group.hooks === undefined;
    unloadable(
      walk,
      event,
      `${pointer}/hooks`,
      missing ? 'group-hooks-missing' : 'group-hooks-not-array',
      missing ? 'matcher group has no "hooks" array' : '"hooks" of a matcher group must be an array of handlers',
      'write "hooks": [ {"type": "command", "command": "..."} ]',
    );
    // One handler written without its array.
    if (isRecord(group.hooks))
      insideDropped(walk, () =>
        walkHandler(
          walk,
          event,
          { matcher: matcher.data, index: groupIndexOf(pointer), sequential: false },
          group.hooks,
          `${pointer}/hooks`,
        ),
      );
    return;
  }
  for (const field of HANDLER_FIELDS) {
    if (Object.hasOwn(group, field))
      add(
        walk,
        'warning',
        'field-on-group',
        `${pointer}/${field}`,
        `"${field}" on a matcher group is ignored`,
        'move it into each handler of "hooks"',
      );
  }
  const sequential = walk.checks.sequential(group.sequential);
  if (!sequential.success)
    add(
      walk,
      'warning',
      'invalid-sequential',
      `${pointer}/sequential`,
      '"sequential" must be true or false; the group runs in parallel',
      'write "sequential": true',
    );
  walkHandlers(
    walk,
    event,
    group.hooks,
    { matcher: matcher.data, index: groupIndexOf(pointer), sequential: sequential.data === true },
    pointer,
  );
}

function walkHandlers(walk: Walk, event: EventName, handlers: unknown[], place: GroupPlace, pointer: string): void {
  handlers.forEach((handler, i) => walkHandler(walk, event, place, handler, `${pointer}/hooks/${i}`));
}

function groupIndexOf(pointer: string): number {
  return Number(pointer.slice(pointer.lastIndexOf('/') + 1));
}

/** Walks the inside of a dropped entry: only with `everyEntry`, and what loads there is unapplied. */
function insideDropped(walk: Walk, inside: () => void): void {
  if (!walk.everyEntry) return;
  walk.dropped++;
  inside();
  walk.dropped--;
}

/** What a handler inherits from its matcher group. */
interface GroupPlace {
  matcher: string | undefined;
  index: number;
  sequential: boolean;
}

function walkHandler(walk: Walk, event: EventName, place: GroupPlace, raw: unknown, pointer: string): void {
  const result = walk.checks.handler(withAliases(walk, raw, pointer));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const { code, message, fix } = describeIssue(issue, raw);
      unloadable(
        walk,
        event,
        pointer + issue.path.map((p) => `/${escapeSegment(String(p))}`).join(''),
        code,
        message,
        fix,
      );
    }
    return;
  }
  const handler = result.data;
  // Run, it would start this very firing again (recursion up to the depth guard's exit 1).
  // Its policy files are loaded in its place (loadSettings), with the hooks of this event, as the firing loads them.
  if (isOwnRegistration(event, handler)) {
    const followed = followedPolicies(handler);
    if ('server' in followed) {
      add(
        walk,
        'note',
        'own-registration',
        pointer,
        `peri-hooks' own registration for ${event} posts to ${followed.server}, which runs the policy it was started with: not run here`,
      );
    } else if ('policies' in followed) {
      if (walk.dropped === 0 && walk.origin.layer !== 'plugin')
        walk.registrations.push({ event, args: followed.args, pointer });
      add(
        walk,
        'note',
        'own-registration',
        pointer,
        followed.policies.length === 0
          ? `peri-hooks' own registration for ${event} runs the project's ${event} hooks, shown here as they are`
          : `peri-hooks' own registration for ${event}: its ${event} hooks in ${followed.policies.map((policy) => (policy.startsWith('$d/') ? `${policy.slice(3)} (in the project)` : policy)).join(', ')} run here, as the registration runs them`,
      );
    } else {
      add(
        walk,
        'warning',
        'registration-not-followed',
        pointer,
        `peri-hooks' own registration for ${event} is not run by peri-hooks itself, and the policy it runs cannot be read from it (${followed.why}): its hooks are not shown or run here`,
        'to run that policy, pass its files with --settings; install registers a command that can be followed',
      );
    }
    return;
  }
  if (handler.timeout !== undefined && handler.timeout >= 1000) {
    const seconds = handler.timeout / 1000;
    add(
      walk,
      'warning',
      'timeout-in-ms',
      `${pointer}/timeout`,
      `timeout is in seconds; did you mean ${seconds}?`,
      `write "timeout": ${seconds} (as written, the hook may run for ${handler.timeout} seconds, about ${(handler.timeout / 3600).toFixed(1)} hours)`,
    );
  }
  // Claude Code loads an empty required string (§5) and runs the hook, so it is kept; it just does nothing useful.
  const empty = EMPTY_CHECKED.find((field) => (handler as Record<string, unknown>)[field] === '');
  if (empty)
    add(
      walk,
      'warning',
      'empty-value',
      `${pointer}/${empty}`,
      `"${empty}" is empty; the hook still loads and runs, as in Claude Code`,
      REQUIRED_FIX[empty],
    );
  const provenance: Provenance = { ...walk.origin, pointer };
  const { matcher } = place;
  (walk.dropped > 0 ? walk.unapplied : walk.hooks).push({
    id: `${provenance.layer}:${provenance.file}#${pointer}`,
    event,
    ...(matcher === undefined ? {} : { matcher }),
    handler,
    provenance,
    groupIndex: place.index,
    ...(place.sequential ? { sequential: true } : {}),
  });
}

/** Peri's spellings become Claude Code's on a copy; the file itself is never touched. */
function withAliases(walk: Walk, raw: unknown, pointer: string): unknown {
  if (!isRecord(raw)) return raw;
  let copy: Record<string, unknown> | undefined;
  for (const [peri, claude] of Object.entries(PERI_ALIASES)) {
    if (!Object.hasOwn(raw, peri)) continue;
    if (Object.hasOwn(raw, claude)) {
      add(
        walk,
        'note',
        'peri-alias-shadowed',
        `${pointer}/${peri}`,
        `"${peri}" is ignored: "${claude}" is also set`,
        `remove "${peri}"`,
      );
      continue;
    }
    copy ??= { ...raw };
    copy[claude] = raw[peri];
    add(
      walk,
      'note',
      'peri-alias',
      `${pointer}/${peri}`,
      `"${peri}" is Peri's spelling, read as "${claude}"`,
      `rename it to "${claude}": Claude Code reads only that spelling`,
    );
  }
  return copy ?? raw;
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): { code: LoaderCode; message: string; fix?: string } {
  const handler = isRecord(raw) ? raw : undefined;
  if (!handler)
    return {
      code: 'handler-not-object',
      message: 'a hook handler must be an object',
      fix: 'write {"type": "command", "command": "..."}',
    };
  const field = issue.path.map(String).join('.');
  const value = issue.path.reduce<unknown>((at, key) => (isRecord(at) ? at[key as string] : undefined), handler);
  const type = typeof handler.type === 'string' ? handler.type : 'this';
  if (issue.code === 'invalid_union' && field === 'type') {
    if (handler.type === undefined)
      return {
        code: 'handler-missing-type',
        message: 'handler has no "type"',
        fix: `add "type": "command" (or ${HOOK_TYPES.slice(1).join(', ')})`,
      };
    const near = typeof handler.type === 'string' ? closest(handler.type, HOOK_TYPES) : undefined;
    return {
      code: 'unknown-hook-type',
      message: `Unknown hook type ${JSON.stringify(handler.type)}; entry dropped`,
      fix: near ? `did you mean "${near}"?` : `use one of: ${HOOK_TYPES.join(', ')}`,
    };
  }
  if (value === undefined)
    return {
      code: 'missing-field',
      message: `${type} hook needs "${field}"; entry dropped`,
      fix: REQUIRED_FIX[field] ?? `add "${field}"`,
    };
  if (field === 'timeout')
    return {
      code: 'invalid-timeout',
      message: `"timeout" must be a positive number of seconds, not ${JSON.stringify(value)}; entry dropped`,
      fix: 'write e.g. "timeout": 30, or leave it out for the event default',
    };
  switch (issue.code) {
    case 'invalid_type':
      return {
        code: 'wrong-type',
        message: `"${field}" must be ${issue.expected === 'array' ? 'an array' : `a ${issue.expected}`}, not ${kindOf(value)}; entry dropped`,
      };
    case 'invalid_format':
      return {
        code: 'invalid-url',
        message: `"${field}" is not a valid URL: ${JSON.stringify(shownUrl(String(value)))}; entry dropped`,
        fix: 'use an absolute URL, e.g. "https://example.com/hook"',
      };
    case 'invalid_value':
      return {
        code: 'invalid-value',
        message: `"${field}" must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}; entry dropped`,
      };
    default:
      return { code: 'invalid-handler', message: `"${field}": ${issue.message}; entry dropped` };
  }
}

/**
 * An entry that cannot be loaded: dropped, and on a guard event it makes the whole file inapplicable (§1).
 * Exactly these are the loader's errors (with the source-inapplicable summary).
 */
function unloadable(
  walk: Walk,
  event: EventName,
  pointer: string,
  code: LoaderCode,
  message: string,
  fix?: string,
): void {
  const guard = EVENTS[event].brokenEntryVoidsSource === true && walk.dropped === 0;
  if (guard) walk.brokenGuard ??= { event, pointer };
  add(walk, guard ? 'error' : 'warning', code, pointer, message, fix);
}

function add(walk: Walk, severity: Severity, code: LoaderCode, pointer: string, message: string, fix?: string): void {
  walk.diagnostics.push({
    severity,
    code,
    message,
    file: walk.origin.file,
    pointer,
    ...(fix === undefined ? {} : { fix }),
  });
}

async function finish(walk: Walk, text: string, settings?: ScalarSettings): Promise<FileResult> {
  const { origin, brokenGuard, diagnostics } = walk;
  if (diagnostics.length > 0) {
    const locate = await createLocator(text);
    for (const diagnostic of diagnostics) Object.assign(diagnostic, locate(diagnostic.pointer!));
    diagnostics.sort((a, b) => a.line! - b.line! || a.column! - b.column!);
  }
  if (brokenGuard) {
    const first = diagnostics.find((d) => d.pointer === brokenGuard.pointer)!;
    diagnostics.push({
      severity: 'error',
      code: 'source-inapplicable',
      file: origin.file,
      pointer: brokenGuard.pointer,
      line: first.line!,
      column: first.column!,
      message: `an unloadable ${brokenGuard.event} entry makes the whole source inapplicable: nothing in ${origin.file} is applied until the entry is fixed`,
      fix: `fix the ${brokenGuard.event} entry above; until then none of this file's hooks or settings apply`,
    });
  }
  const hooks = brokenGuard ? [] : walk.hooks;
  return {
    report: {
      layer: origin.layer,
      file: origin.file,
      status: brokenGuard ? 'inapplicable' : 'loaded',
      hooks: hooks.length,
    },
    hooks,
    unapplied: brokenGuard ? [...walk.hooks, ...walk.unapplied] : walk.unapplied,
    diagnostics,
    ...(brokenGuard || !settings ? {} : { settings }),
    ...(brokenGuard || walk.registrations.length === 0 ? {} : { registrations: walk.registrations }),
  };
}

function newWalk(origin: Origin, everyEntry: boolean, checks: Checks): Walk {
  return { origin, checks, everyEntry, hooks: [], unapplied: [], dropped: 0, diagnostics: [], registrations: [] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

function clip(text: string): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
