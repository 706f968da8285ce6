// What the MCP server lookup reads, built from a command's settings sources and its --mcp-config values in
// one place, so that fire, serve, validate, explain and doctor find the same servers. No imports: fire's
// start-up pays for this file only.
import type { LoadOptions } from '../index.ts';

export interface LookupOptions {
  projectDir: string;
  home: string;
  /** CLAUDE_CONFIG_DIR and PERI_HOOKS_MANAGED_DIR are read here; `${VAR}` expands from here. */
  env: Record<string, string | undefined>;
  /** `--managed-dir`: the folder of managed-mcp.json, as of managed-settings.json. */
  managedDir?: string;
  /** `--plugin-dir` values: their servers are plugin:<plugin>:<server>. */
  pluginDirs?: string[];
  /** `--mcp-config` values: a file, or inline JSON when the trimmed value starts with `{`. */
  mcpConfigs?: string[];
  /** false: the project's own files (.mcp.json, .claude/settings.local.json) are not read. */
  projectFiles?: boolean;
}

export function lookupOptions(
  sources: Pick<LoadOptions, 'projectDir' | 'home' | 'env' | 'managedDir' | 'pluginDirs'> & { projectFiles?: boolean },
  mcpConfigs?: readonly string[],
): LookupOptions {
  return {
    ...(sources.projectFiles === false ? { projectFiles: false } : {}),
    projectDir: sources.projectDir,
    home: sources.home,
    env: sources.env,
    ...(sources.managedDir ? { managedDir: sources.managedDir } : {}),
    ...(sources.pluginDirs && sources.pluginDirs.length > 0 ? { pluginDirs: sources.pluginDirs } : {}),
    ...(mcpConfigs && mcpConfigs.length > 0 ? { mcpConfigs: [...mcpConfigs] } : {}),
  };
}
