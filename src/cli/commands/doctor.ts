// `peri-hooks doctor`: ✓/!/✗ lines for people, `--output json` for machines; exit 1 when something would fail.
import pc from 'picocolors';
import { type DoctorReport, doctor } from '../../doctor/index.ts';
import { EXIT } from '../../errors.ts';
import { doctorDocumentSchema } from '../../report/documents.ts';
import { documentText } from '../../report/shape.ts';
import { type ColourChoice, list, outputForm, useColour, write } from '../io.ts';
import { type SettingsFlags, settingsLocation } from '../settings-flags.ts';

export interface DoctorFlags extends SettingsFlags {
  color?: ColourChoice;
  output?: string;
  mcpConfig?: unknown;
}

export async function doctorCommand(flags: DoctorFlags): Promise<number> {
  const output = outputForm(flags.output, 'human');
  const report = await doctor(settingsLocation(flags), list(flags.mcpConfig));
  await write(
    process.stdout,
    output === 'json'
      ? documentText(doctorDocumentSchema(), report)
      : human(report, useColour(process.stdout, flags.color)),
  );
  return report.ok ? EXIT.ok : EXIT.runnerError;
}

function human(report: DoctorReport, colour: boolean): string {
  const c = pc.createColors(colour);
  const mark = { pass: c.green('✓'), warn: c.yellow('!'), fail: c.red('✗') } as const;
  const lines = report.checks.map(
    (entry) =>
      `${mark[entry.status]} ${entry.title}: ${entry.detail}${entry.fix && entry.status !== 'pass' ? `\n  fix: ${entry.fix}` : ''}`,
  );
  const failed = report.checks.filter((entry) => entry.status === 'fail').length;
  const warned = report.checks.filter((entry) => entry.status === 'warn').length;
  const verdict =
    failed > 0
      ? c.red(`${failed} of ${report.checks.length} checks failed: the guard would not work as configured`)
      : `all ${report.checks.length} checks passed${warned > 0 ? ` (${warned} with a warning)` : ''}`;
  return `${lines.join('\n')}\n${verdict}\n`;
}
