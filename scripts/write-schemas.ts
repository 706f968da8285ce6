// Writes schema/ from the zod schemas (src/cli/schema-export.ts); test/e2e/schema.test.ts fails when it is stale.
// The first time a schemaVersion is published, it also freezes that version's contract outline.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaFiles, serialise } from '../src/cli/schema-export.ts';
import { SCHEMA_VERSION } from '../src/errors.ts';
import { contractFile, contractOutline } from './contract-outline.ts';

const root = fileURLToPath(new URL('../schema', import.meta.url));
rmSync(root, { recursive: true, force: true });
for (const [name, schema] of Object.entries(schemaFiles())) {
  const file = path.join(root, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, serialise(schema));
}
console.log(`scripts/write-schemas.ts: wrote ${Object.keys(schemaFiles()).length} files under schema/`);

const frozen = fileURLToPath(new URL(`../${contractFile(SCHEMA_VERSION)}`, import.meta.url));
if (!existsSync(frozen)) {
  mkdirSync(path.dirname(frozen), { recursive: true });
  writeFileSync(frozen, `${JSON.stringify(contractOutline(), null, 2)}\n`);
  console.log(
    `scripts/write-schemas.ts: froze the outline of schemaVersion ${SCHEMA_VERSION} in ${contractFile(SCHEMA_VERSION)}`,
  );
}
