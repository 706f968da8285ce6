// `peri-hooks fire --host <agent> [<its event>]`: another agent's payload, answered in its form.
import { jsonDocument } from '../../errors.ts';
import type { FireOptions } from '../../fire.ts';
import { fireHost } from '../../hosts/fire.ts';
import type { HostName } from '../../hosts/types.ts';
import { reportDocument } from '../../report/document.ts';
import type { HostReportDocument } from '../../report/documents.ts';
import { interruptedFiring, interruptible, write } from '../io.ts';

export interface HostFireCommand {
  host: HostName;
  event?: string;
  text: string;
  source: string;
  /** `json`: the host's answer and every report, for people and tests; otherwise the host's answer (also for a
   * `claude` registration that another agent ran from Claude Code's files, e.g. Cursor's third-party toggle). */
  output: string;
  options: FireOptions;
}

export async function fireHostCommand({
  host,
  event,
  text,
  source,
  output,
  options,
}: HostFireCommand): Promise<number> {
  const {
    value: fired,
    aborted,
    by,
  } = await interruptible((signal) =>
    fireHost({ host, ...(event !== undefined ? { event } : {}), text, source, options: { ...options, signal } }),
  );
  if (aborted) throw interruptedFiring(by);
  if (output === 'json') {
    // Built without zod, as every firing is: the keys are the published schema's (a test checks them on real output).
    const document = {
      host,
      stdout: fired.stdout,
      stderr: fired.stderr,
      exitCode: fired.exitCode,
      reports: fired.reports.map(reportDocument),
    } satisfies Record<Exclude<keyof HostReportDocument, 'schemaVersion'>, unknown>;
    await write(process.stdout, jsonDocument(document));
  } else {
    await write(process.stdout, fired.stdout);
    await write(process.stderr, fired.stderr);
  }
  return fired.exitCode;
}
