// One source's text, read and parsed as a JSON object; every way that fails is a located diagnostic and the
// source is skipped.
import { deniedPermissionFlag, permissionError } from '../errors.ts';
import { readSettingsBytes } from '../platform/files.ts';
import type { LoaderDiagnostic } from './codes.ts';
import type { SourceReport } from './index.ts';
import type { FileResult } from './load.ts';
import { positionAt, syntaxErrorPosition } from './locate.ts';
import { excessNesting, MAX_NESTING } from './nesting.ts';
import { clip, isRecord, type Origin } from './walk.ts';

const STRICT_JSON = 'settings files are strict JSON: no comments, no trailing commas, double-quoted keys';

export type Read = { kind: 'missing' } | { kind: 'error'; message: string } | { kind: 'text'; text: string };

type Parsed = { ok: true; value: Record<string, unknown>; text: string } | { ok: false; result: FileResult };

/**
 * Read synchronously: a settings file is small and, once checked, a regular file; a hop through libuv's thread pool
 * per call, and starting the pool's four threads, cost a firing more than the reads themselves.
 */
export async function readText(file: string): Promise<Read> {
  try {
    const read = readSettingsBytes(file);
    if ('refused' in read) return { kind: 'error', message: read.refused };
    const text = read.bytes.toString('utf8');
    return { kind: 'text', text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (error) {
    const flag = deniedPermissionFlag(error);
    if (flag) throw permissionError(`to read ${file}`, flag);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'error', message: code === 'EISDIR' ? 'it is a directory' : (error as Error).message };
  }
}

export async function parseDocument(origin: Origin, read: Read, required: boolean): Promise<Parsed> {
  const fail = (status: SourceReport['status'], diagnostic?: LoaderDiagnostic): Parsed => ({
    ok: false,
    result: {
      report: { layer: origin.layer, file: origin.file, status, hooks: 0 },
      hooks: [],
      unapplied: [],
      diagnostics: diagnostic ? [diagnostic] : [],
    },
  });
  const { file } = origin;
  if (read.kind === 'missing') {
    return fail(
      'missing',
      required
        ? {
            severity: 'warning',
            code: 'file-missing',
            message: `--settings file does not exist: ${file}`,
            file,
            fix: 'give the path of a settings file, or inline JSON starting with {',
          }
        : undefined,
    );
  }
  if (read.kind === 'error') {
    return fail('invalid', {
      severity: 'warning',
      code: 'settings-unreadable',
      message: `cannot read ${file}: ${read.message}; its settings are skipped`,
      file,
      fix: 'make it a readable file (or remove it)',
    });
  }
  const { text } = read;
  // An empty file is an empty configuration, not a syntax error.
  if (text.trim() === '') return { ok: true, value: {}, text };
  const subject = file.startsWith('--settings') ? `${file} value ${JSON.stringify(clip(text))}` : file;
  const tooDeep = excessNesting(text);
  if (tooDeep !== undefined) {
    return fail('invalid', {
      severity: 'warning',
      code: 'too-deeply-nested',
      message: `${subject} nests arrays and objects more than ${MAX_NESTING} levels deep; its settings are skipped`,
      file,
      ...positionAt(text, tooDeep),
      fix: 'flatten or remove the value that goes that deep: hook settings need only a few levels',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const raw = (error as Error).message;
    const position = await syntaxErrorPosition(text, raw);
    const reason = raw.replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
    return fail('invalid', {
      severity: 'warning',
      code: 'invalid-json',
      message: `${subject} is not valid JSON (${reason}); its settings are skipped`,
      file,
      ...position,
      fix: STRICT_JSON,
    });
  }
  if (!isRecord(value)) {
    return fail('invalid', {
      severity: 'warning',
      code: 'not-an-object',
      message: `${file} must hold a JSON object; its settings are skipped`,
      file,
      line: 1,
      column: 1,
      fix: 'write { "hooks": { ... } }',
    });
  }
  return { ok: true, value, text };
}
