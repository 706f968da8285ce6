// `doctor` and Gemini CLI's gate: Gemini 0.61 runs the hooks of its settings files only in a trusted folder
// (packages/core hookRegistry, hookRunner). Headless, it refuses an untrusted folder; an interactive session there
// skips the hooks and says nothing. Trust is decided as its checkPathTrust decides it: GEMINI_RESTRICTED_MODE and
// GEMINI_CLI_TRUST_WORKSPACE, then the user's `security.folderTrust.enabled: false`, then the longest matching
// rule of trustedFolders.json.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import type { LoadOptions } from '../config/index.ts';
import { displayPath } from '../text.ts';
import { type Check, check } from './check.ts';

type Trust = { trusted: boolean; why: string };

export function geminiGate(location: Pick<LoadOptions, 'projectDir' | 'home' | 'env'>): Check {
  const folder = path.resolve(location.projectDir ?? '.');
  const home = location.home ?? location.env.HOME ?? '';
  const trust = geminiTrust(folder, home, location.env);
  if (trust.trusted)
    return check(
      'gate',
      'pass',
      'Gemini CLI trust',
      `${displayPath(folder)} is trusted (${trust.why}): Gemini CLI runs its hooks`,
    );
  const file = trustedFoldersFile(home, location.env);
  return check(
    'gate',
    'fail',
    'Gemini CLI trust',
    `${displayPath(folder)} is not trusted (${trust.why}): Gemini CLI runs no hook of its settings files there — an interactive session goes on without the registration and says nothing; a headless run (-p) refuses to start`,
    `trust the folder: accept Gemini CLI's trust prompt in it, or add "${folder}": "TRUST_FOLDER" to ${displayPath(file)}; for headless runs, --skip-trust or GEMINI_CLI_TRUST_WORKSPACE=true`,
  );
}

function geminiTrust(folder: string, home: string, env: Record<string, string | undefined>): Trust {
  if (env.GEMINI_RESTRICTED_MODE === 'true') return { trusted: false, why: 'GEMINI_RESTRICTED_MODE=true' };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'false') return { trusted: false, why: 'GEMINI_CLI_TRUST_WORKSPACE=false' };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true')
    return { trusted: true, why: 'GEMINI_CLI_TRUST_WORKSPACE=true in this environment; Gemini must get it too' };
  const settings = readJson(path.join(home, '.gemini', 'settings.json'));
  if (
    (settings.value as { security?: { folderTrust?: { enabled?: unknown } } } | undefined)?.security?.folderTrust
      ?.enabled === false
  ) {
    return { trusted: true, why: `folder trust is off in ${displayPath(path.join(home, '.gemini', 'settings.json'))}` };
  }
  const file = trustedFoldersFile(home, env);
  const rules = readJson(file);
  if (rules.error)
    return { trusted: false, why: `${displayPath(file)} does not parse (${rules.error}), and Gemini CLI stops on it` };
  const here = real(folder);
  let best: { length: number; level: string } | undefined;
  for (const [rule, level] of Object.entries((rules.value ?? {}) as Record<string, unknown>)) {
    const base = real(level === 'TRUST_PARENT' ? path.dirname(rule) : rule);
    const inside = here === base || here.startsWith(base.endsWith(path.sep) ? base : `${base}${path.sep}`);
    if (inside && rule.length > (best?.length ?? -1)) best = { length: rule.length, level: String(level) };
  }
  if (best?.level === 'TRUST_FOLDER' || best?.level === 'TRUST_PARENT')
    return { trusted: true, why: `${best.level} in ${displayPath(file)}` };
  if (best?.level === 'DO_NOT_TRUST') return { trusted: false, why: `DO_NOT_TRUST in ${displayPath(file)}` };
  return { trusted: false, why: `no rule in ${displayPath(file)} trusts it` };
}

function trustedFoldersFile(home: string, env: Record<string, string | undefined>): string {
  return env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || path.join(home, '.gemini', 'trustedFolders.json');
}

function real(file: string): string {
  try {
    return existsSync(file) ? realpathSync(file) : file;
  } catch {
    return file;
  }
}

/** A JSON file that may hold comments, as Gemini reads its settings; an absent file is an empty value. */
function readJson(file: string): { value?: unknown; error?: string } {
  if (!existsSync(file)) return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(readFileSync(file, 'utf8'), errors, { allowTrailingComma: true });
  return errors.length > 0
    ? { error: `${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}` }
    : { value };
}
