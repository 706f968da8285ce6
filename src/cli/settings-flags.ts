// The flags of the commands that work on Claude Code's own settings files (install, uninstall, doctor).
import path from 'node:path';
import type { LoadOptions } from '../config/index.ts';
import { sourcesToLoad } from '../config/sources.ts';
import { PeriHooksError } from '../errors.ts';
import { checkEvent, type EventName } from '../events.ts';
import { SCOPES, type Scope } from '../install/settings-file.ts';
import { oneOf } from './io.ts';

export interface SettingsFlags {
  scope?: string;
  events?: string;
  projectDir?: string;
  managedDir?: string;
}

export function scopeOf(flags: SettingsFlags): Scope {
  return oneOf('--scope', flags.scope, SCOPES, 'project');
}

/** Where the scopes' files are: the project is found as validate and list find it (--project-dir, CLAUDE_PROJECT_DIR, else from here). */
export function settingsLocation(
  flags: SettingsFlags,
): Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir'> {
  const { projectDir, home, env, managedDir } = sourcesToLoad(
    {
      ...(flags.projectDir ? { projectDir: flags.projectDir } : {}),
      ...(flags.managedDir ? { managedDir: flags.managedDir } : {}),
    },
    process.cwd(),
  );
  return { projectDir: path.resolve(projectDir), home, env, ...(managedDir ? { managedDir } : {}) };
}

/** `--events PreToolUse,Stop`; undefined without it. */
export function eventsOf(flags: SettingsFlags): EventName[] | undefined {
  if (flags.events === undefined) return undefined;
  const events = [
    ...new Set(
      String(flags.events)
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '')
        .map(checkEvent),
    ),
  ];
  if (events.length === 0)
    throw new PeriHooksError(
      'usage',
      '--events names no event',
      'give a comma-separated list, e.g. --events PreToolUse,Stop, or leave the flag out',
    );
  return events;
}

/** Whether install registers fail-closed: the default, unless --fail-open (or --serve without --fail-closed). */
export function failClosedOf(flags: { failClosed?: boolean; failOpen?: boolean; serve?: string }): boolean {
  if (flags.failClosed === true && flags.failOpen === true)
    throw new PeriHooksError(
      'usage',
      '--fail-closed and --fail-open contradict each other',
      'give one of them (fail-closed is the default)',
    );
  return flags.serve === undefined ? flags.failOpen !== true : flags.failClosed === true;
}

/** `--audit <file>` as install takes it: a file name (not PERI_HOOKS_AUDIT, which is this shell's). */
export function auditFlag(value: unknown): { audit?: string } {
  if (value === undefined) return {};
  if (typeof value !== 'string' || value === '')
    throw new PeriHooksError(
      'usage',
      '--audit needs the file of the audit log',
      'e.g. --audit ~/.local/state/peri-hooks/audit.jsonl',
    );
  return { audit: value };
}
