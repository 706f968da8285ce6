// The `hooks` object of a document: events, then their matcher groups (a bad group or handler costs only itself,
// except on guard events, where it makes its whole file inapplicable).
import { EVENT_NAMES, type EventName, isEventName, suggestEvent } from '../events.ts';
import { type GroupPlace, walkHandler } from './handler.ts';
import { escapeSegment } from './locate.ts';
import { add, insideDropped, isRecord, unloadable, type Walk } from './walk.ts';

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

export function walkHooks(walk: Walk, hooks: unknown, base: string, skip: readonly string[] = []): void {
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
        insideDropped(walk, () => {
          for (const [i, group] of groups.entries()) walkGroup(walk, suggestion, group, `${pointer}/${i}`);
        });
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
      for (const [i, group] of groups.entries()) walkGroup(walk, key, group, `${pointer}/${i}`);
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
  for (const [i, handler] of handlers.entries()) walkHandler(walk, event, place, handler, `${pointer}/hooks/${i}`);
}

function groupIndexOf(pointer: string): number {
  return Number(pointer.slice(pointer.lastIndexOf('/') + 1));
}
