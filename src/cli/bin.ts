#!/usr/bin/env node
// Entry point of the `peri-hooks` command. No top-level await: the bundle is CommonJS for the Node SEA.
import { main } from './main.ts';

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    process.stderr.write(`peri-hooks: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
