// What the generated checkers (src/generated/checks.ts) share: DEFER, and zod's rules for objects and records,
// written once here rather than in every generated function.

/** A checker's answer when it cannot be sure of zod's: the caller then runs the zod schema. */
export const DEFER: unique symbol = Symbol('defer to zod');
export type Checker = (value: unknown) => unknown;

/** A strict object's catchall: any other key defers. */
export const refuse: Checker = () => DEFER;

/** One key of an object schema: its name, its checker, and how its schema takes absence (zod's optin, optout). */
export type Field = readonly [key: string, check: Checker, optin?: string, optout?: string];

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** zod's isPlainObject, for JSON values; any other prototype defers. */
function isPlainRecord(v: unknown): v is Record<string | symbol, unknown> {
  if (!isObject(v)) return false;
  const prototype = Object.getPrototypeOf(v);
  return prototype === Object.prototype || prototype === null;
}

/** zod's object parse: the shape's keys in order, then (with a catchall) the other keys in input order. */
export function object(v: unknown, fields: readonly Field[], catchall?: Checker): unknown {
  if (!isObject(v)) return DEFER;
  const out: Record<string, unknown> = {};
  for (const [key, check, optin, optout] of fields) if (!field(v, out, key, check, optin, optout)) return DEFER;
  if (!catchall) return out;
  for (const key in v) {
    if (key === '__proto__' || fields.some(([known]) => known === key)) continue;
    const r = catchall(v[key]);
    if (r === DEFER) return DEFER;
    out[key] = r;
  }
  return out;
}

/** zod's array parse: each element's value, in order. */
export function array(v: unknown, check: Checker): unknown {
  if (!Array.isArray(v)) return DEFER;
  const out: unknown[] = [];
  for (const item of v as unknown[]) {
    const r = check(item);
    if (r === DEFER) return DEFER;
    out.push(r);
  }
  return out;
}

/** zod's record parse with string keys: every own enumerable key but __proto__, in order; a symbol key defers. */
export function record(v: unknown, check: Checker): unknown {
  if (!isPlainRecord(v)) return DEFER;
  const out: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(v)) {
    if (typeof key !== 'string') return DEFER;
    if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(v, key)) continue;
    const r = check(v[key]);
    if (r === DEFER) return DEFER;
    out[key] = r;
  }
  return out;
}

/** One key of an object, as zod's handlePropertyResult treats it; false: defer. */
function field(
  v: Record<string, unknown>,
  out: Record<string, unknown>,
  key: string,
  check: Checker,
  optin: string | undefined,
  optout: string | undefined,
): boolean {
  const present = key in v;
  if (!present && optout === 'optional' && optin === 'optional') return true;
  if (!present && optin === undefined) return false;
  const r = check(v[key]);
  if (r === DEFER) return optin !== undefined && optout === 'optional' && !present;
  if (r !== undefined) out[key] = r;
  else if (present || (optin === 'defaulted' && optout !== 'optional')) out[key] = undefined;
  return true;
}
