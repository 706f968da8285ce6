// Reads a Bash command into the simple commands Claude Code 2.1.332 checks `if` rules against
// (spec §20.1 items 2-8, §20.3 items 19-22 and 24). A small recursive-descent parser for exactly the grammar the observations need:
// lists, pipelines, subshells, if/for/while/until, quoting, redirections, here-documents and the
// substitutions. Whatever Claude Code cannot read statically selects one of its two fallback grades.

export type ShellAnalysis =
  /** Every simple command, as `argv.join(" ")`. */
  | { grade: 'parsed'; commands: string[] }
  /**
   * `$(…)`, backticks or `$VAR` in a single command: only rules of two shapes are tested, against these
   * commands, where a substitution reads as `__CMDSUB_OUTPUT__` and a variable as `$NAME`.
   */
  | { grade: 'partial'; commands: string[]; reason: string }
  /** Claude Code gives up: every specifier rule of the tool fires. */
  | { grade: 'full'; reason: string };

/** Thrown inside the parser to abandon it for the full-fallback grade; caught in analyseBash. */
class Unreadable extends Error {}

interface Word {
  value: string;
  /** Source text, quotes included: reserved words and assignments are recognised on it. */
  raw: string;
  /** Holds an unquoted variable whose value is unknown. */
  variable: boolean;
  /** That variable is glued to other text (`$USER/x`), which Claude Code does not read. */
  gluedVariable: boolean;
  /** Holds a substitution where Claude Code reads the line only partly (§20.3 item 24). */
  substitution: boolean;
}

type Token =
  | { kind: 'word'; word: Word }
  | { kind: 'op'; op: string }
  | { kind: 'redir'; op: string }
  | { kind: 'eof' };

interface HereDoc {
  delimiter: string;
  stripTabs: boolean;
}

interface State {
  src: string;
  pos: number;
  peeked: Token | null;
  hereDocs: HereDoc[];
  depth: number;
  /** Shared with nested parsers (backticks), so commands inside substitutions are collected too. */
  out: Collected;
}

interface Collected {
  commands: string[][];
  partial?: string;
  /** Commands outside substitutions: a partly read line with several of them falls back fully. */
  topLevel: number;
  /** Variables assigned earlier in the line; null when their value cannot be used (§20.3 item 22). */
  assigned: Map<string, string | null>;
  home: string;
}

const MAX_DEPTH = 64;
const BREAKS = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
/** Shapes that made Claude Code fall back fully when they start a command (§20.1 item 8; the rest by analogy). */
const UNREAD_KEYWORDS = new Set(['{', '}', '[[', 'case', 'function', 'select', 'coproc']);
const CLOSING_KEYWORDS = new Set(['then', 'elif', 'else', 'fi', 'do', 'done', 'esac', ']]']);
/** What a command substitution reads as where Claude Code parses it (§20.3 item 22). */
const SUBSTITUTION_OUTPUT = '__CMDSUB_OUTPUT__';
/** What these variables read as inside a double-quoted string (§20.3 item 21). */
const TRACKED_VARIABLE = '__TRACKED_VAR__';
/** `"…$!…"` reads both as the placeholder and as empty text (§20.3 item 21): marked, then read both ways. */
const EMPTY_OR_TRACKED = '\u0000!';
const TRACKED_VARIABLES = new Set([
  'USER',
  'LOGNAME',
  'PWD',
  'OLDPWD',
  'PATH',
  'SHELL',
  'HOSTNAME',
  'TMPDIR',
  'UID',
  'EUID',
  'PPID',
  'RANDOM',
  'SECONDS',
  'LINENO',
  'BASH_VERSION',
  'BASHPID',
  'SHLVL',
  'HISTFILE',
  'IFS',
  '?',
  '$',
  '#',
  '-',
]);
/** A HOME holding these is not substituted unquoted: a blank was observed, the rest are peri-hooks' choice. */
const UNSAFE_IN_HOME = /[ \t\n*?[]/;
const WHOLE_VARIABLE = /^\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9$?!#@*-])$/;
const OPERATORS = ['&>>', '&>', '&&', '&', '||', '|&', '|', ';;', ';&', ';', '(', ')'];
const REDIRECTIONS = ['<<<', '<<-', '<<', '<>', '<&', '<', '>>', '>&', '>|', '>'];

/** home is the HOME of the Claude Code process: `$HOME` reads as it (§20.3 item 19). */
export function analyseBash(command: string, home: string): ShellAnalysis {
  const out: Collected = { commands: [], topLevel: 0, assigned: new Map(), home };
  try {
    parseProgram(command, out, 0);
  } catch (error) {
    if (error instanceof Unreadable) return { grade: 'full', reason: error.message };
    if (error instanceof RangeError) return { grade: 'full', reason: 'the command is too deeply nested' };
    throw error;
  }
  const argvs = out.commands.flatMap(withXargsTarget);
  const commands = argvs.map((argv) => argv.join(' ')).flatMap(bothReadings);
  if (out.partial === undefined) return { grade: 'parsed', commands };
  if (out.topLevel > 1) return { grade: 'full', reason: `${out.partial}, in a line with several commands` };
  return { grade: 'partial', commands, reason: out.partial };
}

/** A command with `"…$!…"` as both of its readings: `$!` as empty text, and as the placeholder. */
function bothReadings(command: string): string[] {
  if (!command.includes(EMPTY_OR_TRACKED)) return [command];
  return [command.replaceAll(EMPTY_OR_TRACKED, ''), command.replaceAll(EMPTY_OR_TRACKED, TRACKED_VARIABLE)];
}

/** `xargs cmd …` also counts as `cmd …`, but only when no option comes between (§20.1 item 5). */
function withXargsTarget(argv: string[]): string[][] {
  const target = argv[1];
  if (argv[0] === 'xargs' && target !== undefined && !target.startsWith('-')) return [argv, argv.slice(1)];
  return [argv];
}

function parseProgram(src: string, out: Collected, depth: number): void {
  if (depth > MAX_DEPTH) throw new Unreadable('the command is too deeply nested');
  const st: State = { src, pos: 0, peeked: null, hereDocs: [], depth, out };
  parseList(st, new Set());
  const rest = peek(st);
  if (rest.kind !== 'eof') throw syntaxError(rest);
  if (st.hereDocs.length > 0) throw new Unreadable('a here-document has no body');
}

// ---- grammar ----

/** and-or lists separated by `;`, `&` or newlines, up to EOF, `)` or one of `stops` in command position. */
function parseList(st: State, stops: ReadonlySet<string>): number {
  let count = 0;
  skipNewlines(st);
  for (;;) {
    const t = peek(st);
    if (t.kind === 'eof' || (t.kind === 'op' && t.op === ')') || isKeyword(t, stops)) return count;
    parseAndOr(st);
    count++;
    const sep = peek(st);
    if (sep.kind !== 'op' || !(sep.op === ';' || sep.op === '&' || sep.op === '\n')) return count;
    next(st);
    skipNewlines(st);
  }
}

function parseAndOr(st: State): void {
  parseJoined(st, ['&&', '||'], parsePipeline);
}

function parsePipeline(st: State): void {
  if (isKeyword(peek(st), new Set(['!']))) next(st);
  parseJoined(st, ['|', '|&'], parseCommand);
}

/** `parse`, then `parse` again after each operator in `ops` (newlines may follow an operator). */
function parseJoined(st: State, ops: readonly string[], parse: (st: State) => void): void {
  parse(st);
  for (let t = peek(st); t.kind === 'op' && ops.includes(t.op); t = peek(st)) {
    next(st);
    skipNewlines(st);
    parse(st);
  }
}

function parseCommand(st: State): void {
  const t = peek(st);
  if (t.kind === 'op') {
    if (t.op !== '(') throw syntaxError(t);
    if (st.src[st.pos] === '(') throw new Unreadable('an arithmetic command (( … ))');
    next(st);
    if (parseList(st, new Set()) === 0) throw syntaxError(peek(st));
    expectOp(st, ')');
    parseTrailingRedirections(st);
    return;
  }
  if (t.kind === 'word') {
    const keyword = t.word.raw;
    if (UNREAD_KEYWORDS.has(keyword)) throw new Unreadable(`a "${keyword}" construct`);
    if (CLOSING_KEYWORDS.has(keyword)) throw syntaxError(t);
    const compound =
      keyword === 'if'
        ? parseIf
        : keyword === 'for'
          ? parseFor
          : keyword === 'while' || keyword === 'until'
            ? parseLoop
            : undefined;
    if (compound) {
      compound(st);
      return;
    }
  }
  if (t.kind === 'eof') throw syntaxError(t);
  parseSimpleCommand(st);
}

function parseIf(st: State): void {
  do {
    next(st); // `if`, then each `elif`
    bodyUntil(st, 'then');
    body(st, ['elif', 'else', 'fi']);
  } while (isKeyword(peek(st), new Set(['elif'])));
  if (isKeyword(peek(st), new Set(['else']))) {
    next(st);
    body(st, ['fi']);
  }
  expectKeyword(st, 'fi');
  parseTrailingRedirections(st);
}

function parseFor(st: State): void {
  next(st);
  const name = next(st);
  if (name.kind !== 'word') throw new Unreadable('a C-style for loop or a malformed for');
  skipNewlines(st);
  if (isKeyword(peek(st), new Set(['in']))) {
    next(st);
    while (peek(st).kind === 'word') next(st);
  }
  const sep = peek(st);
  if (sep.kind === 'op' && (sep.op === ';' || sep.op === '\n')) next(st);
  skipNewlines(st);
  expectKeyword(st, 'do');
  bodyUntil(st, 'done');
  parseTrailingRedirections(st);
}

function parseLoop(st: State): void {
  next(st);
  bodyUntil(st, 'do');
  bodyUntil(st, 'done');
  parseTrailingRedirections(st);
}

function body(st: State, stops: string[]): void {
  if (parseList(st, new Set(stops)) === 0) throw syntaxError(peek(st));
}

/** A non-empty list, then `keyword`, which ends it. */
function bodyUntil(st: State, keyword: string): void {
  body(st, [keyword]);
  expectKeyword(st, keyword);
}

function parseSimpleCommand(st: State): void {
  const argv: Word[] = [];
  const assignments: Word[] = [];
  for (let t = peek(st); ; t = peek(st)) {
    if (t.kind === 'word') {
      next(st);
      // Leading VAR=value words are not part of the command (§20.1 item 4); what they run is still collected.
      if (argv.length === 0 && ASSIGNMENT.test(t.word.raw)) assignments.push(t.word);
      else argv.push(t.word);
    } else if (t.kind === 'redir') {
      next(st);
      parseRedirectionTarget(st, t.op);
    } else if (t.kind === 'op' && t.op === '(') {
      const definesFunction = argv.length === 1 && /^\(\s*\)/.test(st.src.slice(st.pos - 1));
      throw new Unreadable(definesFunction ? 'a function definition' : 'a syntax error near "("');
    } else {
      break;
    }
  }
  const name = argv[0];
  if (name === undefined) {
    recordAssignments(st.out.assigned, assignments);
    return;
  }
  if (name.variable || name.substitution) throw new Unreadable('the command name is computed at run time');
  const glued = argv.find((word) => word.gluedVariable);
  if (glued) throw new Unreadable(`"${glued.raw}" glues a variable to other text`);
  // Observed for a variable, and for `printf '%s' "$(date)"` (§20.3 item 22): beside a single-quoted word, Claude Code gives up.
  const unknown = argv.find((word) => word.variable) ?? argv.find((word) => word.substitution);
  if (unknown && argv.some((word) => word.raw.includes("'"))) {
    throw new Unreadable(`"${unknown.raw}" stands next to a single-quoted word`);
  }
  if (unknown) st.out.partial ??= `"${unknown.raw}" is expanded at run time`;
  if (st.depth === 0) st.out.topLevel++;
  st.out.commands.push(argv.map((word) => word.value));
}

/** A command of assignments only sets variables for what follows; a reassigned or empty one is unusable. */
function recordAssignments(assigned: Map<string, string | null>, words: readonly Word[]): void {
  for (const word of words) {
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(word.raw)![0];
    const value = word.value.slice(name.length + 1);
    const usable = word.raw[name.length] === '=' && !word.variable && value !== '' && !assigned.has(name);
    assigned.set(name, usable ? value : null);
  }
}

function parseTrailingRedirections(st: State): void {
  for (let t = peek(st); t.kind === 'redir'; t = peek(st)) {
    next(st);
    parseRedirectionTarget(st, t.op);
  }
}

/** Redirections are dropped from the command (§20.1 item 3); quoted here-document bodies are skipped. */
function parseRedirectionTarget(st: State, op: string): void {
  const target = next(st);
  if (target.kind !== 'word') throw syntaxError(target);
  if (op !== '<<' && op !== '<<-') return;
  if (!/['"\\]/.test(target.word.raw)) throw new Unreadable('an unquoted here-document');
  st.hereDocs.push({ delimiter: target.word.value, stripTabs: op === '<<-' });
}

// ---- tokens ----

function peek(st: State): Token {
  st.peeked ??= readToken(st);
  return st.peeked;
}

function next(st: State): Token {
  const t = peek(st);
  st.peeked = null;
  return t;
}

function skipNewlines(st: State): void {
  for (let t = peek(st); t.kind === 'op' && t.op === '\n'; t = peek(st)) next(st);
}

function expectOp(st: State, op: string): void {
  const t = next(st);
  if (t.kind !== 'op' || t.op !== op) throw syntaxError(t);
}

function expectKeyword(st: State, keyword: string): void {
  const t = next(st);
  if (!isKeyword(t, new Set([keyword]))) throw syntaxError(t);
}

/** Reserved words count only unquoted, which the raw source text shows. */
function isKeyword(t: Token, words: ReadonlySet<string>): boolean {
  return t.kind === 'word' && words.has(t.word.raw);
}

function syntaxError(t: Token): Unreadable {
  const near = t.kind === 'eof' ? 'the end' : t.kind === 'word' ? t.word.raw : t.op === '\n' ? 'a newline' : t.op;
  return new Unreadable(`a syntax error near ${near}`);
}

function readToken(st: State): Token {
  skipBlanksAndComments(st);
  const { src, pos } = st;
  if (pos >= src.length) return { kind: 'eof' };
  if (src[pos] === '\n') {
    st.pos++;
    skipHereDocBodies(st);
    return { kind: 'op', op: '\n' };
  }
  const fd = /^\d+(?=[<>])/.exec(src.slice(pos, pos + 12))?.[0] ?? '';
  const rest = src.slice(pos + fd.length);
  if (rest.startsWith('<(') || rest.startsWith('>(')) throw new Unreadable('a process substitution');
  const redir = REDIRECTIONS.find((op) => rest.startsWith(op));
  if (redir) {
    st.pos += fd.length + redir.length;
    return { kind: 'redir', op: redir };
  }
  const op = OPERATORS.find((candidate) => src.startsWith(candidate, pos));
  if (op) {
    st.pos += op.length;
    return op === '&>' || op === '&>>' ? { kind: 'redir', op } : { kind: 'op', op };
  }
  return { kind: 'word', word: readWord(st) };
}

function skipBlanksAndComments(st: State): void {
  for (;;) {
    const c = st.src[st.pos];
    if (c === ' ' || c === '\t') st.pos++;
    else if (c === '\\' && st.src[st.pos + 1] === '\n') throw new Unreadable('a backslash-newline continuation');
    else if (c === '#') while (st.pos < st.src.length && st.src[st.pos] !== '\n') st.pos++;
    else return;
  }
}

function skipHereDocBodies(st: State): void {
  for (const doc of st.hereDocs) {
    for (;;) {
      if (st.pos >= st.src.length) throw new Unreadable(`the here-document has no "${doc.delimiter}" line`);
      const end = st.src.indexOf('\n', st.pos);
      const line = st.src.slice(st.pos, end === -1 ? undefined : end);
      st.pos = end === -1 ? st.src.length : end + 1;
      if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) break;
    }
  }
  st.hereDocs = [];
}

function readWord(st: State): Word {
  const start = st.pos;
  let value = '';
  let variable = false;
  let substitution = false;
  while (st.pos < st.src.length) {
    const c = st.src[st.pos] as string;
    if (BREAKS.has(c)) break;
    if (c === '\\') {
      const escaped = st.src[st.pos + 1];
      if (escaped === '\n') throw new Unreadable('a backslash-newline continuation');
      value += escaped ?? '\\';
      st.pos += 2;
    } else if (c === "'") {
      const end = st.src.indexOf("'", st.pos + 1);
      if (end === -1) throw new Unreadable('an unterminated quote');
      value += st.src.slice(st.pos + 1, end);
      st.pos = end + 1;
    } else if (c === '"') {
      const part = readDoubleQuoted(st);
      value += part.value;
      substitution ||= part.substitution;
    } else if (c === '$' || c === '`') {
      const expansion = c === '$' ? readDollar(st, false) : readBackticks(st);
      if (expansion.kind === 'text') {
        value += expansion.value;
      } else if (expansion.kind === 'substitution') {
        value += SUBSTITUTION_OUTPUT;
        substitution = true;
      } else {
        const known = unquotedValue(st.out, expansion.name);
        value += known ?? `$${expansion.name}`;
        variable ||= known === undefined;
      }
    } else {
      value += c;
      st.pos++;
    }
  }
  const raw = st.src.slice(start, st.pos);
  return { value, raw, variable, gluedVariable: variable && !WHOLE_VARIABLE.test(raw), substitution };
}

/** The value of an unquoted `$name`, or undefined when it stays unknown. */
function unquotedValue(out: Collected, name: string): string | undefined {
  const assigned = out.assigned.get(name);
  if (assigned === null || (assigned !== undefined && /[ \t\n]/.test(assigned))) {
    throw new Unreadable(`$${name} cannot be read from its assignment`);
  }
  if (assigned !== undefined) return assigned;
  if (name === 'HOME' && !UNSAFE_IN_HOME.test(out.home)) return out.home;
  return undefined;
}

type Expansion = { kind: 'text'; value: string } | { kind: 'variable'; name: string } | { kind: 'substitution' };

interface QuotedPart {
  value: string;
  substitution: boolean;
}

/** A double-quoted string; its expansions are read once the number of other characters is known (§20.3 item 21). */
function readDoubleQuoted(st: State): QuotedPart {
  st.pos++;
  const pieces: Array<string | Expansion> = [];
  for (;;) {
    const c = st.src[st.pos];
    if (c === undefined) throw new Unreadable('an unterminated quote');
    if (c === '"') {
      st.pos++;
      return resolveQuoted(st.out, pieces);
    }
    if (c === '\\') {
      const escaped = st.src[st.pos + 1];
      if (escaped === '\n') throw new Unreadable('a backslash-newline continuation');
      if (escaped !== undefined && '$`"\\'.includes(escaped)) {
        pieces.push(escaped);
        st.pos += 2;
      } else {
        pieces.push(c);
        st.pos++;
      }
    } else if (c === '$' || c === '`') {
      pieces.push(c === '$' ? readDollar(st, true) : readBackticks(st));
    } else {
      pieces.push(c);
      st.pos++;
    }
  }
}

function resolveQuoted(out: Collected, pieces: ReadonlyArray<string | Expansion>): QuotedPart {
  const others = pieces.reduce((count, piece) => count + (typeof piece === 'string' ? piece.length : 0), 0);
  let value = '';
  let substitution = false;
  for (const piece of pieces) {
    if (typeof piece === 'string') value += piece;
    else if (piece.kind === 'text') value += piece.value;
    else if (piece.kind === 'substitution') {
      value += SUBSTITUTION_OUTPUT;
      substitution ||= others < 2;
    } else value += quotedValue(out, piece.name, others);
  }
  return { value, substitution };
}

function quotedValue(out: Collected, name: string, others: number): string {
  const assigned = out.assigned.get(name);
  if (assigned === null) throw new Unreadable(`$${name} cannot be read from its assignment`);
  if (assigned !== undefined) return assigned;
  if (name === 'HOME') return out.home;
  if (!TRACKED_VARIABLES.has(name) && name !== '!') throw new Unreadable(`"$${name}" inside double quotes`);
  if (others < 2) throw new Unreadable(`"$${name}" with at most one other character inside double quotes`);
  return name === '!' ? EMPTY_OR_TRACKED : TRACKED_VARIABLE;
}

function readDollar(st: State, quoted: boolean): Expansion {
  const { src } = st;
  const nextChar = src[st.pos + 1] ?? '';
  if (nextChar === '(' && src[st.pos + 2] === '(') return readArithmetic(st);
  if (nextChar === '(') {
    st.pos += 2;
    st.depth++;
    if (st.depth > MAX_DEPTH) throw new Unreadable('the command is too deeply nested');
    parseList(st, new Set());
    expectOp(st, ')');
    st.depth--;
    return { kind: 'substitution' };
  }
  if (nextChar === '{') throw new Unreadable('a ${…} expansion');
  if (nextChar === "'" && !quoted) throw new Unreadable("$'…' quoting");
  if (nextChar === '"' && !quoted) {
    st.pos++;
    return { kind: 'text', value: '' };
  }
  const name =
    /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(st.pos + 1))?.[0] ?? (/[0-9$?!#@*-]/.test(nextChar) ? nextChar : '');
  if (name !== '') {
    st.pos += 1 + name.length;
    return { kind: 'variable', name };
  }
  st.pos++;
  return { kind: 'text', value: '$' };
}

/** `$(( … ))` stays literal text: it runs no command, and Claude Code reads the rest normally (§20.1 item 8). */
function readArithmetic(st: State): Expansion {
  const start = st.pos;
  let depth = 0;
  for (let i = st.pos + 3; i < st.src.length; i++) {
    const c = st.src[i];
    if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
    else if (c === ')' && st.src[i + 1] === ')') {
      const text = st.src.slice(start, i + 2);
      if (/\$[({]|`/.test(text.slice(3))) throw new Unreadable('an expansion inside $(( … ))');
      st.pos = i + 2;
      return { kind: 'text', value: text };
    } else if (c === ')') break;
  }
  throw new Unreadable('an unterminated $(( … ))');
}

function readBackticks(st: State): Expansion {
  let inner = '';
  let i = st.pos + 1;
  for (; i < st.src.length && st.src[i] !== '`'; i++) {
    const c = st.src[i] as string;
    const escaped = st.src[i + 1];
    if (c === '\\' && escaped !== undefined && '`\\$'.includes(escaped)) {
      inner += escaped;
      i++;
    } else {
      inner += c;
    }
  }
  if (i >= st.src.length) throw new Unreadable('an unterminated backtick substitution');
  st.pos = i + 1;
  parseProgram(inner, st.out, st.depth + 1);
  return { kind: 'substitution' };
}
