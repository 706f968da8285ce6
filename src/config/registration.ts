// peri-hooks' own registration in Claude Code's settings (what `peri-hooks install` writes): a command hook
// that starts peri-hooks' `fire <Event> --output claude`. The loader recognises it, so that a firing which reads
// the settings holding the registration never starts peri-hooks inside itself.
import type { EventName } from '../events.ts';

/** The file names of what a registration starts: the single binary, or the npm bin after `node`. */
const ARTEFACTS = new Set(['peri-hooks', 'peri-hooks.exe', 'peri-hooks.cjs']);
const NODE = /^node(js)?[\d.]*(\.exe)?$/;

export interface Registration {
  event: string;
  /** What starts peri-hooks: the binary, or node and the bin; [] for a portable registration (see `project`). */
  runner: string[];
  /** The words after `fire <Event>`; in a portable registration, paths in the project start with `$d/`. */
  args: string[];
  /** A portable registration: how its command finds the project root (a variable, or a file it holds). */
  project?: ProjectRoot;
}

/** How a portable registration finds its project: the host's project-dir variable, or the file that holds the registration, looked for upwards from the folder the hook runs in. */
export type ProjectRoot = { variable: string } | { anchor: string };

/** The registration this handler is, or undefined. A shell-form command is split into words; exec form is taken as is. */
export function readRegistration(handler: {
  type: string;
  command?: string;
  args?: string[] | undefined;
}): Registration | undefined {
  if (handler.type !== 'command' || handler.command === undefined) return undefined;
  const portable = handler.args ? undefined : readPortable(handler.command);
  const words = handler.args
    ? [handler.command, ...handler.args]
    : portable
      ? [PORTABLE_RUNNER, ...portable.words]
      : shellWords(handler.command);
  if (!words) return undefined;
  const fire = [1, 2].find(
    (i) => words[i] === 'fire' && ARTEFACTS.has(baseName(words[i - 1]!)) && (i === 1 || NODE.test(baseName(words[0]!))),
  );
  if (fire === undefined || words[fire + 1] === undefined) return undefined;
  const args = words.slice(fire + 2);
  const claude = args.some(
    (word, i) => word === '--output=claude' || (word === '--output' && args[i + 1] === 'claude'),
  );
  if (!claude) return undefined;
  return portable
    ? { event: words[fire + 1]!, runner: [], args, project: portable.project }
    : { event: words[fire + 1]!, runner: words.slice(0, fire), args };
}

/*
 * The portable registration (install's project scope, and each host's project files): no path of the installing
 * machine. A POSIX sh prologue finds the project root, then peri-hooks in it (node_modules/.bin, with a node on
 * PATH for that script), else on PATH (the single binary); when neither is there it says so, and exits with the
 * code install chose (2: a block where the event can block and the registration is fail-closed). It ends in
 * `exec`, so that nothing stays between the agent and peri-hooks; a Node too old is the npm bin's own check.
 */
/** Where a project's npm install puts peri-hooks. */
export const PROJECT_BIN = 'node_modules/.bin/peri-hooks';
/** The word that stands for peri-hooks in a portable command's words. */
const PORTABLE_RUNNER = 'peri-hooks';
const ROOT_FROM_VARIABLE = /^d="\$([A-Z_][A-Z0-9_]*)"; /;
const ROOT_FROM_ANCHOR = /^d=\$PWD; until \[ -e "\$d"\/([^ "]+) \] \|\| \[ -z "\$d" \]; do d=\$\{d%\/\*\}; done; /;
const FIND = `p="$d"/${PROJECT_BIN}; { [ -x "$p" ] && command -v node >/dev/null; } || p=$(command -v peri-hooks) || { echo `;
const EXEC = '; exec "$p" ';

/** A word of a portable command: as is, or a path relative to the project root, or to the home of whoever runs it. */
export type PortableWord = string | { inProject: string } | { inHome: string };

/** The portable command line: `words` after peri-hooks (`fire …`), `missing` what it says and exits with when peri-hooks is not there. */
export function portableCommand(
  root: ProjectRoot,
  words: readonly PortableWord[],
  missing: { message: string; exitCode: 1 | 2 },
): string {
  const head =
    'variable' in root
      ? `d="$${root.variable}"; `
      : `d=$PWD; until [ -e "$d"/${root.anchor} ] || [ -z "$d" ]; do d=\${d%/*}; done; `;
  const tail = words
    .map((word) =>
      typeof word === 'string'
        ? shellCommand([word])
        : 'inProject' in word
          ? `"$d"/${shellCommand([word.inProject])}`
          : `"$HOME"/${shellCommand([word.inHome])}`,
    )
    .join(' ');
  return `${head}${FIND}${shellCommand([missing.message])} >&2; exit ${missing.exitCode}; }${EXEC}${tail}`;
}

/** The words after peri-hooks of a portable command (project paths as `$d/…`), and how it finds the project; undefined for any other command. */
export function readPortable(command: string): { words: string[]; project: ProjectRoot } | undefined {
  const variable = ROOT_FROM_VARIABLE.exec(command);
  const anchor = variable ? undefined : ROOT_FROM_ANCHOR.exec(command);
  const head = variable ?? anchor;
  if (!head || !command.startsWith(FIND, head[0].length)) return undefined;
  const at = command.indexOf(EXEC, head[0].length + FIND.length);
  const words = at < 0 ? undefined : shellWords(command.slice(at + EXEC.length));
  if (!words) return undefined;
  return { words, project: variable ? { variable: variable[1]! } : { anchor: anchor![1]! } };
}

/** The words of a command that may start peri-hooks: a portable one's with `peri-hooks` first, else the simple command's. */
export function commandWords(command: string): string[] | undefined {
  const portable = readPortable(command);
  return portable ? [PORTABLE_RUNNER, ...portable.words] : shellWords(command);
}

/** A registration's arguments with its project paths (`$d/…`) made absolute for the project at `projectDir`. */
export function projectArgs(args: readonly string[], projectDir: string): string[] {
  return args.map((arg) => (arg.startsWith('$d/') ? `${projectDir.replace(/\/+$/, '')}/${arg.slice(3)}` : arg));
}

/** A registration that loadSettings follows: its event, its words after `fire <Event>`, where it sits. */
export interface FollowedRegistration {
  event: string;
  args: string[];
  pointer: string;
}

/**
 * The policy files (as written: `$d/…` in a portable one) that a registration's firing loads, when that is all
 * it loads (`--setting-sources none`, files, no plugins); else why it cannot be followed.
 */
export function followedPolicies(
  handler: Handler,
): { policies: string[]; args: string[] } | { server: string } | { why: string } {
  const registration = readRegistration(handler);
  if (!registration)
    return {
      server: readMcpRegistration(handler)
        ? `its MCP server ${MCP_SERVER_NAME} (install --via mcp)`
        : (readServeRegistration(handler)?.server ?? 'a server'),
    };
  const { args } = registration;
  const values = (flag: string) =>
    args.flatMap((arg, i) =>
      arg === flag && args[i + 1] !== undefined
        ? [args[i + 1]!]
        : arg.startsWith(`${flag}=`)
          ? [arg.slice(flag.length + 1)]
          : [],
    );
  const sources = values('--setting-sources');
  const policies = values('--settings');
  // `install --project-hooks`: the project's own files, which the loader reads as sources already.
  const projectOnly = sources.length === 1 && /^(project|local)(,(project|local))*$/.test(sources[0]!);
  if (sources.length !== 1 || (!['none', ''].includes(sources[0]!) && !projectOnly))
    return { why: 'it loads settings besides its policy files: add --setting-sources none' };
  if (policies.length === 0 && !projectOnly) return { why: 'it names no policy file' };
  if (policies.some((policy) => policy.trimStart().startsWith('{'))) return { why: 'its policy is inline JSON' };
  if (values('--plugin-dir').length > 0) return { why: 'it loads plugins' };
  return { policies, args };
}

/** What `install --serve` writes on its http hooks, so that they are known apart from every other http hook. */
export const SERVE_REGISTRATION_HEADER = 'X-Peri-Hooks';
/** The request header `serve` reads the project from, as fire reads CLAUDE_PROJECT_DIR. */
export const SERVE_PROJECT_HEADER = 'X-Peri-Hooks-Project-Dir';

type Handler = {
  type: string;
  server?: string;
  tool?: string;
  command?: string;
  args?: string[] | undefined;
  url?: string;
  headers?: Record<string, string> | undefined;
  allowedEnvVars?: string[] | undefined;
};

export interface ServeRegistration {
  event: string;
  server: string;
  /** The Authorization header as written (`Bearer $VAR`, from install --token-env), and the variables it may use. */
  authorization?: { template: string; allowedEnvVars: string[] };
}

/** The server an http registration (`install --serve`) points at, and the event it fires; undefined for other handlers. */
export function readServeRegistration(handler: Handler): ServeRegistration | undefined {
  if (
    handler.type !== 'http' ||
    handler.url === undefined ||
    handler.headers?.[SERVE_REGISTRATION_HEADER] === undefined
  )
    return undefined;
  const match = /^(.*)\/hooks\/([A-Za-z]+)$/.exec(handler.url.split('?')[0]!);
  if (!match) return undefined;
  const template = Object.entries(handler.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return {
    server: match[1]!,
    event: match[2]!,
    ...(template === undefined ? {} : { authorization: { template, allowedEnvVars: handler.allowedEnvVars ?? [] } }),
  };
}

/** The MCP server `install --via mcp` defines (`peri-hooks mcp`), and the tool its mcp_tool hooks call. */
export const MCP_SERVER_NAME = 'peri-hooks';
export const MCP_FIRE_TOOL = 'fire';

/** Whether this handler is an mcp_tool hook that calls peri-hooks' fire tool (install --via mcp); the event is the one it stands under. */
export function readMcpRegistration(handler: Handler): boolean {
  return handler.type === 'mcp_tool' && handler.server === MCP_SERVER_NAME && handler.tool === MCP_FIRE_TOOL;
}

/** Whether this handler of `event` is peri-hooks firing that same event for Claude Code, as a command, at a server or through its MCP server. */
export function isOwnRegistration(event: EventName, handler: Handler): boolean {
  return readMcpRegistration(handler) || (readRegistration(handler) ?? readServeRegistration(handler))?.event === event;
}

/** The shell command line of these words: each quoted only when it needs it. */
export function shellCommand(words: readonly string[]): string {
  return words
    .map((word) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))
    .join(' ');
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
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
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
