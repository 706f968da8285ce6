// Path variables outside quotes in a shell command line. The shell splits an unquoted expansion on blanks,
// so `$CLAUDE_PROJECT_DIR/hooks/x.sh` breaks as soon as the project path holds a space: the hook fails
// (exit 127, a non-blocking error) and the guard it was meant to be opens.

const PATH_VARIABLE =
  /^\$(?:\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)\}|(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA)(?!\w))/;

export interface UnquotedVariable {
  /** As written, e.g. `${CLAUDE_PLUGIN_ROOT}`. */
  written: string;
  /** The unquoted word that holds it, e.g. `${CLAUDE_PLUGIN_ROOT}/hooks/x.sh`. */
  word: string;
}

/** Every path variable expanded outside single and double quotes, in order. */
export function unquotedPathVariables(command: string): UnquotedVariable[] {
  const found: UnquotedVariable[] = [];
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
    } else if (ch === '\\') {
      i++;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === '#' && (i === 0 || /\s/.test(command[i - 1]!))) {
      // A comment runs to the end of the line.
      while (i < command.length && command[i] !== '\n') i++;
    } else {
      const variable = PATH_VARIABLE.exec(command.slice(i));
      if (variable) found.push({ written: variable[0], word: wordAround(command, i) });
    }
  }
  return found;
}

/** The blank-delimited word around index i, up to a shell operator. */
function wordAround(command: string, i: number): string {
  const stop = /[\s;&|<>()]/;
  let start = i;
  while (start > 0 && !stop.test(command[start - 1]!)) start--;
  let end = i;
  while (end < command.length && !stop.test(command[end]!)) end++;
  return command.slice(start, end);
}
