// Which settings sources a command reads: fire, validate, explain, list and replay take the same options.
import { homedir } from 'node:os';
import type { LoadOptions } from './index.ts';

export interface SourceOptions {
  /** Project root; default CLAUDE_PROJECT_DIR, else the input's cwd. */
  projectDir?: string;
  settings?: string[];
  pluginDirs?: string[];
  settingSources?: LoadOptions['settingSources'];
  managedDir?: string;
  /** Environment the hooks inherit and settings discovery reads; default process.env. */
  env?: Record<string, string | undefined>;
  home?: string;
}

/** The loader's options for these sources; `cwd` is the project root when neither the option nor CLAUDE_PROJECT_DIR names one. */
export function sourcesToLoad(options: SourceOptions, cwd: string): LoadOptions {
  const env = options.env ?? process.env;
  return {
    projectDir: options.projectDir ?? env.CLAUDE_PROJECT_DIR ?? cwd,
    home: options.home ?? env.HOME ?? homedir(),
    env,
    ...(options.managedDir ? { managedDir: options.managedDir } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
    ...(options.settingSources ? { settingSources: options.settingSources } : {}),
  };
}
