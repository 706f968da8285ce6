// How the single executable runs its code: the bundle and each package that only some firings need are SEA
// assets, each compiled with the V8 code cache that the build took after running it (scripts/build-sea.ts), so
// that their functions start compiled.
import { Buffer } from 'node:buffer';
import { getRawAsset } from 'node:sea';
import { Script } from 'node:vm';

/** The bundle's name in stack traces, and its asset's. */
export const BUNDLE_ASSET = 'peri-hooks.cjs';

/** The asset that holds the code cache of the asset `name`. */
export const cacheAssetName = (name: string) => `${name}.code-cache`;

/** A CommonJS source as a module function; the same source text at build and at run time, or V8 rejects the cache. */
export function moduleScript(name: string, source: string, cachedData?: Buffer): Script {
  // bin.ts's `#!` line is a comment here: a function body cannot start with one.
  const body = source.startsWith('#!') ? `//${source.slice(2)}` : source;
  return new Script(`(function (exports, require, module, __filename, __dirname) {${body}\n})`, {
    filename: name,
    ...(cachedData ? { cachedData } : {}),
  });
}

/** Runs the module and returns its exports; `load` is the `require` it gets (the bundles need only Node's own modules). */
export function runModule(name: string, script: Script, load: NodeJS.Require): unknown {
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, load, module, name, '.');
  return module.exports;
}

/**
 * The exports of the SEA asset `name`, compiled with its code cache. Read from the raw assets: getAsset would copy
 * the cache and decode the source with a TextDecoder. The build keeps every asset ASCII, which latin1 reads as it is.
 */
export function assetModule(name: string, load: NodeJS.Require): unknown {
  const source = Buffer.from(getRawAsset(name)).toString('latin1');
  return runModule(name, moduleScript(name, source, Buffer.from(getRawAsset(cacheAssetName(name)))), load);
}
