// What a registration starts: the fastest peri-hooks present, by absolute path. The single binary when it is
// there and answers with this version, else this Node and the npm bin (never npx: it costs about a second per
// firing, most of SessionEnd's 1.5 s budget).
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { PeriHooksError } from '../errors.ts';
import { MINIMUM_NODE, runtimeRefusal } from '../platform/node-version.ts';
import { VERSION } from '../platform/version.ts';

export interface Artefact {
  /** The words that start peri-hooks. */
  runner: string[];
  /** Which artefact it is, for people. */
  description: string;
}

/** How long a `--version` may take before the artefact counts as not running. */
const PROBE_TIMEOUT_MS = 10_000;

export function fastestArtefact(): Artefact {
  // Synchronous, and loads nothing: process.getBuiltinModule answers undefined where there is no node:sea (Deno).
  if (process.getBuiltinModule?.('node:sea')?.isSea())
    return { runner: [process.execPath], description: `the single binary ${process.execPath}` };
  const dist = distDir(process.argv[1] ?? '');
  const binary = path.join(dist, 'peri-hooks');
  const bin = path.join(dist, 'peri-hooks.cjs');
  const probe = existsSync(binary) ? probeBinary(binary) : undefined;
  if (probe === VERSION) return { runner: [binary], description: `the single binary ${binary}` };
  const skipped = probe === undefined ? '' : `; ${binary} was not used: ${probe}`;
  if (!existsSync(bin)) {
    throw new PeriHooksError(
      'usage',
      `there is no built peri-hooks in ${dist} to register (neither peri-hooks nor peri-hooks.cjs)`,
      'run npm run build in the peri-hooks folder first',
    );
  }
  if ('Deno' in globalThis || runtimeRefusal(process.version, []) !== undefined) {
    throw new PeriHooksError(
      'usage',
      `install registers Node and ${bin}, but this runtime is not Node >= ${MINIMUM_NODE.major}.${MINIMUM_NODE.minor}${skipped}`,
      `run install with Node: node ${bin} install ...`,
    );
  }
  return {
    runner: [process.execPath, bin],
    description: `Node ${process.version} (${process.execPath}) running ${bin}${skipped}`,
  };
}

/** The folder of the built artefacts: the bin's own folder, or a checkout's dist/ when the sources run. */
function distDir(script: string): string {
  const real = existsSync(script) ? realpathSync(script) : path.resolve(script);
  const sources = path.join('src', 'cli', 'bin.ts');
  return real.endsWith(path.sep + sources) ? path.join(real.slice(0, -sources.length), 'dist') : path.dirname(real);
}

/** The binary's version, or why it cannot be used. */
function probeBinary(binary: string): string {
  const probe = artefactVersion([binary]);
  if ('error' in probe) return probe.error;
  return probe.version === VERSION ? probe.version : `it is version ${probe.version}, not ${VERSION}`;
}

/** The version the peri-hooks that `runner` starts reports (`peri-hooks/0.1.0 linux-x64 node-v24.21.0`), or why it did not. */
export function artefactVersion(runner: readonly string[]): { version: string } | { error: string } {
  const result = spawnSync(runner[0]!, [...runner.slice(1), '--version'], {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
  });
  if (result.error)
    return { error: `it does not start (${(result.error as NodeJS.ErrnoException).code ?? result.error.message})` };
  if (result.status !== 0)
    return {
      error: `--version exited ${result.status ?? result.signal}${result.stderr.trim() ? `: ${result.stderr.trim()}` : ''}`,
    };
  const printed = result.stdout.trim();
  return { version: /^peri-hooks\/(\S+)/.exec(printed)?.[1] ?? (printed || '(none)') };
}
