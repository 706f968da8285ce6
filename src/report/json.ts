// `--output json`: the full report, for machines. Same exit code as the default output.
import type { FireReport } from './types.ts';
import type { Rendered } from './rendered.ts';

export function renderJson(report: FireReport): Rendered {
  return { stdout: `${JSON.stringify(report, null, 2)}\n`, stderr: '', exitCode: report.exitCode };
}
