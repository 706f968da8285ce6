// The matcher groups of one event in a settings file, as install, uninstall and doctor see them: which handlers
// are peri-hooks' own registration, and whether the group holds hooks of its own.
import { isOwnRegistration } from '../config/registration.ts';
import { PeriHooksError } from '../errors.ts';
import { EVENT_NAMES, type EventName } from '../events.ts';
import { append, child, type Node, nodeValue } from './jsonc-edit.ts';

export interface GroupView {
  node: Node;
  value: unknown;
  /** Indexes of the handlers that are peri-hooks' registration for this event. */
  ours: number[];
  /** The group holds something else: another handler, or anything that is not a matcher group. */
  own: boolean;
}

/** The groups of `event` in the file's tree, in order; [] when the event has none. */
export function eventGroups(file: string, root: Node, event: EventName): GroupView[] {
  const hooks = child(root, 'hooks');
  if (hooks !== undefined && hooks.type !== 'object') {
    throw new PeriHooksError(
      'usage',
      `"hooks" in ${file} is not an object keyed by event name; nothing was changed`,
      'fix it first (peri-hooks validate shows where)',
    );
  }
  const array = child(hooks, event);
  if (array === undefined) return [];
  if (array.type !== 'array') {
    throw new PeriHooksError(
      'usage',
      `"hooks.${event}" in ${file} is not an array of matcher groups; nothing was changed`,
      'fix it first (peri-hooks validate shows where)',
    );
  }
  return (array.children ?? []).map((node) => {
    const value = nodeValue(node);
    const handlers = isRecord(value) && Array.isArray(value.hooks) ? value.hooks : undefined;
    if (!handlers) return { node, value, ours: [], own: true };
    const ours = handlers.flatMap((handler, i) =>
      isRecord(handler) && isOwnRegistration(event, handler as { type: string }) ? [i] : [],
    );
    return { node, value, ours, own: ours.length < handlers.length };
  });
}

/** The events under `hooks`, in the catalogue's order (unknown keys are not events). */
export function eventsIn(root: Node): EventName[] {
  const hooks = child(root, 'hooks');
  const keys = new Set(
    (hooks?.type === 'object' ? (hooks.children ?? []) : []).map((property) => property.children?.[0]?.value),
  );
  return EVENT_NAMES.filter((event) => keys.has(event));
}

/** `group` as the last matcher group of `event`, creating `hooks` and the event's array where missing. */
export function appendGroup(text: string, root: Node, event: EventName, group: unknown): string {
  const hooks = child(root, 'hooks');
  if (hooks === undefined) return append(text, root, { [event]: [group] }, 'hooks');
  const array = child(hooks, event);
  return array === undefined ? append(text, hooks, [group], event) : append(text, array, group);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
