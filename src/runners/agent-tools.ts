// Read-only tools for agent hooks: Read, LS, Search. Everything is confined to the project directory and
// the transcript file; a path is checked as written, then again after realpath, so symlinks cannot escape.
import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ToolDefinition } from '../llm/wire.ts';

export interface ToolScope {
  /** The project directory as given, and as realpath resolves it. */
  roots: readonly string[];
  realRoot: string;
  transcript?: string;
  realTranscript?: string;
}

export interface ToolResult {
  content: string;
  isError: boolean;
}

/** One tool result must leave room for the rest of the conversation. */
const OUTPUT_CAP = 20_000;
const LINE_CAP = 2000;
const READ_LINES = 2000;
const SEARCH_FILE_CAP = 1024 * 1024;
const READ_FILE_CAP = 10 * 1024 * 1024;
const WALK_CAP = 20_000;
const MATCH_CAP = 200;
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

export const READ_ONLY_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'Read',
    description: 'Read a text file of the project (or the transcript). Lines are numbered from 1.',
    input_schema: {
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'Absolute, or relative to the project directory.' },
        offset: { type: 'integer', minimum: 1, description: 'First line to show (default 1).' },
        limit: { type: 'integer', minimum: 1, description: `How many lines (default ${READ_LINES}).` },
      },
      required: ['file_path'],
    },
  },
  {
    name: 'LS',
    description: 'List a directory of the project. Directories end with "/".',
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'Default: the project directory.' } },
    },
  },
  {
    name: 'Search',
    description:
      'Find files by glob, and lines by regular expression. A glob without "/" matches file names at any depth ("*.ts"); ' +
      'with "/" it matches paths relative to `path` ("src/**/*.ts"). Without `regex`, lists the matching files. .git and node_modules are skipped.',
    input_schema: {
      type: 'object',
      properties: {
        glob: { type: 'string', description: 'Default "*" (every file).' },
        regex: { type: 'string', description: 'JavaScript regular expression tested against each line.' },
        path: { type: 'string', description: 'Directory to search (default: the project directory).' },
      },
    },
  },
];

export async function createScope(projectDir: string, transcriptPath: string | undefined): Promise<ToolScope> {
  const root = path.resolve(projectDir);
  const realRoot = await realpath(root).catch(() => root);
  const scope: ToolScope = { roots: [root, realRoot], realRoot };
  if (transcriptPath) {
    scope.transcript = path.resolve(root, transcriptPath);
    scope.realTranscript = await realpath(scope.transcript).catch(() => scope.transcript);
  }
  return scope;
}

export async function runTool(
  scope: ToolScope,
  name: string,
  input: unknown,
  signal: AbortSignal,
): Promise<ToolResult> {
  const args = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  try {
    if (name === 'Read') return await readTool(scope, args);
    if (name === 'LS') return await listTool(scope, args);
    if (name === 'Search') return await searchTool(scope, args, signal);
    return failure(`unknown tool ${JSON.stringify(name)}; the tools are Read, LS, Search and StructuredOutput`);
  } catch (error) {
    return failure((error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error)));
  }
}

function success(content: string): ToolResult {
  return { content, isError: false };
}

function failure(content: string): ToolResult {
  return { content, isError: true };
}

const within = (root: string, target: string): boolean => target === root || target.startsWith(root + path.sep);

/** The real path of an allowed file or directory, or why it is refused. */
export async function resolveAllowed(
  scope: ToolScope,
  requested: unknown,
): Promise<{ path: string } | { error: string }> {
  const given = typeof requested === 'string' && requested !== '' ? requested : '.';
  const absolute = path.resolve(scope.roots[0]!, given);
  const refused = {
    error: `refused: ${given} is outside the project directory ${scope.roots[0]}; only files under it, and the transcript, can be read`,
  };
  const isTranscript = (candidate: string): boolean =>
    candidate === scope.transcript || candidate === scope.realTranscript;
  // Checked before touching the file system, so nothing is learnt about paths outside.
  if (!isTranscript(absolute) && !scope.roots.some((root) => within(root, absolute))) return refused;
  let real: string;
  try {
    real = await realpath(absolute);
  } catch {
    return { error: `${given}: no such file or directory` };
  }
  if (!isTranscript(real) && !within(scope.realRoot, real)) return refused;
  return { path: real };
}

async function readTool(scope: ToolScope, args: Record<string, unknown>): Promise<ToolResult> {
  const target = await resolveAllowed(scope, args.file_path);
  if ('error' in target) return failure(target.error);
  if (!(await stat(target.path)).isFile())
    return failure(`${String(args.file_path)} is not a file; use LS for directories`);
  const text = await readText(target.path, READ_FILE_CAP);
  if (text === undefined) return failure(`${String(args.file_path)} is a binary file`);
  const lines = text.split('\n');
  const offset = positive(args.offset, 1);
  const shown = lines.slice(offset - 1, offset - 1 + positive(args.limit, READ_LINES));
  const numbered = shown.map((line, i) => `${offset + i}\t${capLine(line)}`).join('\n');
  const rest = lines.length - (offset - 1 + shown.length);
  return success(capOutput(numbered || '(no lines in this range)', rest > 0 ? `${rest} more lines; use offset` : ''));
}

async function listTool(scope: ToolScope, args: Record<string, unknown>): Promise<ToolResult> {
  const target = await resolveAllowed(scope, args.path);
  if ('error' in target) return failure(target.error);
  const entries = await readdir(target.path, { withFileTypes: true });
  const names = entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
  return success(capOutput(names.join('\n') || '(empty directory)', ''));
}

async function searchTool(scope: ToolScope, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
  const target = await resolveAllowed(scope, args.path);
  if ('error' in target) return failure(target.error);
  const glob = typeof args.glob === 'string' && args.glob !== '' ? args.glob : '*';
  const matchPath = globToRegExp(glob);
  let pattern: RegExp | undefined;
  try {
    pattern = typeof args.regex === 'string' && args.regex !== '' ? new RegExp(args.regex) : undefined;
  } catch (error) {
    return failure(`invalid regex: ${(error as Error).message}`);
  }
  const out: string[] = [];
  for await (const file of walk(scope, target.path, signal)) {
    const relative = path.relative(target.path, file).split(path.sep).join('/');
    if (!matchPath.test(glob.includes('/') ? relative : path.posix.basename(relative))) continue;
    const shown = path.relative(scope.realRoot, file).split(path.sep).join('/');
    if (!pattern) {
      out.push(shown);
    } else {
      const text = await readText(file, SEARCH_FILE_CAP);
      text?.split('\n').forEach((line, i) => {
        if (out.length < MATCH_CAP && pattern.test(line)) out.push(`${shown}:${i + 1}: ${capLine(line)}`);
      });
    }
    if (out.length >= MATCH_CAP)
      return success(capOutput(out.join('\n'), `stopped at ${MATCH_CAP} results; narrow the search`));
  }
  return success(capOutput(out.join('\n') || 'no matches', ''));
}

/** Files under `dir` in name order, each directory's files before its subdirectories. Symlinked directories are not followed (no cycles); symlinked files only when they stay inside. */
async function* walk(scope: ToolScope, dir: string, signal: AbortSignal): AsyncGenerator<string> {
  const stack = [dir];
  let seen = 0;
  while (stack.length > 0 && seen < WALK_CAP && !signal.aborted) {
    const current = stack.pop()!;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    const subdirs: string[] = [];
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      seen++;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) subdirs.push(full);
      } else if (entry.isFile()) {
        yield full;
      } else if (entry.isSymbolicLink()) {
        const real = await realpath(full).catch(() => undefined);
        if (real && within(scope.realRoot, real) && (await stat(real)).isFile()) yield full;
      }
    }
    stack.push(...subdirs.reverse()); // popped in name order
  }
}

/** The file as UTF-8, or undefined when it looks binary; at most `cap` bytes. */
async function readText(file: string, cap: number): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, cap);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, 0);
    if (buffer.subarray(0, 8000).includes(0)) return undefined;
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** `*` and `?` stay within one path segment, `**` crosses segments, `{a,b}` and `[...]` as in shells. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '{' && glob.indexOf('}', i) > i) {
      const end = glob.indexOf('}', i);
      source += `(?:${glob
        .slice(i + 1, end)
        .split(',')
        .map((part) => globToRegExp(part).source.slice(1, -1))
        .join('|')})`;
      i = end;
    } else if (char === '[' && glob.indexOf(']', i + 1) > i + 1) {
      const end = glob.indexOf(']', i + 1);
      const body = glob
        .slice(i + 1, end)
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\');
      source += `[${body}]`;
      i = end;
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

function positive(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : fallback;
}

function capLine(line: string): string {
  return line.length > LINE_CAP ? `${line.slice(0, LINE_CAP)}… [line cut]` : line;
}

function capOutput(text: string, note: string): string {
  const cut = text.length > OUTPUT_CAP;
  const body = cut ? text.slice(0, OUTPUT_CAP) : text;
  const notes = [cut ? 'output cut' : '', note].filter(Boolean).join('; ');
  return notes ? `${body}\n[${notes}]` : body;
}
