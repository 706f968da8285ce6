// Will the program of a command hook start? Shell form: its first word, when that word is a path (a bare
// name may be a shell builtin or a function). Exec form: `command` itself, looked up on PATH as Claude Code
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

export async function programProblem(handler: CommandHook, ctx: ProgramContext): Promise<ProgramProblem | undefined> {
  if (handler.shell === 'powershell' && handler.args === undefined) return undefined;
  const word = handler.args === undefined ? firstWord(handler.command) : handler.command;
  if (word === undefined || word === '') return undefined;
  const expanded = expand(word, ctx);
  if (expanded === undefined) return undefined;
  if (!expanded.includes('/')) {
    // Shell form: a bare name is for the shell to find.
    if (handler.args === undefined) return undefined;
    return (await onPath(expanded, ctx.env)) ? undefined : {
      code: 'program-not-found',
      message: `"${expanded}" is not found on PATH (exec form runs it directly, without a shell)`,
      fix: 'install it, give its absolute path, or use "${CLAUDE_PROJECT_DIR}/..." for a script in the project',
    };
  }
  const file = path.resolve(ctx.projectDir, expanded);
  const quoted = file === word ? `"${file}"` : `"${word}" (${file})`;
  const info = await stat(file).catch(() => undefined);
  if (!info) {
    return { code: 'program-not-found', message: `${quoted} does not exist`, fix: relativeFix(expanded) };
  }
  if (info.isDirectory() || !(await access(file, constants.X_OK).then(() => true, () => false))) {
    return {
      code: 'program-not-executable',
      message: `${quoted} is ${info.isDirectory() ? 'a directory' : 'not executable'}`,
      fix: info.isDirectory() ? 'name the script inside it' : `chmod +x ${file} (or run it through an interpreter: "sh ${expanded}")`,
    };
  }
  return undefined;
}

function relativeFix(word: string): string {
  return path.isAbsolute(word)
    ? 'check the path'
    : 'check the path; relative paths depend on the working directory, so prefer "$CLAUDE_PROJECT_DIR/..."';
}

/** The first word of a shell command line, quotes removed; leading `VAR=value` words skipped. */
export function firstWord(command: string): string | undefined {
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
    if (word === '' || !/^[A-Za-z_]\w*=/.test(command.slice(start, i))) return word;
  }
}

const VARIABLES = /\$\{(\w+)\}|\$(\w+)/g;

/** The word with the variables that Claude Code sets replaced; undefined when it depends on anything else. */
function expand(word: string, ctx: ProgramContext): string | undefined {
  const values: Record<string, string | undefined> = { CLAUDE_PROJECT_DIR: ctx.projectDir, HOME: ctx.home, CLAUDE_PLUGIN_ROOT: ctx.pluginRoot };
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
    const ok = await access(file, constants.X_OK).then(() => stat(file).then((s) => s.isFile()), () => false);
    if (ok) return true;
  }
  return false;
}
