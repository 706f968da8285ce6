// `${VAR}` and `${VAR:-default}` in MCP server entries (command, args, env, url, headers), as Claude Code
// expands them. A variable that is unset and has no default stays as written, and is reported.
const REFERENCE = /\$\{([^}:]+)(?::-([^}]*))?\}/g;

export interface Expanded<T> {
  value: T;
  /** Variables that were unset and had no default. */
  missing: string[];
}

function expandString(text: string, env: Record<string, string | undefined>, missing: Set<string>): string {
  return text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return whole;
  });
}

/** Every string in `value` (arrays and object values, not keys) expanded. */
export function expandAll<T>(value: T, env: Record<string, string | undefined>): Expanded<T> {
  const missing = new Set<string>();
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return expandString(item, env, missing);
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === 'object')
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
    return item;
  };
  return { value: walk(value) as T, missing: [...missing] };
}
