// GitHub Actions workflow commands (`::error file=…,line=…::message`), with GitHub's escaping: `%`, CR and LF
// in the message; also `:` and `,` in property values. Shared by `test --reporter github` and `validate`.

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export function workflowCommand(
  level: AnnotationLevel,
  properties: Readonly<Record<string, string | number>>,
  message: string,
): string {
  const list = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${level}${list ? ` ${list}` : ''}::${escapeData(message)}`;
}

function escapeData(value: string): string {
  return value.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(value: string): string {
  return escapeData(value).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/** The workflow-command lines of a github report, without its summary: what goes beside another report. */
export function workflowLines(report: string): string {
  const lines = report.split('\n').filter((line) => line.startsWith('::'));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
