// The JSON contract's outline: every object's keys and every enum's values in each published document, by
// JSON path. Within one schemaVersion a release may only add to it (docs/reference/json-contract.md): the outline
// of each version is frozen in fixtures/json-contract/ when the version is first published, and
// test/e2e/json-documents.test.ts checks every later schema against it.

import { documentJsonSchema } from '../src/cli/schema-export.ts';
import { DOCUMENT_NAMES } from '../src/report/document.ts';

type Node = {
  properties?: Record<string, Node>;
  items?: Node;
  additionalProperties?: Node | boolean;
  anyOf?: Node[];
  enum?: unknown[];
};

export function contractOutline(): Record<string, string[]> {
  const outline: Record<string, string[]> = {};
  const walk = (node: Node, path: string): void => {
    if (node.properties) {
      outline[`${path} keys`] = Object.keys(node.properties);
      for (const [key, inner] of Object.entries(node.properties)) walk(inner, `${path}/${key}`);
    }
    if (node.enum) outline[`${path} values`] = node.enum.map(String);
    if (node.items) walk(node.items, `${path}/*`);
    if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${path}/{}`);
    for (const [index, branch] of (node.anyOf ?? []).entries()) walk(branch, `${path}|${index}`);
  };
  for (const name of DOCUMENT_NAMES) walk(documentJsonSchema(name) as Node, name);
  return outline;
}

export const contractFile = (version: number) => `fixtures/json-contract/v${version}.json`;
