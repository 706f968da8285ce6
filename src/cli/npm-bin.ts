#!/usr/bin/env node
// The npm `bin` (scripts/build.ts compiles it to dist/peri-hooks.cjs for old Node versions): checks the runtime
// before the bundle is parsed, turns on Node's on-disk compile cache, then runs the bundle. The cache covers only
// modules loaded after it is on, so it cannot live inside the bundle.
import { runtimeRefusal } from '../platform/node-version.ts';

const refusal = runtimeRefusal(process.version, process.argv.slice(2));
if (refusal) {
  process.stderr.write(refusal.message);
  process.exitCode = refusal.exitCode;
} else {
  // Warm, the cache saves the ~50 ms of compiling the bundle on every firing (NODE_DISABLE_COMPILE_CACHE=1 turns it off).
  require('node:module').enableCompileCache();
  require('./peri-hooks.bundle.cjs');
}
