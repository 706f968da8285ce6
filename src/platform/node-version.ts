// The runtime check that runs before the bundle is even parsed (npm-bin.ts, the npm `bin`): on a Node too old
// for the bundle, say so, instead of dying inside it with an internal error that Claude Code reads as "go on".
// It imports nothing, and is compiled for old Node versions (scripts/build.ts), so that they can run it.

export const MINIMUM_NODE = { major: 22, minor: 19 } as const;

/**
 * The events whose hooks can block (family other than `observe` in events.ts): where --fail-closed turns an
 * unsupported runtime into a block. A copy for this check alone, since the catalogue cannot load here (everywhere
 * else canBlock in events.ts says it); a test keeps them equal.
 */
export const BLOCKABLE_EVENTS: readonly string[] = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'Stop',
  'SubagentStop',
  'PreCompact',
  'PreModelSwitch',
  'PermissionRequest',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'PreSkillShellCommand',
];

export interface RuntimeRefusal {
  /** What to print on stderr, newline-terminated. */
  message: string;
  exitCode: 1 | 2;
}

/** Undefined when `version` (process.version, e.g. "v20.20.2") can run peri-hooks. */
export function runtimeRefusal(version: string, argv: readonly string[]): RuntimeRefusal | undefined {
  const [major = 0, minor = 0] = version
    .replace(/^v/, '')
    .split('.')
    .map((part) => parseInt(part, 10) || 0);
  if (major > MINIMUM_NODE.major || (major === MINIMUM_NODE.major && minor >= MINIMUM_NODE.minor)) return undefined;
  const message = `peri-hooks needs Node >= ${MINIMUM_NODE.major}.${MINIMUM_NODE.minor} (found ${version}); use the single binary or a newer Node\n`;
  if (!blocksWhenFailing(argv)) return { message, exitCode: 1 };
  return { message: `${message}peri-hooks: blocking because of --fail-closed\n`, exitCode: 2 };
}

/**
 * `fire <event that can block> --fail-closed`, read without the real parser (it cannot load here). Where the
 * flags stand is not parsed: any blockable event name after `fire` counts, erring towards the block.
 */
function blocksWhenFailing(argv: readonly string[]): boolean {
  const fire = argv.indexOf('fire');
  if (fire === -1 || argv.indexOf('--fail-closed') === -1) return false;
  return argv.slice(fire + 1).some((word) => BLOCKABLE_EVENTS.indexOf(word) !== -1);
}
