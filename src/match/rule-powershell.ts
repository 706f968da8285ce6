// Splits a PowerShell command into the commands an `if` rule is checked against. §20 observed only Bash, so
// this mirrors the Bash grades: separators `;`, `|`, `&&`, `||` and newlines split commands, quotes are
// removed, redirections dropped, `$name` variables give the partial fallback, and anything richer (script
// blocks, subexpressions, here-strings, the `&` call operator, line continuations) gives the full fallback.
import type { ShellAnalysis } from './bash-parse.ts';

interface Splitter {
  argvs: string[][];
  argv: string[];
  word: string | null;
  dynamic: boolean;
  dropNextWord: boolean;
  partial?: string;
}

class Unreadable extends Error {}

export function analysePowerShell(command: string): ShellAnalysis {
  const sp: Splitter = { argvs: [], argv: [], word: null, dynamic: false, dropNextWord: false };
  try {
    split(command, sp);
  } catch (error) {
    if (error instanceof Unreadable) return { grade: 'full', reason: error.message };
    throw error;
  }
  const commands = sp.argvs.map((argv) => argv.join(' '));
  if (sp.partial === undefined) return { grade: 'parsed', commands };
  return { grade: 'partial', commands, reason: sp.partial };
}

function split(src: string, sp: Splitter): void {
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as string;
    const next = src[i + 1] ?? '';
    if (c === ' ' || c === '\t' || c === '\r') endWord(sp);
    else if (c === '\n' || c === ';') endCommand(sp);
    else if (c === '|') {
      if (next === '|') i++;
      endCommand(sp);
    } else if (c === '&') {
      if (next !== '&') throw new Unreadable('the & operator');
      i++;
      endCommand(sp);
    } else if (c === '#' && sp.word === null) {
      while (i + 1 < src.length && src[i + 1] !== '\n') i++;
    } else if (c === "'") {
      i = readSingleQuoted(src, i, sp);
    } else if (c === '"') {
      i = readDoubleQuoted(src, i, sp);
    } else if (c === '`') {
      if (next === '\n' || next === '\r' || next === '') throw new Unreadable('a backtick line continuation');
      append(sp, next);
      i++;
    } else if (c === '$') {
      i = readVariable(src, i, sp);
    } else if (c === '>' || (c === '<' && next !== '#')) {
      i = readRedirection(src, i, sp);
    } else if ('{}()'.includes(c) || (c === '@' && '({\'"'.includes(next)) || (c === '<' && next === '#')) {
      throw new Unreadable(`a PowerShell "${c}${next}" construct`);
    } else {
      append(sp, c);
    }
  }
  endCommand(sp);
}

function append(sp: Splitter, text: string): void {
  sp.word = (sp.word ?? '') + text;
}

function endWord(sp: Splitter): void {
  if (sp.word === null) return;
  if (sp.dropNextWord) sp.dropNextWord = false;
  else {
    if (sp.argv.length === 0 && sp.dynamic) throw new Unreadable('the command name is computed at run time');
    if (sp.dynamic) sp.partial ??= `"${sp.word}" is expanded at run time`;
    sp.argv.push(sp.word);
  }
  sp.word = null;
  sp.dynamic = false;
}

function endCommand(sp: Splitter): void {
  endWord(sp);
  if (sp.argv.length > 0) sp.argvs.push(sp.argv);
  sp.argv = [];
}

function readSingleQuoted(src: string, start: number, sp: Splitter): number {
  let text = '';
  for (let i = start + 1; i < src.length; i++) {
    if (src[i] !== "'") text += src[i];
    else if (src[i + 1] === "'") text += src[++i];
    else {
      append(sp, text);
      return i;
    }
  }
  throw new Unreadable('an unterminated quote');
}

function readDoubleQuoted(src: string, start: number, sp: Splitter): number {
  let text = '';
  for (let i = start + 1; i < src.length; i++) {
    const c = src[i] as string;
    if (c === '"') {
      append(sp, text);
      return i;
    }
    if (c === '`') text += src[++i] ?? '';
    else if (c === '$' && /[A-Za-z_({:]/.test(src[i + 1] ?? '')) {
      if (src[i + 1] === '(' || src[i + 1] === '{') throw new Unreadable('a PowerShell subexpression');
      sp.dynamic = true;
      text += c;
    } else text += c;
  }
  throw new Unreadable('an unterminated quote');
}

function readVariable(src: string, start: number, sp: Splitter): number {
  const next = src[start + 1] ?? '';
  if (next === '(' || next === '{') throw new Unreadable('a PowerShell subexpression');
  const name = /^[A-Za-z_][A-Za-z0-9_:]*/.exec(src.slice(start + 1))?.[0];
  if (name === undefined) {
    append(sp, '$');
    return start;
  }
  sp.dynamic = true;
  append(sp, `$${name}`);
  return start + name.length;
}

/** `>`, `>>`, `2>`, `2>&1`, `*>`: dropped with their target, like Bash redirections. */
function readRedirection(src: string, start: number, sp: Splitter): number {
  if (sp.word !== null && /^[\d*]$/.test(sp.word)) sp.word = null;
  else endWord(sp);
  const op = /^(?:>>?|<)(?:&\d)?/.exec(src.slice(start))?.[0] ?? '>';
  if (!op.includes('&')) sp.dropNextWord = true;
  return start + op.length - 1;
}
