// `peri-hooks validate`: every source fire would read, checked without running anything. Exit 0 clean, 1 with errors.

import { sourcesToLoad } from '../../config/sources.ts';
import { EXIT, PeriHooksError } from '../../errors.ts';
import { validateDocumentSchema } from '../../report/documents.ts';
import { documentText } from '../../report/shape.ts';
import { workflowLines } from '../../report/workflow-command.ts';
import { counted, formatDiagnostic, table } from '../../text.ts';
import { type ValidateReport, validate } from '../../validate/index.ts';
import { renderGithub, renderSarif, verdict } from '../../validate/reporters.ts';
import { list, oneOf, outputForm, type SourceFlags, sourceOptions, write } from '../io.ts';

export interface ValidateFlags extends SourceFlags {
  output?: string;
  reporter?: unknown;
  strict?: boolean;
  mcpConfig?: unknown;
}

const REPORTERS = ['github', 'sarif'] as const;

export async function validateCommand(flags: ValidateFlags): Promise<number> {
  const reporter = reporterOf(flags);
  const output = outputForm(flags.output, 'human');
  const report = await validate(
    sourcesToLoad(sourceOptions(flags), process.cwd()),
    flags.strict === true,
    list(flags.mcpConfig),
  );
  const text =
    reporter === 'github'
      ? renderGithub(report, process.cwd())
      : reporter === 'sarif'
        ? renderSarif(report, process.cwd())
        : output === 'json'
          ? json(report)
          : human(report);
  await write(process.stdout, text);
  // In GitHub Actions the annotations come as well, as vitest's do: after a human report, else on stderr.
  if (reporter !== 'github' && process.env.GITHUB_ACTIONS === 'true') {
    const annotations = workflowLines(renderGithub(report, process.cwd()));
    if (annotations !== '')
      await write(reporter === undefined && output !== 'json' ? process.stdout : process.stderr, annotations);
  }
  return report.ok ? EXIT.ok : EXIT.runnerError;
}

function reporterOf(flags: ValidateFlags): (typeof REPORTERS)[number] | undefined {
  const given = [flags.reporter]
    .flat()
    .filter((value) => value !== undefined)
    .map(String);
  if (given.length > 1)
    throw new PeriHooksError(
      'usage',
      `--reporter given ${given.length} times`,
      `validate writes one form: give one of ${REPORTERS.join(', ')}`,
    );
  if (given.length === 1 && flags.output !== undefined)
    throw new PeriHooksError('usage', '--reporter and --output both choose the form of the report', 'give one of them');
  return given.length === 0 ? undefined : oneOf('--reporter', given[0], REPORTERS, 'github');
}

function json(report: ValidateReport): string {
  return documentText(validateDocumentSchema(), {
    ...report,
    diagnostics: report.diagnostics.map((d) => ({ ...d, makesSourceInapplicable: d.makesSourceInapplicable === true })),
  });
}

function human(report: ValidateReport): string {
  const diagnostics = report.diagnostics
    .map(
      (d) =>
        `${formatDiagnostic(d, '')}\n${d.makesSourceInapplicable ? '  makes the file inapplicable: none of its hooks or settings apply until this is fixed\n' : ''}`,
    )
    .join('');
  const sources = table(
    report.sources.map((s) => [`  ${s.layer}`, s.file, s.status === 'loaded' ? counted(s.hooks, 'hook') : s.status]),
  );
  return `${diagnostics}${diagnostics ? '\n' : ''}sources:\n${sources}\n${verdict(report)}\n`;
}
