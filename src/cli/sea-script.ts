// How the single executable runs its bundle: compiled from a SEA asset with the V8 code cache that the build
// took after a warm-up firing (scripts/build-sea.ts), so that the fire path's functions start compiled.
import { Script } from 'node:vm';

/** The bundle's name in stack traces, and its asset's. */
export const BUNDLE_ASSET = 'peri-hooks.cjs';
export const CACHE_ASSET = 'peri-hooks.code-cache';

/** The bundle as a CommonJS module function; the same source text at build and at run time, or V8 rejects the cache. */
export function bundleScript(source: string, cachedData?: Buffer): Script {
  // bin.ts's `#!` line is a comment here: a function body cannot start with one.
  const body = source.startsWith('#!') ? `//${source.slice(2)}` : source;
  return new Script(`(function (exports, require, module, __filename, __dirname) {${body}\n})`, { filename: BUNDLE_ASSET, ...(cachedData ? { cachedData } : {}) });
}

export function runBundle(script: Script, load: NodeJS.Require): void {
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, load, module, BUNDLE_ASSET, '.');
}
