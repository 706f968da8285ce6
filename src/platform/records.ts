// Plain records compared by their entries.

/** Whether `a` and `b` hold the same keys with the same values (===). */
export function sameEntries<T>(a: Readonly<Record<string, T>>, b: Readonly<Record<string, T>>): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
