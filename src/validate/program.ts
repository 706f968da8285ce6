// Will the program of a command hook start? Shell form: its first word, when that word is a path (a bare
// name may be a shell builtin or a function), or the script an interpreter is given (`bash ./x.sh`,
// `python3 "$CLAUDE_PROJECT_DIR"/x.py`). Exec form: `command` itself, looked up on PATH as Claude Code
// does (§5.2). Paths are resolved against the project dir, where hooks normally run.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CommandHook } from '../config/schema.ts';

export interface ProgramContext {
  projectDir: string;
  home: string;
  env: Record<string, string | undefined>;
  pluginRoot?: string;
}

export interface ProgramProblem {
  code: 'program-not-found' | 'program-not-executable';
  message: string;
  fix: string;
}

/** Interpreters whose first argument, when it is not an option, is the script they run. */
const INTERPRETERS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'python', 'python3', 'node', 'ruby', 'perl', 'bun']);

/** The file a command hook runs, as written and resolved; `interpreter` is set when a script is given to one. */
export interface Script {
  word: string;
  /** The word with the variables Claude Code sets expanded. */
  expanded: string;
  file: string;
  interpreter?: string;
}

/** The script or program file of a command hook, when it is evidently a path (not a PATH lookup). */
export function scriptOf(handler: CommandHook, ctx: ProgramContext): Script | undefined {
  if (handler.shell === 'powershell' && handler.args === undefined) return undefined;
  const words = handler.args === undefined ? commandWords(handler.command) : [handler.command, ...handler.args];
  if (words === undefined || words.length === 0) return undefined;
  const program = words[0]!;
  const name = path.basename(program);
  const interpreted = INTERPRETERS.has(name) && words[1] !== undefined && !words[1].startsWith('-');
  const word = interpreted ? words[1]! : program;
  const expanded = expand(word, ctx);
  // An interpreter's script is a file even without a slash; a bare program name is a PATH lookup.
  if (expanded === undefined || (!interpreted && !expanded.includes('/'))) return undefined;
  return {
    word,
    expanded,
    file: path.resolve(ctx.projectDir, expanded),
    ...(interpreted ? { interpreter: name } : {}),
  };
}

export async function programProblem(handler: CommandHook, ctx: ProgramContext): Promise<ProgramProblem | undefined> {
  const script = scriptOf(handler, ctx);
  if (script === undefined) return handler.args === undefined ? undefined : execNotOnPath(handler.command, ctx);
  const { word, file } = script;
  const quoted = file === word ? `"${file}"` : `"${word}" (${file})`;
  const info = await stat(file).catch(() => undefined);
  if (!info) {
    return { code: 'program-not-found', message: `${quoted} does not exist`, fix: relativeFix(script.expanded) };
  }
  if (info.isDirectory())
    return { code: 'program-not-executable', message: `${quoted} is a directory`, fix: 'name the script inside it' };
  if (
    script.interpreter === undefined &&
    !(await access(file, constants.X_OK).then(
      () => true,
      () => false,
    ))
  ) {
    return {
      code: 'program-not-executable',
      message: `${quoted} is not executable`,
      fix: `chmod +x ${file} (or run it through an interpreter: "sh ${file}")`,
    };
  }
  return undefined;
}

/** Exec form with a bare name: Claude Code runs it directly, so it must be on PATH. */
async function execNotOnPath(command: string, ctx: ProgramContext): Promise<ProgramProblem | undefined> {
  const expanded = expand(command, ctx);
  if (expanded === undefined || expanded === '' || expanded.includes('/') || (await onPath(expanded, ctx.env)))
    return undefined;
  return {
    code: 'program-not-found',
    message: `"${expanded}" is not found on PATH (exec form runs it directly, without a shell)`,
    fix: 'install it, give its absolute path, or use "${CLAUDE_PROJECT_DIR}/..." for a script in the project',
  };
}

function relativeFix(word: string): string {
  return path.isAbsolute(word)
    ? 'check the path'
    : 'check the path; relative paths depend on the working directory, so prefer "$CLAUDE_PROJECT_DIR/..."';
}

/** The first word of a shell command line, quotes removed; leading `VAR=value` words skipped. */
export function firstWord(command: string): string | undefined {
  const words = commandWords(command);
  return words === undefined ? undefined : (words[0] ?? '');
}

/** The words of a shell command line's first simple command, quotes removed; leading `VAR=value` words skipped. */
function commandWords(command: string): string[] | undefined {
  const words: string[] = [];
  let i = 0;
  for (;;) {
    while (i < command.length && /\s/.test(command[i]!)) i++;
    const start = i;
    let word = '';
    while (i < command.length && !/[\s;&|<>()]/.test(command[i]!)) {
      const ch = command[i]!;
      if (ch === "'" || ch === '"') {
        const end = command.indexOf(ch, i + 1);
        if (end === -1) return undefined;
        word += command.slice(i + 1, end);
        i = end + 1;
      } else if (ch === '\\') {
        word += command[i + 1] ?? '';
        i += 2;
      } else {
        word += ch;
        i++;
      }
    }
    if (word === '') return words;
    if (words.length > 0 || !/^[A-Za-z_]\w*=/.test(command.slice(start, i))) words.push(word);
  }
}

const VARIABLES = /\$\{(\w+)\}|\$(\w+)/g;

/** The word with the variables that Claude Code sets replaced; undefined when it depends on anything else. */
function expand(word: string, ctx: ProgramContext): string | undefined {
  const values: Record<string, string | undefined> = {
    CLAUDE_PROJECT_DIR: ctx.projectDir,
    HOME: ctx.home,
    CLAUDE_PLUGIN_ROOT: ctx.pluginRoot,
  };
  let unknown = false;
  const expanded = word.replace(VARIABLES, (whole, braced: string | undefined, bare: string | undefined) => {
    const value = values[braced ?? bare ?? ''];
    if (value === undefined) unknown = true;
    return value ?? whole;
  });
  if (unknown) return undefined;
  return expanded.startsWith('~/') ? path.join(ctx.home, expanded.slice(2)) : expanded;
}

async function onPath(name: string, env: Record<string, string | undefined>): Promise<boolean> {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(dir, name);
    const ok = await access(file, constants.X_OK).then(
      () => stat(file).then((s) => s.isFile()),
      () => false,
    );
    if (ok) return true;
  }
  return false;
}
