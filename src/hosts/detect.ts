// Which agent sent a payload, when --host does not say: the host whose marker field it carries (Cursor's
// cursor_version, …). The payload is parsed, and the hosts table loaded, only when a marker's name is in it, so
// that a Claude Code firing pays nothing for the check.
import { PeriHooksError } from '../errors.ts';
import { HOST_MARKERS, HOST_NAMES, type HostName } from './types.ts';

export function checkHost(name: string): HostName {
  const known = HOST_NAMES.find((candidate) => candidate === name.toLowerCase());
  if (!known) throw new PeriHooksError('usage', `unknown --host "${name}"`, `use one of: ${HOST_NAMES.join(', ')}`);
  return known;
}

/** `given` (--host) wins; else the payload's marker; undefined for a Claude Code payload. */
export async function hostOf(given: HostName | undefined, text: string): Promise<HostName | undefined> {
  if (given) return given;
  const candidates = HOST_NAMES.filter(
    (name) => HOST_MARKERS[name] !== undefined && text.includes(`"${HOST_MARKERS[name]}"`),
  );
  if (candidates.length === 0) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  const fields = payload as Record<string, unknown>;
  const { HOSTS } = await import('./table.ts');
  // A marker is not proof on its own: Claude Code's MessageDisplay carries turn_id too. A payload whose event the
  // host does not have is not that host's.
  return candidates.find((name) => {
    const { eventField, events } = HOSTS[name];
    const event = eventField === undefined ? undefined : fields[eventField];
    return HOST_MARKERS[name]! in fields && (typeof event !== 'string' || Object.hasOwn(events, event));
  });
}
