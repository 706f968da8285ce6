// A node:test reporter that prints, after the run, how long the suite took and its slowest files (the time from a
// file's process start to its end, and when in the run it ended), so that a slow file is named where it is added,
// and one that ends the run late is seen. Used next to the spec reporter.
import type { TestEvent } from 'node:test/reporters';

/** Files slower than this are named; at least the ten slowest are shown. */
const SLOW_MS = 5_000;
const SHOWN = 10;

export default async function* durations(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const started = performance.now();
  const files = new Map<string, { ms: number; endedS: number }>();
  for await (const event of source) {
    // With process isolation each file is a top-level test named after its path (relative under `node --test`,
    // whole as scripts/test.ts gives it to run()).
    if (event.type !== 'test:complete') continue;
    const { data } = event;
    if (data.nesting !== 0 || data.file === undefined) continue;
    if (data.name !== data.file && data.name !== relativeName(data.file)) continue;
    files.set(data.file, { ms: data.details.duration_ms, endedS: (performance.now() - started) / 1000 });
  }
  const wall = (performance.now() - started) / 1000;
  const sorted = [...files].sort((a, b) => b[1].ms - a[1].ms);
  const shown = sorted.filter(([, { ms }], index) => index < SHOWN || ms >= SLOW_MS);
  yield `\nsuite: ${files.size} files in ${wall.toFixed(1)} s; slowest files:\n`;
  for (const [file, { ms, endedS }] of shown)
    yield `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${relativeName(file)}  (ended at ${endedS.toFixed(0)} s)\n`;
}

function relativeName(file: string): string {
  const cwd = `${process.cwd()}/`;
  return file.startsWith(cwd) ? file.slice(cwd.length) : file;
}
