#!/usr/bin/env node
// Entry point of the `peri-hooks` command (the bundle, and the sources under Node or Deno). No top-level
// await: the bundle is CommonJS. The single executable starts from sea.ts instead.
import { run } from './main.ts';

run(process.argv.slice(2));
