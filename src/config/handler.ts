// One hook handler of a matcher group: checked, aliases read, described when it cannot load, and loaded with
// its provenance (or followed, when it is peri-hooks' own registration).
import type * as z from 'zod';
import type { EventName } from '../events.ts';
import { HOOK_TYPES } from '../generated/checks.ts';
import { closest } from '../platform/suggest.ts';
import { shownUrl } from '../text.ts';
import type { Provenance } from '../types.ts';
import type { LoaderCode } from './codes.ts';
import { escapeSegment } from './locate.ts';
import { followedPolicies, isOwnRegistration } from './registration.ts';
import { add, isRecord, kindOf, unloadable, type Walk } from './walk.ts';

/** Peri's snake_case spellings of handler fields, read as Claude Code's. */
const PERI_ALIASES: Readonly<Record<string, string>> = {
  status_message: 'statusMessage',
  allowed_env_vars: 'allowedEnvVars',
};

const REQUIRED_FIX: Readonly<Record<string, string>> = {
  command: 'add "command": "<shell command line>"',
  url: 'add "url": "https://example.com/hook"',
  prompt: 'add "prompt": "<what to check>"',
  server: 'add "server": "<connected MCP server name>"',
  tool: 'add "tool": "<tool name on that server>"',
};

/** Required string fields that Claude Code accepts empty. */
const EMPTY_CHECKED = ['command', 'prompt', 'server', 'tool'];

/** What a handler inherits from its matcher group. */
export interface GroupPlace {
  matcher: string | undefined;
  index: number;
  sequential: boolean;
}

export function walkHandler(walk: Walk, event: EventName, place: GroupPlace, raw: unknown, pointer: string): void {
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
