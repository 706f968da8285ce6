// shaped(): a value in its schema's shape, whatever order and gaps it came with.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as z from 'zod';
import { documentText, shaped } from '../../src/report/shape.ts';

const entry = z.strictObject({ name: z.string(), note: z.string().nullable() });
const schema = z.strictObject({
  schemaVersion: z.literal(1),
  title: z.string(),
  missing: z.string().nullable(),
  list: z.array(entry),
  byName: z.record(z.string(), entry),
  anything: z.unknown(),
  either: z
    .union([
      z.strictObject({ a: z.int(), a2: z.int().nullable() }),
      z.strictObject({ b: z.int(), b2: z.int().nullable() }),
    ])
    .nullable(),
});

test("keys in the schema's order, null and [] where the value has none, unknown keys left out", () => {
  const value = {
    byName: { x: { note: 'n', name: 'x' } },
    title: 't',
    schemaVersion: 1 as const,
    internal: true,
  } as Parameters<typeof shaped<typeof schema>>[1];
  const result = shaped(schema, value);
  assert.deepEqual(Object.keys(result), ['schemaVersion', 'title', 'missing', 'list', 'byName', 'anything', 'either']);
  assert.deepEqual(result, {
    schemaVersion: 1,
    title: 't',
    missing: null,
    list: [],
    byName: { x: { name: 'x', note: 'n' } },
    anything: null,
    either: null,
  });
  assert.deepEqual(Object.keys(result.byName.x!), ['name', 'note']);
});

test("inside arrays and unions: each item in its own branch's shape", () => {
  const result = shaped(schema, { schemaVersion: 1, title: 't', list: [{ name: 'a' }], byName: {}, either: { b: 2 } });
  assert.deepEqual(result.list, [{ name: 'a', note: null }]);
  assert.deepEqual(result.either, { b: 2, b2: null });
  assert.deepEqual(shaped(schema, { schemaVersion: 1, title: 't', byName: {}, either: { a: 1 } }).either, {
    a: 1,
    a2: null,
  });
});

test('documentText: schemaVersion first, two-space JSON with a final newline', () => {
  const text = documentText(schema, { title: 't', byName: {} });
  assert.equal(
    text,
    `${JSON.stringify({ schemaVersion: 1, title: 't', missing: null, list: [], byName: {}, anything: null, either: null }, null, 2)}\n`,
  );
});
