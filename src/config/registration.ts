// peri-hooks' own registration in Claude Code's settings (what `peri-hooks install` writes): a command hook
// that starts peri-hooks' `fire <Event> --output claude`. The loader recognises it, so that a firing which reads
// the settings holding the registration never starts peri-hooks inside itself.
import type { EventName } from '../events.ts';

/** The file names of what a registration starts: the single binary, or the npm bin after `node`. */
const ARTEFACTS = new Set(['peri-hooks', 'peri-hooks.exe', 'peri-hooks.cjs']);
const NODE = /^node(js)?[\d.]*(\.exe)?$/;

export interface Registration {
  event: string;
  /** What starts peri-hooks: the binary, or node and the bin. */
  runner: string[];
  /** The words after `fire <Event>`. */
  args: string[];
}

/** The registration this handler is, or undefined. A shell-form command is split into words; exec form is taken as is. */
export function readRegistration(handler: { type: string; command?: string; args?: string[] | undefined }): Registration | undefined {
  if (handler.type !== 'command' || handler.command === undefined) return undefined;
  const words = handler.args ? [handler.command, ...handler.args] : shellWords(handler.command);
  if (!words) return undefined;
  const fire = [1, 2].find((i) => words[i] === 'fire' && ARTEFACTS.has(baseName(words[i - 1]!)) && (i === 1 || NODE.test(baseName(words[0]!))));
  if (fire === undefined || words[fire + 1] === undefined) return undefined;
  const args = words.slice(fire + 2);
  const claude = args.some((word, i) => word === '--output=claude' || (word === '--output' && args[i + 1] === 'claude'));
  return claude ? { event: words[fire + 1]!, runner: words.slice(0, fire), args } : undefined;
}

/** What `install --serve` writes on its http hooks, so that they are known apart from every other http hook. */
export const SERVE_REGISTRATION_HEADER = 'X-Peri-Hooks';
/** The request header `serve` reads the project from, as fire reads CLAUDE_PROJECT_DIR. */
export const SERVE_PROJECT_HEADER = 'X-Peri-Hooks-Project-Dir';

type Handler = { type: string; command?: string; args?: string[] | undefined; url?: string; headers?: Record<string, string> | undefined; allowedEnvVars?: string[] | undefined };

export interface ServeRegistration {
  event: string;
  server: string;
  /** The Authorization header as written (`Bearer $VAR`, from install --token-env), and the variables it may use. */
  authorization?: { template: string; allowedEnvVars: string[] };
}

/** The server an http registration (`install --serve`) points at, and the event it fires; undefined for other handlers. */
export function readServeRegistration(handler: Handler): ServeRegistration | undefined {
  if (handler.type !== 'http' || handler.url === undefined || handler.headers?.[SERVE_REGISTRATION_HEADER] === undefined) return undefined;
  const match = /^(.*)\/hooks\/([A-Za-z]+)$/.exec(handler.url.split('?')[0]!);
  if (!match) return undefined;
  const template = Object.entries(handler.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return { server: match[1]!, event: match[2]!, ...(template === undefined ? {} : { authorization: { template, allowedEnvVars: handler.allowedEnvVars ?? [] } }) };
}

/** Whether this handler of `event` is peri-hooks firing that same event for Claude Code, as a command or at a server. */
export function isOwnRegistration(event: EventName, handler: Handler): boolean {
  return (readRegistration(handler) ?? readServeRegistration(handler))?.event === event;
}

/** The shell command line of these words: each quoted only when it needs it. */
export function shellCommand(words: readonly string[]): string {
  return words.map((word) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * The words of a simple command as sh would split them (quotes and backslashes removed), or undefined when
 * the line is more than one command (operators, redirections, substitutions): that is not a plain firing.
 */
export function shellWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '\'') {
      const end = text.indexOf('\'', i + 1);
      if (end < 0) return undefined;
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let quoted = '';
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && '"\\$`'.includes(text[i + 1] ?? '')) i++;
        quoted += text[i];
      }
      if (i >= text.length) return undefined;
      word = (word ?? '') + quoted;
    } else if (c === '\\') {
      word = (word ?? '') + (text[i + 1] ?? '');
      i++;
    } else if (';&|<>()`\n'.includes(c)) {
      return undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}
