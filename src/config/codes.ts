// Every diagnostic code the settings stage emits (spec §1, §5), once, with what the finding costs. The
// loader can emit only these codes; `validate` and the case-file runner read the costs from here; and
// test/config/codes.test.ts triggers every one that is not reserved, so the list can neither miss a code
// nor keep a dead one.

import { printable } from '../text.ts';
import type { Diagnostic } from '../types.ts';

/**
 * What a finding costs. `file`: the settings file cannot be read or parsed, so nothing of it loads.
 * `hooks`: configured hooks never run (an entry, a hooks file, a plugin or a whole source is dropped).
 * `nothing`: every hook still loads; the finding is advice, or a setting that is ignored.
 */
export type LoaderCodeCost = 'file' | 'hooks' | 'nothing';

export const LOADER_CODES = {
  'file-missing': 'file',
  'settings-unreadable': 'file',
  'invalid-json': 'file',
  'too-deeply-nested': 'file',
  'not-an-object': 'file',
  'source-inapplicable': 'hooks',
  // A --settings file that is empty or holds no hooks: what it held is lost (a truncated save, a full disk).
  'policy-without-hooks': 'hooks',
  'plugin-dir-missing': 'hooks',
  'plugin-hooks-invalid': 'hooks',
  'plugin-hooks-duplicate': 'nothing',
  'invalid-setting': 'nothing',
  'managed-only-setting': 'nothing',
  'trust-setting-ignored': 'nothing',
  // A project or local hook that trust keeps from running (trust/enforce.ts): its policy is not enforced.
  'hook-untrusted': 'hooks',
  'hooks-not-object': 'hooks',
  'unknown-event': 'hooks',
  'event-not-array': 'hooks',
  'group-not-object': 'hooks',
  'handler-without-group': 'hooks',
  'matcher-not-string': 'hooks',
  'group-hooks-missing': 'hooks',
  'group-hooks-not-array': 'hooks',
  'field-on-group': 'nothing',
  'invalid-sequential': 'nothing',
  'handler-not-object': 'hooks',
  'handler-missing-type': 'hooks',
  'unknown-hook-type': 'hooks',
  'missing-field': 'hooks',
  'wrong-type': 'hooks',
  'invalid-url': 'hooks',
  'invalid-value': 'hooks',
  'invalid-timeout': 'hooks',
  'invalid-handler': 'hooks',
  'timeout-in-ms': 'nothing',
  'empty-value': 'nothing',
  'peri-alias': 'nothing',
  'peri-alias-shadowed': 'nothing',
  // peri-hooks' own registration is not run by peri-hooks, but followed to its policy: nothing is lost.
  'own-registration': 'nothing',
  // One that cannot be followed (a server, a hand-written command): its policy is not seen.
  'registration-not-followed': 'hooks',
} as const satisfies Record<string, LoaderCodeCost>;

export type LoaderCode = keyof typeof LOADER_CODES;

/**
 * The codes of `validate`'s lint rules (src/validate/rules.ts, where each rule has its severity). Each rule
 * reports under one or more of these; test/validate/rules.test.ts checks that every one belongs to a rule.
 */
export const LINT_CODES = [
  'matcher-ignored',
  'invalid-regex',
  'catastrophic-regex',
  'matcher-too-wide',
  'mcp-server-without-tool',
  'unsupported-hook-type',
  'if-ignored',
  'malformed-if',
  'plugin-root-outside-plugin',
  'program-not-found',
  'program-not-executable',
  'unquoted-path-variable',
  'exit-1-does-not-block',
  'duplicate-handler',
  'mcp-server-unknown',
  'matcher-case',
  'unknown-tool',
  'relative-script-path',
] as const;

export type LintCode = (typeof LINT_CODES)[number];

/** Codes kept although no settings file can raise them today, each with the reason. */
export const RESERVED_LOADER_CODES: Readonly<Partial<Record<LoaderCode, string>>> = {
  'invalid-handler':
    'the fallback for a handler problem that the other codes do not name; the current handler schemas raise none',
  'hook-untrusted': 'emitted by the trust stage of a firing (trust/enforce.ts), not by loading: test/e2e/trust.test.ts',
};

/** A diagnostic of the settings stage: its code is one of the list. */
export interface LoaderDiagnostic extends Diagnostic {
  code: LoaderCode;
}

/** The cost of any diagnostic's code; undefined for codes of other stages (plan, runtime). */
export function loaderCodeCost(code: string): LoaderCodeCost | undefined {
  return Object.hasOwn(LOADER_CODES, code) ? LOADER_CODES[code as LoaderCode] : undefined;
}

/**
 * The findings that leave policy of `event` unenforced: a file or source that does not load, or a dropped entry
 * of this event (or of an event name that does not exist, which may have been meant for it).
 */
export function unenforcedBy(event: string, diagnostics: readonly LoaderDiagnostic[]): LoaderDiagnostic[] {
  return diagnostics.filter((diagnostic) => {
    const cost = LOADER_CODES[diagnostic.code];
    if (cost === 'file' || diagnostic.code === 'source-inapplicable') return true;
    if (cost !== 'hooks') return false;
    const [, root, name] = (diagnostic.pointer ?? '').split('/');
    return root !== 'hooks' || name === undefined || name === event || diagnostic.code === 'unknown-event';
  });
}

/**
 * The policy of `event` that did not load, among any stage's diagnostics, one line each naming the file and the
 * fix: what `--fail-closed` blocks on, and what every answer must say when it does not block.
 */
export function unenforcedLines(event: string, diagnostics: readonly Diagnostic[]): string[] {
  const loader = diagnostics.filter(
    (diagnostic): diagnostic is LoaderDiagnostic => loaderCodeCost(diagnostic.code) !== undefined,
  );
  return unenforcedBy(event, loader).map((diagnostic) => {
    const where =
      diagnostic.file && !diagnostic.message.includes(diagnostic.file)
        ? `${diagnostic.file}${diagnostic.pointer ? ` (${diagnostic.pointer})` : ''}: `
        : '';
    return printable(`${where}${diagnostic.message}${diagnostic.fix ? ` (fix: ${diagnostic.fix})` : ''}`);
  });
}

/** A source the user named (a --settings file, a --plugin-dir) that does not exist, as an error message: worth more than a warning. */
export function namedSourceMissing(
  diagnostics: readonly LoaderDiagnostic[],
): { message: string; fix?: string } | undefined {
  // The other file-missing, a hooks file that plugin.json names, always points into plugin.json.
  const missing = diagnostics.find(
    (diagnostic) =>
      diagnostic.code === 'plugin-dir-missing' ||
      (diagnostic.code === 'file-missing' && diagnostic.pointer === undefined),
  );
  if (!missing) return undefined;
  const what = missing.code === 'plugin-dir-missing' ? '--plugin-dir folder' : '--settings file';
  return { message: `the ${what} ${missing.file} does not exist`, ...(missing.fix ? { fix: missing.fix } : {}) };
}
