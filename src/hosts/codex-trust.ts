// Codex CLI's gate: it loads a project's .codex/ only when the project is trusted (`[projects."<dir>"]
// trust_level = "trusted"` in $CODEX_HOME/config.toml), and runs a hook of hooks.json only when
// `[hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash` is the hash it computes for that entry
// (openai/codex codex-rs/hooks/src/engine/discovery.rs `command_hook_hash`, config/src/fingerprint.rs
// `version_for_toml`): sha256 of the compact JSON, keys sorted, of `{event_name: <snake_case event>,
// matcher?, hooks: [{type: "command", command, timeout: <s, default 600, at least 1, SessionEnd's at most 3>,
// async, statusMessage?}]}`.
// The test suite checks it against the real Codex's `hooks/list` `currentHash`.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One hook of a hooks.json, as Codex keys and hashes it: a command, or an mcp_tool hook (its server and tool). */
export interface CodexHook {
  key: string;
  hash: string;
  command?: string;
  mcp?: { server: string; tool: string };
}

/** Codex clamps these events' timeouts (seconds), and hashes the clamped value (observed: hooks/list of 0.171.0). */
const TIMEOUT_CAPS: Readonly<Record<string, number>> = { session_end: 3 };

/** Codex's config.toml: $CODEX_HOME/config.toml, else ~/.codex/config.toml. */
export function codexConfigFile(env: Readonly<Record<string, string | undefined>>, home: string): string {
  return path.join(env.CODEX_HOME || path.join(home, '.codex'), 'config.toml');
}

/** Every command hook of a hooks.json text (the file at `file`), with Codex's key and hash. */
export function codexHooks(file: string, text: string): CodexHook[] {
  const events = (JSON.parse(text) as { hooks?: Record<string, unknown> }).hooks ?? {};
  const hooks: CodexHook[] = [];
  for (const [event, groups] of Object.entries(events)) {
    if (!Array.isArray(groups)) continue;
    const label = event.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();
    groups.forEach((group: { matcher?: unknown; hooks?: unknown }, groupIndex) => {
      if (!Array.isArray(group?.hooks)) return;
      group.hooks.forEach((handler: Record<string, unknown>, handlerIndex) => {
        const timeout = Math.min(
          TIMEOUT_CAPS[label] ?? Infinity,
          Math.max(1, typeof handler?.timeout === 'number' ? handler.timeout : 600),
        );
        const status = typeof handler?.statusMessage === 'string' ? { statusMessage: handler.statusMessage } : {};
        // An mcp_tool hook is hashed the same way, its handler as {type, server, tool, input, timeout} (observed:
        // hooks/list of 0.171.0).
        const mcp =
          handler?.type === 'mcp_tool' && typeof handler.server === 'string' && typeof handler.tool === 'string'
            ? { server: handler.server, tool: handler.tool }
            : undefined;
        if (!mcp && (handler?.type !== 'command' || typeof handler.command !== 'string')) return;
        const normalised = mcp
          ? { type: 'mcp_tool', ...mcp, input: handler.input ?? {}, timeout, ...status }
          : { type: 'command', command: handler.command, timeout, async: handler.async === true, ...status };
        const identity = {
          event_name: label,
          ...(typeof group.matcher === 'string' ? { matcher: group.matcher } : {}),
          hooks: [normalised],
        };
        hooks.push({
          key: `${file}:${label}:${groupIndex}:${handlerIndex}`,
          hash: `sha256:${createHash('sha256')
            .update(JSON.stringify(sorted(identity)))
            .digest('hex')}`,
          ...(mcp ? { mcp } : { command: handler.command as string }),
        });
      });
    });
  }
  return hooks;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The tables of a config.toml that Codex writes (`[a."b c"]` headers, `key = "string" | true | false` lines):
 * header path joined with NUL → key → value. Inline tables and arrays are not read.
 */
export function readToml(text: string): Map<string, Map<string, string | boolean>> {
  const tables = new Map<string, Map<string, string | boolean>>([['', new Map()]]);
  let current = tables.get('')!;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = /^\[([^[\]].*)\]$/.exec(line);
    if (header) {
      const name = tomlPath(header[1]!).join('\0');
      current = tables.get(name) ?? new Map();
      tables.set(name, current);
      continue;
    }
    const pair = /^("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*=\s*(.*)$/.exec(line);
    if (!pair) continue;
    const value = tomlValue(pair[2]!);
    if (value !== undefined) current.set(tomlKey(pair[1]!), value);
  }
  return tables;
}

/** The parts of a dotted TOML key (`hooks.state."/a/b:stop:0:0"`). */
function tomlPath(text: string): string[] {
  return [...text.matchAll(/\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*(?:\.|$)/g)].map((match) =>
    tomlKey(match[1]!),
  );
}

function tomlKey(text: string): string {
  return text.startsWith('"') ? (JSON.parse(text) as string) : text.startsWith("'") ? text.slice(1, -1) : text;
}

function tomlValue(text: string): string | boolean | undefined {
  const value = text.replace(/\s+#.*$/, '').trim();
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^"(?:[^"\\]|\\.)*"$/.test(value)) return JSON.parse(value) as string;
  if (/^'[^']*'$/.test(value)) return value.slice(1, -1);
  return undefined;
}

/** A TOML basic string (JSON's escapes are TOML's). */
const tomlString = (text: string) => JSON.stringify(text);

/** config.toml with `trusted_hash` set for each hook: in its table where there is one, else in a new table at the end. */
export function withTrustedHashes(text: string, hooks: readonly CodexHook[]): string {
  let result = text;
  for (const hook of hooks) {
    const header = `[hooks.state.${tomlString(hook.key)}]`;
    const lines = result.split('\n');
    const at = lines.findIndex(
      (line) =>
        line.trim() !== '' &&
        tomlPath(line.trim().slice(1, -1)).join('\0') === ['hooks', 'state', hook.key].join('\0') &&
        /^\s*\[[^[]/.test(line),
    );
    const setting = `trusted_hash = ${tomlString(hook.hash)}`;
    if (at < 0) {
      result = `${result}${result === '' || result.endsWith('\n\n') ? '' : result.endsWith('\n') ? '\n' : '\n\n'}${header}\n${setting}\n`;
      continue;
    }
    let end = lines.findIndex((line, index) => index > at && /^\s*\[/.test(line));
    if (end < 0) end = lines.length;
    const existing = lines.findIndex((line, index) => index > at && index < end && /^\s*trusted_hash\s*=/.test(line));
    if (existing >= 0) lines[existing] = setting;
    else lines.splice(at + 1, 0, setting);
    result = lines.join('\n');
  }
  return result;
}

/** Why Codex would not run a hook, or undefined when it runs it. */
export function hookGate(hook: CodexHook, config: ReturnType<typeof readToml>): string | undefined {
  const state = config.get(['hooks', 'state', hook.key].join('\0'));
  if (state?.get('enabled') === false) return 'disabled in Codex (enabled = false)';
  const trusted = state?.get('trusted_hash');
  if (trusted === undefined) return 'not trusted by Codex (never reviewed)';
  if (trusted !== hook.hash)
    return 'modified since Codex trusted it (its trusted_hash is for another command or timeout)';
  return undefined;
}

/**
 * Whether Codex trusts the project: `trust_level = "trusted"` for its root (the nearest folder up with .git,
 * else the folder itself) or for the folder.
 */
export function projectTrust(
  projectDir: string,
  config: ReturnType<typeof readToml>,
): { trusted: boolean; root: string } {
  let root = projectDir;
  for (let dir = projectDir; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) {
      root = dir;
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  const level = (dir: string) => config.get(['projects', dir].join('\0'))?.get('trust_level');
  return { trusted: level(root) === 'trusted' || level(projectDir) === 'trusted', root };
}

/** The text of Codex's config.toml, '' when there is none. */
export function readCodexConfig(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}
