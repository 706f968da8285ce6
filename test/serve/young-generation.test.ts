// serve holds V8's young generation at its start size (RSS growth, bench row 9): a Node process that allocates
// with survivors widens its new space many times over, and one that called holdYoungGeneration first does not.
// V8 ignores a flag it does not know, so this is what tells whether the flag still works.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const MODULE = fileURLToPath(new URL('../../src/serve/young-generation.ts', import.meta.url));

/** The largest new space, in MB, that a child process reaches while it allocates with some objects surviving. */
function largestNewSpaceMB(hold: boolean): number {
  const script = `
    import v8 from 'node:v8';
    import { holdYoungGeneration } from ${JSON.stringify(MODULE)};
    if (${hold}) holdYoungGeneration();
    const newSpace = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
    let largest = newSpace();
    let kept = [];
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 200000; i++) {
        kept.push({ name: 'x' + i, values: [i, i + 1] });
        if (kept.length > 20000) kept = [];
      }
      largest = Math.max(largest, newSpace());
    }
    console.log(largest / 1048576);
  `;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

test('holdYoungGeneration keeps the new space at its start size, where V8 otherwise widens it', () => {
  const held = largestNewSpaceMB(true);
  const free = largestNewSpaceMB(false);
  // Held, V8 still resizes the new space a little (2 to 9 MB seen); free, it reaches 128 MB.
  assert.ok(free >= 32, `without the hold the new space grows (to ${free} MB)`);
  assert.ok(held <= 16 && held * 4 <= free, `with the hold it stays small (${held} MB against ${free} MB)`);
});
