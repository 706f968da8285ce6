// The settings files of issue 13 item 5, written as a repository's attacker would: each made `fire` die with
// an internal error, so a managed-policy deny beside it never ran.

const handler = (extra: object) => ({
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', ...extra }] }] },
});

export const HOSTILE_FILES: Readonly<Record<string, string>> = {
  'valid JSON nested 50,000 deep, plus a diagnostic': `{"x":${'['.repeat(50_000)}${']'.repeat(50_000)},"hooks":{"Stop":[1]}}`,
  'invalid JSON with 50,000 unclosed brackets': `{"hooks":{"PreToolUse":${'[{"hooks":'.repeat(25_000)}`,
  'a matcher regex too large for V8': JSON.stringify({
    hooks: {
      PreToolUse: [
        { matcher: `${'('.repeat(30_000)}${')'.repeat(30_000)}`, hooks: [{ type: 'command', command: 'true' }] },
      ],
    },
  }),
  'an if rule with 100,000 stars': JSON.stringify(handler({ if: `Bash(${'*'.repeat(100_000)})` })),
  'an mcp_tool input nested 20,000 deep': `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"mcp_tool","server":"s","tool":"t","input":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}]}]}}`,
};

/** A managed policy that denies every Bash call (exit 2, reason on stderr). */
export const MANAGED_DENY = {
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "managed policy: no Bash" >&2; exit 2' }] },
    ],
  },
};
