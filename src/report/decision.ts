// The default output, for scripts and CI: the reduced decision as one Claude Code hook output object on
// stdout, the block reason and hook errors on stderr, exit 2 when the decision blocks.

import { line, type Rendered } from './rendered.ts';
import type { FireReport } from './types.ts';

export function renderDecision(report: FireReport): Rendered {
  const stdout = report.output ? line(JSON.stringify(report.output)) : line(report.plainText);
  const stderr = [
    ...report.errors,
    ...(report.blocked && report.reason !== undefined ? [report.reason] : []),
    ...(report.failClosed ? ['peri-hooks: blocked because of --fail-closed (a hook failed)'] : []),
  ]
    .map(line)
    .join('');
  return { stdout, stderr, exitCode: report.exitCode };
}
