// `peri-hooks validate`: every source fire would read, checked without running anything. Exit 0 clean, 1 with errors.
import { EXIT } from '../../errors.ts';
import { sourcesToLoad } from '../../config/sources.ts';
import { validate, type ValidateReport } from '../../validate/index.ts';
import { outputForm, sourceOptions, write, type SourceFlags } from '../io.ts';
import { formatDiagnostic, table } from '../../text.ts';

export interface ValidateFlags extends SourceFlags {
  output?: string;
  strict?: boolean;
}

export async function validateCommand(flags: ValidateFlags): Promise<number> {
  const output = outputForm(flags.output, 'human');
  const report = await validate(sourcesToLoad(sourceOptions(flags), process.cwd()), flags.strict === true);
  await write(process.stdout, output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : human(report));
  return report.ok ? EXIT.ok : EXIT.runnerError;
}

function human(report: ValidateReport): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const diagnostics = report.diagnostics.map((d) => `${formatDiagnostic(d, '')}\n${d.makesSourceInapplicable ? '  makes the file inapplicable: none of its hooks or settings apply until this is fixed\n' : ''}`).join('');
  const sources = table(report.sources.map((s) => [`  ${s.layer}`, s.file, s.status === 'loaded' ? plural(s.hooks, 'hook') : s.status]));
  const verdict = `${report.ok ? 'ok' : 'failed'}: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}, ${plural(report.notes, 'note')}`;
  return `${diagnostics}${diagnostics ? '\n' : ''}sources:\n${sources}\n${verdict}\n`;
}
