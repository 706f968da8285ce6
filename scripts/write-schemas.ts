// Writes schema/ from the zod schemas (src/schema-export.ts); test/e2e/schema.test.ts fails when it is stale.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaFiles, serialise } from '../src/schema-export.ts';

const root = fileURLToPath(new URL('../schema', import.meta.url));
rmSync(root, { recursive: true, force: true });
for (const [name, schema] of Object.entries(schemaFiles())) {
  const file = path.join(root, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, serialise(schema));
}
console.log(`scripts/write-schemas.ts: wrote ${Object.keys(schemaFiles()).length} files under schema/`);
