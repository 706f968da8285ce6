// A command's JSON document, built from its published zod schema: the schema's keys in the schema's order, null
// (or [] for a list) where the value has nothing, so that a script reads the same keys whatever happened. Keys
// the schema does not name are left out: the schema is the contract, and the builder cannot drift from it.
import * as z from 'zod';
import { SCHEMA_VERSION } from '../errors.ts';

type Absent<T> = null extends T ? true : T extends readonly unknown[] ? true : false;

/** What a builder passes: the document's shape, where a nullable key or a list may also be left out. */
export type Loose<T> = T extends readonly (infer E)[]
  ? ReadonlyArray<Loose<E>>
  : T extends object
    ? { [K in keyof T as Absent<T[K]> extends true ? never : K]: Loose<T[K]> } & {
        [K in keyof T as Absent<T[K]> extends true ? K : never]?: Loose<T[K]> | undefined;
      }
    : T;

/** The value in the schema's shape: keys in order, absent ones null or []. */
export function shaped<S extends z.ZodType>(schema: S, value: Loose<z.output<S>>): z.output<S> {
  return shape(schema, value) as z.output<S>;
}

/** The document as a command prints it: schemaVersion first (the schema's first key), two-space indented. */
export function documentText<S extends z.ZodObject>(
  schema: S,
  value: Omit<Loose<z.output<S>>, 'schemaVersion'>,
): string {
  return `${JSON.stringify(shape(schema, { schemaVersion: SCHEMA_VERSION, ...value }), null, 2)}\n`;
}

function shape(schema: z.ZodType, value: unknown): unknown {
  // Any value goes (a failed expectation's `expected`), but the key must not vanish from the JSON.
  if (schema instanceof z.ZodUnknown) return value ?? null;
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) {
    return value === undefined || value === null
      ? schema instanceof z.ZodNullable
        ? null
        : undefined
      : shape(schema.unwrap() as z.ZodType, value);
  }
  if (schema instanceof z.ZodArray)
    return ((value ?? []) as unknown[]).map((item) => shape(schema.element as z.ZodType, item));
  if (value === null || typeof value !== 'object') return value;
  if (schema instanceof z.ZodObject) {
    const source = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, inner]) => [key, shape(inner, source[key])]),
    );
  }
  if (schema instanceof z.ZodRecord) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, shape(schema.valueType as z.ZodType, inner)]),
    );
  }
  if (schema instanceof z.ZodUnion) return shape(branchOf(schema.options as readonly z.ZodType[], value), value);
  return value;
}

/** The object branch that names every key of the value (replay's firing or plan), else the value is left as it is. */
function branchOf(options: readonly z.ZodType[], value: object): z.ZodType {
  const keys = Object.entries(value).flatMap(([key, inner]) => (inner === undefined ? [] : [key]));
  return (
    options.find((option) => option instanceof z.ZodObject && keys.every((key) => key in option.shape)) ?? z.unknown()
  );
}
