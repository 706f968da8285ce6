// What a report renderer hands back to the CLI: the two streams and the exit code.
export interface Rendered {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export function line(text: string | undefined): string {
  return text === undefined || text === '' ? '' : text.endsWith('\n') ? text : `${text}\n`;
}
