// Writes the library's declaration files (dist/types, the `types` of package.json) from the sources, after
// removing the old ones so that a deleted module leaves no stale .d.ts in the package.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}dist/types`, { recursive: true, force: true });
execFileSync(`${root}node_modules/.bin/tsc`, ['-p', `${root}tsconfig.types.json`], { stdio: 'inherit' });
