// Timing and memory of whole processes: each run is a fresh process, the command under test alternates
// with its baseline in one loop so that drifting machine load hits both alike.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface Command {
  label: string;
  argv: string[];
  stdin?: string;
  env?: Record<string, string>;
  cwd?: string;
}

export interface Comparison {
  medianMs: number;
  baselineMedianMs: number;
  ratio: number;
  runs: number;
}

function runOnce(command: Command): number {
  const started = performance.now();
  const result = spawnSync(command.argv[0]!, command.argv.slice(1), {
    input: command.stdin ?? '',
    env: command.env ?? process.env,
    cwd: command.cwd,
    stdio: ['pipe', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const elapsed = performance.now() - started;
  if (result.error) throw new Error(`${command.label}: ${result.error.message}`);
  // Exit 2 is a block, a valid outcome for several scenarios; anything else means the setup is wrong.
  if (result.status !== 0 && result.status !== 2) {
    throw new Error(`${command.label} exited ${result.status}: ${result.stderr.toString().slice(0, 500)}`);
  }
  return elapsed;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Warm-up, then `runs` rounds of (command, baseline). */
export function compare(command: Command, baseline: Command, runs: number, warmup = 3): Comparison {
  for (let i = 0; i < warmup; i++) {
    runOnce(command);
    runOnce(baseline);
  }
  const times: number[] = [];
  const baseTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    times.push(runOnce(command));
    baseTimes.push(runOnce(baseline));
  }
  const medianMs = median(times);
  const baselineMedianMs = median(baseTimes);
  return { medianMs, baselineMedianMs, ratio: medianMs / baselineMedianMs, runs };
}

const GNU_TIME = '/usr/bin/time';

/** Peak resident set size in MB (the largest of a few runs), or undefined without GNU time. */
export function peakMemoryMB(command: Command, runs = 3): number | undefined {
  if (!existsSync(GNU_TIME)) return undefined;
  let peakKB = 0;
  for (let i = 0; i < runs; i++) {
    const result = spawnSync(GNU_TIME, ['-f', '%M', ...command.argv], {
      input: command.stdin ?? '',
      env: command.env ?? process.env,
      cwd: command.cwd,
      stdio: ['pipe', 'ignore', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
    const lines = result.stderr.toString().trim().split('\n');
    peakKB = Math.max(peakKB, Number(lines.at(-1)));
  }
  return Math.round(peakKB / 102.4) / 10;
}
