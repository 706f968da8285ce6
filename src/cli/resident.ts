// What `serve` and `mcp` share as resident servers: the process tuned for many firings, and the fire options
// every firing of theirs takes from the command line.
import { config } from 'zod';
import type { FireOptions } from '../fire.ts';
import { useSpawner } from '../platform/spawner.ts';
import { holdYoungGeneration } from '../serve/young-generation.ts';
import { selfCommand } from './commands/fire.ts';
import { auditOption, list, type SourceFlags, type StateFlags, sourceOptions, stateOptions } from './io.ts';

export interface ResidentFlags extends SourceFlags, StateFlags {
  failClosed?: boolean;
  requireTrust?: boolean;
  mcpConfig?: unknown;
}

/** Tunes this process for a long life of firings, and returns the options every firing shares. */
export async function residentFiring(flags: ResidentFlags): Promise<FireOptions> {
  // A resident server parses the same schemas per request: zod's compiled fast path pays off here (main.ts turns it off).
  config({ jitless: false });
  // Its young generation held at its start size (serve/young-generation.ts).
  holdYoungGeneration();
  // Its hooks started by a small helper process, which forks faster than the grown server (platform/spawner.ts); ready
  // before the first request (or given up on, and the hooks spawn here).
  await useSpawner();
  return {
    ...sourceOptions(flags),
    ...(flags.mcpConfig !== undefined ? { mcpConfigs: list(flags.mcpConfig)! } : {}),
    ...(flags.failClosed ? { failClosed: true } : {}),
    ...(flags.requireTrust ? { requireTrust: true } : {}),
    ...stateOptions(flags),
    ...auditOption(flags.audit),
    selfCommand: selfCommand(),
  };
}
