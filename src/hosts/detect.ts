// Which agent sent a payload, when --host does not say: the host whose marker field it carries (Cursor's
// cursor_version, …). Only the table is loaded, and the payload is parsed only when a marker's name is in it,
// so that a Claude Code firing pays nothing for the check.
import { PeriHooksError } from '../errors.ts';
import { HOSTS } from './table.ts';
import { HOST_NAMES, type HostName } from './types.ts';

export function checkHost(name: string): HostName {
  const known = HOST_NAMES.find((candidate) => candidate === name.toLowerCase());
  if (!known) throw new PeriHooksError('usage', `unknown --host "${name}"`, `use one of: ${HOST_NAMES.join(', ')}`);
  return known;
}

/** `given` (--host) wins; else the payload's marker; undefined for a Claude Code payload. */
export function hostOf(given: HostName | undefined, text: string): HostName | undefined {
  if (given) return given;
  const candidates = HOST_NAMES.filter((name) => HOSTS[name].marker !== undefined && text.includes(`"${HOSTS[name].marker}"`));
  if (candidates.length === 0) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const fields = payload as Record<string, unknown>;
  // A marker is not proof on its own: Claude Code's MessageDisplay carries turn_id too. A payload whose event the
  // host does not have is not that host's.
  return candidates.find((name) => {
    const { marker, eventField, events } = HOSTS[name];
    const event = eventField === undefined ? undefined : fields[eventField];
    return marker! in fields && (typeof event !== 'string' || Object.hasOwn(events, event));
  });
}
