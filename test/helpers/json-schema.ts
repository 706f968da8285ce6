// JSON checked against a JSON Schema as other tools check it, with ajv (every error at once): a peri-hooks
// document against its committed schema/<name>.schema.json (2020-12), with every object's keys in the schema's
// order, and a SARIF log against the draft-04 SARIF schema.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { ROOT } from './cli.ts';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
};

export function publishedSchema(name: string): Schema & { required?: string[] } {
  return JSON.parse(readFileSync(join(ROOT, 'schema', `${name}.schema.json`), 'utf8'));
}

/** A validator: the ajv errors, [] when the value is valid. Draft 04 with formats is SARIF's. */
export function schemaValidator(schema: object, draft: '2020-12' | '04' = '2020-12'): (value: unknown) => string[] {
  // SARIF's language pattern is not valid in unicode mode (a stray ]).
  const ajv =
    draft === '04'
      ? addFormats.default(new Ajv04.default({ allErrors: true, strict: false, unicodeRegExp: false }))
      : new Ajv2020.default({ allErrors: true, strict: false });
  const check = ajv.compile(schema);
  return (value) =>
    check(value) ? [] : (check.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}

/** A validator of one published document. */
export function documentValidator(name: string): (value: unknown) => string[] {
  return schemaValidator(publishedSchema(name));
}

/** Valid against the published schema, and every object's keys exactly the schema's, in its order. */
export function assertDocument(name: string, document: unknown): void {
  assert.deepEqual(documentValidator(name)(document), [], `${name}: valid against schema/${name}.schema.json`);
  assertKeyOrder(publishedSchema(name), document, name);
}

function assertKeyOrder(schema: Schema, value: unknown, path: string): void {
  if (value === null || typeof value !== 'object') return;
  if (schema.anyOf) {
    const branch = branches(schema).find((option) =>
      Array.isArray(value)
        ? option.type === 'array'
        : option.type === 'object' &&
          (!option.properties || Object.keys(value).every((key) => key in option.properties!)),
    );
    assert.ok(branch, `${path}: no branch of the schema fits`);
    assertKeyOrder(branch, value, path);
    return;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries())
      if (schema.items) assertKeyOrder(schema.items, item, `${path}/${index}`);
    return;
  }
  const entries = Object.entries(value);
  if (schema.properties) {
    assert.deepEqual(
      entries.map(([key]) => key),
      Object.keys(schema.properties),
      `${path}: every key, in the schema's order`,
    );
    for (const [key, inner] of entries) assertKeyOrder(schema.properties[key]!, inner, `${path}/${key}`);
  } else if (typeof schema.additionalProperties === 'object') {
    for (const [key, inner] of entries) assertKeyOrder(schema.additionalProperties, inner, `${path}/${key}`);
  }
}

/** The alternatives of an anyOf, a nullable union's included. */
function branches(schema: Schema): Schema[] {
  return schema.anyOf ? schema.anyOf.flatMap(branches) : [schema];
}
