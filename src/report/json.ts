// `--output json`: the full report as a versioned document (report/document.ts), for machines. Same exit code as the default output.
import { reportDocument } from './document.ts';
import type { Rendered } from './rendered.ts';
import type { FireReport } from './types.ts';

export function renderJson(report: FireReport): Rendered {
  return { stdout: `${JSON.stringify(reportDocument(report), null, 2)}\n`, stderr: '', exitCode: report.exitCode };
}
