// Test helper: a throw-away folder with real files, and settings loaded from it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { type LoadOptions, loadSettings } from '../../src/config/index.ts';
import type { LoadedHook } from '../../src/types.ts';

/** Writes `files` (path → text, or a value written as pretty JSON) under a fresh temporary root. */
export async function tree(files: Record<string, string | object>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'peri-settings-'));
  after(() => rm(root, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return root;
}

/** Loads with home `<root>/home`, project `<root>/project`, managed `<root>/managed` unless overridden. */
export function load(root: string, options: Partial<LoadOptions> = {}) {
  return loadSettings({
    home: path.join(root, 'home'),
    projectDir: path.join(root, 'project'),
    managedDir: path.join(root, 'managed'),
    env: {},
    ...options,
  });
}

/** A settings object with one command hook per event given. */
export function hooksFor(
  command: string,
  events: string[] = ['PreToolUse'],
  extra: object = {},
): { hooks: Record<string, object[]> } {
  return {
    ...extra,
    hooks: Object.fromEntries(
      events.map((event) => [event, [{ matcher: '*', hooks: [{ type: 'command', command }] }]]),
    ),
  };
}

export const USER = 'home/.claude/settings.json';
export const PROJECT = 'project/.claude/settings.json';
export const LOCAL = 'project/.claude/settings.local.json';
export const MANAGED = 'managed/managed-settings.json';

/** The command of a command hook (undefined for other types). */
export function commandOf(hook: LoadedHook): string | undefined {
  return hook.handler.type === 'command' ? hook.handler.command : undefined;
}
