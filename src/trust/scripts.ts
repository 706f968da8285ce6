// Which project files a hook's command runs, and their content read once: what trust pins and what a pinned hook
// runs. A word of the command names a script when it is an existing file: a path (it holds a `/`, after
// $CLAUDE_PROJECT_DIR is put in), or a bare name in argument position (`bash check.sh`) found in the project.
import { closeSync, constants, type Dirent, fstatSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { CommandHook } from '../config/schema.ts';

/** The most a pinned script may hold: hook scripts are small, and a bigger one is refused rather than read whole. */
export const SCRIPT_LIMIT_BYTES = 1024 * 1024;

/** One word of a command that names a file: as written, where it sits, and the file it names. */
export interface ScriptWord {
  /** Shell form: the word's span in `command`; exec form: its index in [command, ...args]. */
  at: { start: number; end: number } | { index: number };
  /** The path, with the project variable put in. */
  file: string;
  /** Written relative, or through $CLAUDE_PROJECT_DIR: it is meant to be in the project. */
  inProject: boolean;
}

/** What a referenced file is, read once. */
export type ScriptContent =
  | { kind: 'file'; relative: string; sha256: string; bytes: Buffer; executable: boolean }
  /** A path meant to be in the project that leads out of it (`..`, a symlink out): never approvable. */
  | { kind: 'escapes'; relative: string; target: string }
  /** Not a regular file, or larger than SCRIPT_LIMIT_BYTES, or unreadable: never approvable. */
  | { kind: 'unhashable'; relative: string; why: string };

/** The file-naming words of a command hook (none for other types). */
export function scriptWords(handler: CommandHook, projectDir: string): ScriptWord[] {
  const words = handler.args
    ? [handler.command, ...handler.args].map((text, index) => ({
        text: text.replaceAll('${CLAUDE_PROJECT_DIR}', projectDir),
        literal: true,
        viaProject: text.includes('${CLAUDE_PROJECT_DIR}'),
        at: { index } as ScriptWord['at'],
        first: index === 0,
      }))
    : shellTokens(handler.command, projectDir);
  const found: ScriptWord[] = [];
  for (const word of words) {
    if (!word.literal || word.text === '' || word.text.startsWith('-') || /^[A-Za-z_]\w*=/.test(word.text)) continue;
    const isPath = word.text.includes('/');
    if (!isPath && word.first) continue; // a command name: PATH's, not the project's
    const named = namedFile(word, projectDir);
    if (named) found.push(named);
  }
  return found;
}

/** The file a literal word names (relative to the project, $CLAUDE_PROJECT_DIR put in), when there is one. */
function namedFile(
  word: { text: string; viaProject: boolean; at: ScriptWord['at'] },
  projectDir: string,
): ScriptWord | undefined {
  const file = path.resolve(projectDir, word.text);
  if (!exists(file)) return undefined;
  return { at: word.at, file, inProject: word.viaProject || !path.isAbsolute(word.text) || inside(projectDir, file) };
}

/** Reads a referenced file once: its bytes and their SHA-256, or why it cannot be pinned. */
export async function readScript(
  file: string,
  inProject: boolean,
  projectDir: string,
): Promise<ScriptContent | undefined> {
  const root = safeRealpath(projectDir) ?? path.resolve(projectDir);
  const relative = path.relative(path.resolve(projectDir), file).split(path.sep).join('/');
  if (!inside(projectDir, file)) return inProject ? { kind: 'escapes', relative, target: file } : undefined;
  const real = safeRealpath(file);
  if (real === undefined) return undefined;
  if (!inside(root, real)) return { kind: 'escapes', relative, target: real };
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    return { kind: 'unhashable', relative, why: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return undefined;
    if (!stats.isFile()) return { kind: 'unhashable', relative, why: 'it is not a regular file' };
    if (stats.size > SCRIPT_LIMIT_BYTES)
      return { kind: 'unhashable', relative, why: `it is larger than ${SCRIPT_LIMIT_BYTES} bytes` };
    const bytes = Buffer.allocUnsafe(SCRIPT_LIMIT_BYTES + 1);
    let size = 0;
    for (let read = -1; read !== 0 && size <= SCRIPT_LIMIT_BYTES; size += read)
      read = readSync(fd, bytes, size, bytes.length - size, null);
    if (size > SCRIPT_LIMIT_BYTES)
      return { kind: 'unhashable', relative, why: `it is larger than ${SCRIPT_LIMIT_BYTES} bytes` };
    const content = Buffer.from(bytes.subarray(0, size));
    // getBuiltinModule, not import(): the single executable's script has no dynamic import.
    const { createHash } = process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
    return {
      kind: 'file',
      relative,
      sha256: createHash('sha256').update(content).digest('hex'),
      bytes: content,
      // The copy runs as the file would: a script that is not executable stays so.
      executable: (stats.mode & 0o100) !== 0,
    };
  } finally {
    closeSync(fd);
  }
}

/**
 * What in a script names its own path, and so loads files beside it (`. "$(dirname "$0")/lib.sh"`, a relative
 * import): such a script runs from a copy of its folder, as does a Python script importing a module beside it. A
 * false match only pins more.
 */
const OWN_PATH: ReadonlyArray<readonly [RegExp, string]> = [
  [/\$\{?0(?!\w)/, '$0'],
  [/\bBASH_SOURCE\b/, 'BASH_SOURCE'],
  [/\b__dirname\b|\b__filename\b/, '__dirname'],
  [/\bimport\.meta\b/, 'import.meta'],
  [/\b__file__\b/, '__file__'],
  [/\brequire_relative\b|\b__dir__\b/, 'require_relative'],
  [/\bFindBin\b/, 'FindBin'],
  [/\b(?:require|import)\s*\(\s*['"]\.\.?\/|\bfrom\s+['"]\.\.?\//, 'a relative import'],
];

/** How the script at `file` names its own path, or imports a Python module that lies beside it, if it does. */
export function ownPath(bytes: Buffer, file: string): string | undefined {
  const text = bytes.toString('latin1');
  return OWN_PATH.find(([pattern]) => pattern.test(text))?.[1] ?? siblingImport(text, file);
}

const PYTHON_IMPORT = /^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)|import[ \t]+([A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*))/gm;

/**
 * Python puts a script's own folder first on its import path, so `import lib` loads lib.py (or the package lib/)
 * beside it without naming a path: `import lib` when the script is Python and such a module is there.
 */
function siblingImport(text: string, file: string): string | undefined {
  if (!file.endsWith('.py') && !/^#!.*\bpython/.test(text)) return undefined;
  const folder = path.dirname(file);
  for (const [, from, imports] of text.matchAll(PYTHON_IMPORT))
    for (const name of from ? [from] : imports!.split(',').map((each) => each.trim()))
      if (exists(path.join(folder, `${name}.py`)) || exists(path.join(folder, name))) return `import ${name}`;
  return undefined;
}

const SHELL_SCRIPT = /^#!.*\b(?:ba|z|da|k)?sh\b/;
/** Words before a command that leave it in command position. */
const PREFIXES = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', 'time', 'exec', 'command']);
const INTERPRETERS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'python', 'python3', 'node', 'perl', 'ruby', 'deno']);

/**
 * The project files a shell script runs by a path that is not its own: one it sources (`. .claude/hooks/lib.sh`,
 * `source "$CLAUDE_PROJECT_DIR"/…`), runs as a command, or hands to an interpreter (`python3 hooks/check.py`),
 * each found as a command's words are (relative to the project). They run from the project, not from the pinned
 * copy, so they are hashed and approved with the hook: a change to one is a change to it.
 */
export function shellRuns(bytes: Buffer, file: string, projectDir: string): ScriptWord[] {
  const text = bytes.toString('latin1');
  if (!file.endsWith('.sh') && !SHELL_SCRIPT.test(text)) return [];
  // Whole-line comments go first: an apostrophe in one (`# don't`) would open a quote to the next one.
  const code = text.replace(/^[ \t]*#.*$/gm, '');
  const found: ScriptWord[] = [];
  const take = (words: Token[]) => {
    let head = 0;
    while (head < words.length && PREFIXES.has(words[head]!.text)) head++;
    const name = words[head]?.text;
    if (name === undefined) return;
    const target =
      name === '.' || name === 'source'
        ? words[head + 1]
        : INTERPRETERS.has(path.basename(name))
          ? words.slice(head + 1).find((word) => !word.text.startsWith('-'))
          : name.includes('/')
            ? words[head]
            : undefined;
    if (!target?.literal || target.text === '') return;
    const named = namedFile(target, projectDir);
    if (named) found.push(named);
  };
  let words: Token[] = [];
  for (const token of shellTokens(code, projectDir)) {
    if (token.first && words.length > 0) {
      take(words);
      words = [];
    }
    words.push(token);
  }
  take(words);
  return found;
}

/** The most files a folder pinned with its script may hold: a hook's own folder, not a project. */
export const BESIDE_LIMIT = 64;

/**
 * The files in a script's folder and below it (links to folders are not followed), pinned with a script that names
 * its own path; why not, when the folder is the project root or holds more than BESIDE_LIMIT files.
 */
export function besideFiles(script: string, projectDir: string): { files: string[] } | { why: string } {
  const folder = path.dirname(script);
  if (path.resolve(folder) === path.resolve(projectDir)) return { why: 'it is the project root' };
  const files: string[] = [];
  const walk = (dir: string): string | undefined => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      return `${path.relative(projectDir, dir).split(path.sep).join('/')} cannot be listed: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const why = walk(full);
        if (why !== undefined) return why;
      } else if (files.push(full) > BESIDE_LIMIT) return `it holds more than ${BESIDE_LIMIT} files`;
    }
    return undefined;
  };
  const why = walk(folder);
  return why === undefined ? { files: files.sort() } : { why };
}

interface Token {
  text: string;
  /** No expansion other than the project variable: the word is what sh would see. */
  literal: boolean;
  viaProject: boolean;
  at: { start: number; end: number };
  /** In command position: first word, or after an operator. */
  first: boolean;
}

/**
 * The words of a shell command line with their spans, quotes removed and $CLAUDE_PROJECT_DIR put in; a word with any
 * other expansion is not literal. Operators split words; what is inside $(…) or backquotes is not looked into.
 */
function shellTokens(command: string, projectDir: string): Token[] {
  const tokens: Token[] = [];
  let current: Token | undefined;
  let first = true;
  const end = (at: number) => {
    if (current) {
      current.at.end = at;
      tokens.push(current);
      first = false;
    }
    current = undefined;
  };
  const word = (at: number): Token => {
    current ??= { text: '', literal: true, viaProject: false, at: { start: at, end: at }, first };
    return current;
  };
  const dollar = (i: number, token: Token): number => {
    const rest = command.slice(i);
    const named = /^\$(?:\{CLAUDE_PROJECT_DIR\}|CLAUDE_PROJECT_DIR(?![A-Za-z0-9_]))/.exec(rest);
    if (named) {
      token.text += projectDir;
      token.viaProject = true;
      return i + named[0].length - 1;
    }
    token.literal = false;
    return i;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === ' ' || c === '\t') end(i);
    else if (';&|<>()\n'.includes(c)) {
      end(i);
      first = c !== '>' && c !== '<';
    } else if (c === "'") {
      const token = word(i);
      const close = command.indexOf("'", i + 1);
      const stop = close < 0 ? command.length : close;
      token.text += command.slice(i + 1, stop);
      i = stop;
    } else if (c === '"') {
      const token = word(i);
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === '\\' && '"\\$`'.includes(command[i + 1] ?? '')) token.text += command[++i];
        else if (command[i] === '$') i = dollar(i, token);
        else if (command[i] === '`') token.literal = false;
        else token.text += command[i];
      }
    } else if (c === '\\') {
      word(i).text += command[++i] ?? '';
    } else if (c === '$') {
      i = dollar(i, word(i));
    } else if (c === '`' || c === '*' || c === '?' || c === '~') {
      const token = word(i);
      token.literal = false;
      token.text += c;
    } else word(i).text += c;
  }
  end(command.length);
  return tokens;
}

function exists(file: string): boolean {
  return safeRealpath(file) !== undefined;
}

function safeRealpath(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** Whether `file` is `dir` or inside it, by their written paths. */
export function inside(dir: string, file: string): boolean {
  const relative = path.relative(path.resolve(dir), path.resolve(file));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
