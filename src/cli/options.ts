// The command line as data: every flag once, every command with the flags it takes. parse.ts wires this into
// cac; nothing here runs, so start-up pays only for the table.
import { DOCUMENT_NAMES } from '../report/document.ts';

export type CommandName =
  | 'fire'
  | 'state'
  | 'validate'
  | 'explain'
  | 'list'
  | 'schema'
  | 'test'
  | 'record'
  | 'replay'
  | 'install'
  | 'uninstall'
  | 'doctor'
  | 'completion'
  | 'serve'
  | 'mcp'
  | 'audit'
  | 'init'
  | 'trust';

/** What `peri-hooks schema` prints. */
export const SCHEMA_KINDS = ['settings', 'input', 'output', ...DOCUMENT_NAMES] as const;

/** The shells `peri-hooks completion` writes a script for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;

/** What a command's help says differently about a flag it shares with others. */
interface FlagVariant {
  description?: string;
  default?: string;
}

export interface FlagSpec {
  /** The value placeholder, e.g. `<file>`, or `[kind]` for a value that may be left out; a flag without one is a switch. */
  value?: `<${string}>` | `[${string}]`;
  /** A one-letter alias, e.g. `t` for `-t`. */
  short?: string;
  description: string;
  /** Each use adds a value; the command gets an array even for one use. */
  repeatable?: true;
  /** What applies without the flag, in the help's words. */
  default?: string;
  /** Per command, where the help says something else (the same flag means a slightly different thing there). */
  variants?: Partial<Record<CommandName, FlagVariant>>;
}

export const FLAGS = {
  output: {
    value: '<form>',
    description: 'human (default) | json',
    variants: {
      fire: { description: 'decision (default) | claude | json' },
      explain: { description: 'human (on a terminal) | json (otherwise)' },
      replay: { description: 'table (default) | json' },
    },
  },
  input: { value: '<file>', description: 'Read the hook input from a file instead of stdin' },
  settings: { value: '<file-or-json>', description: 'Extra settings file or inline JSON', repeatable: true },
  'plugin-dir': { value: '<dir>', description: "Load a plugin's hooks from this folder", repeatable: true },
  'setting-sources': {
    value: '<list>',
    description: "Comma-separated subset of managed,user,project,local; '' for none",
  },
  'project-dir': {
    value: '<dir>',
    description: 'Project root',
    default: '$CLAUDE_PROJECT_DIR, else the current directory',
    // fire and explain read the project of the hook input (explain's built input has the current directory).
    variants: {
      fire: { default: '$CLAUDE_PROJECT_DIR, else the input cwd' },
      explain: { default: '$CLAUDE_PROJECT_DIR, else the input cwd' },
    },
  },
  'managed-dir': {
    value: '<dir>',
    description: 'Folder of managed-settings.json',
    default: '/etc/claude-code; $PERI_HOOKS_MANAGED_DIR',
  },
  'mcp-config': {
    value: '<file-or-json>',
    description: 'MCP servers for mcp_tool hooks ({"mcpServers": {...}}), after the configured ones',
    repeatable: true,
  },
  'fail-closed': {
    description: 'Hook failures and runner errors block (exit 2) where the event can block',
    variants: {
      install: {
        description:
          'Register the firings with --fail-closed (the default, except with --serve): a failing hook or peri-hooks itself blocks where the event can block',
      },
    },
  },
  trust: {
    description:
      "With --host codex: also write Codex's trusted_hash for each entry to its config.toml (what its /hooks review does), so Codex runs them",
  },
  force: { description: 'Register a policy that validate rejects (each error is printed as a warning)' },
  'fail-open': {
    description:
      'Register the firings without --fail-closed: a broken policy, a failing hook or a peri-hooks that cannot start lets the call through (said on stderr)',
  },
  sequential: {
    description: 'Run the hooks in order: the first block skips the rest, each updatedInput reaches the next hook',
  },
  'only-async': {
    value: '[kind]',
    description:
      "Run only the async hooks of this kind (async or asyncRewake) and wait for them: Claude Code's async entry for peri-hooks",
    default: 'async',
  },
  'skip-async': {
    description:
      "Leave the async hooks out: Claude Code's synchronous entry for peri-hooks, next to an --only-async one",
  },
  'state-dir': {
    value: '<dir>',
    description: 'Session state folder',
    default: '$PERI_HOOKS_STATE_DIR, else $XDG_STATE_HOME/peri-hooks',
    variants: {
      explain: { description: 'Session state folder, read to show once hooks that already ran', default: 'as fire' },
    },
  },
  'no-state': {
    description: 'Remember nothing: no once, no Stop-block count, no async results across firings',
    variants: { explain: { description: 'Ignore session state' } },
  },
  strict: { description: 'Warnings fail too' },
  tool: { value: '<name>', description: 'Build a tool-event input for this tool instead of reading one' },
  'tool-input': { value: '<json>', description: 'The tool_input object for --tool', default: '{}' },
  command: {
    value: '<command line>',
    description: 'With --tool: the tool_input {"command": …} (Bash, PowerShell, Monitor)',
  },
  file: {
    value: '<path>',
    description: 'With --tool: the tool_input {"file_path": …} (Read, Write, Edit), relative to the current folder',
  },
  'input-json': { value: '<json>', description: 'With --tool: the whole tool_input object' },
  event: { value: '<event>', description: 'The event of an input or output schema' },
  jobs: {
    value: '<n>',
    description: 'Cases run at once',
    default: 'four per core (the number of cores where hooks cannot start from the spawner helper, under Deno)',
    variants: { replay: { description: 'Calls fired at once', default: '1, in transcript order' } },
  },
  reporter: {
    value: '<name>',
    description: 'default | tap | github | json (console), junit (file)',
    repeatable: true,
    variants: {
      validate: { description: 'github (workflow annotations) | sarif (SARIF 2.1.0), on stdout; instead of --output' },
    },
  },
  'output-file': { value: '<file>', description: 'Where --reporter junit writes', default: 'peri-hooks-junit.xml' },
  update: {
    description: 'Write the actual decision into cases that have no expectations yet; never changes existing ones',
  },
  filter: {
    value: '<pattern>',
    short: 't',
    description: 'Run only the cases whose name matches this regular expression',
  },
  bail: {
    description:
      'Start no more cases after the first failure, interrupt the running ones, and say how many did not run',
  },
  shard: {
    value: '<i/n>',
    description: 'Run shard i of n (every n-th case of the suite from the i-th), for splitting a suite over CI runners',
  },
  watch: { description: 'Run again whenever a case file, a settings file or a hook script of the suite changes' },
  into: {
    value: '<file>',
    description: 'The case file that each recorded input is appended to (created when missing)',
  },
  post: { description: 'Also fire PostToolUse (PostToolUseFailure for errors) for every call with a result' },
  'dry-run': {
    description: 'Only plan: which hooks would run for every call; runs nothing',
    variants: {
      install: { description: 'Print the change as a diff; write nothing' },
      uninstall: { description: 'Print the change as a diff; write nothing' },
    },
  },
  scope: {
    value: '<scope>',
    description:
      'The Claude Code settings file: project (.claude/settings.json), local (.claude/settings.local.json), user (~/.claude/settings.json) or managed (managed-settings.json)',
    default: 'project',
  },
  policy: {
    value: '<file>',
    description: 'A policy file: settings-style JSON with the hooks peri-hooks runs',
    repeatable: true,
  },
  events: {
    value: '<list>',
    description: 'Comma-separated events to register',
    default: 'every event that has hooks in the policy files',
    variants: { uninstall: { description: 'Comma-separated events to unregister', default: 'all of them' } },
  },
  host: {
    value: '<name>',
    description:
      "Another agent's hooks: codex, cursor, gemini, antigravity, copilot, vscode, windsurf, kiro, cline, qwen, factory, opencode, amp",
    variants: {
      fire: {
        description:
          'The agent whose hook payload is on stdin (codex, cursor, gemini, antigravity, copilot, vscode, windsurf, kiro, cline, qwen, factory, opencode, amp); the answer is in its form',
        default: 'the agent the payload names (cursor_version, …), else Claude Code',
      },
      install: {
        description:
          "Register peri-hooks in this agent's hook configuration instead of Claude Code's (see docs/agents/other-agents.md)",
      },
      uninstall: { description: "Remove peri-hooks' registration from this agent's hook configuration" },
      mcp: {
        description:
          "The agent whose own payload the fire tool's arguments are (codex: its mcp_tool hooks, install --host codex --via mcp); the answer is its command form's stdout",
      },
    },
  },
  audit: {
    value: '<file>',
    description:
      'Append each firing to this hash-chained audit log (one JSON line each; also PERI_HOOKS_AUDIT); under --fail-closed a log that cannot be written blocks',
    variants: {
      install: {
        description:
          "The registered firings append to this audit log (the project's registration names it relative to the project, or to the home folder of whoever runs it)",
      },
    },
  },
  lines: { value: '<n>', short: 'n', description: 'How many of the newest entries', default: '20' },
  html: {
    value: '<file>',
    description:
      'report: write one self-contained HTML page (charts, the most blocked tools and calls, the hooks that decide most and the slowest), viewable offline',
  },
  session: { value: '<id>', description: 'Only the entries of this session' },
  decision: {
    value: '<decision>',
    description: 'Only the entries with this decision: block | deny | ask | allow | none',
  },
  hook: {
    value: '<text>',
    description: 'Only the entries one of whose hooks has this text in its command or settings file',
  },
  since: { value: '<time>', description: 'Only the entries at or after this ISO time or date' },
  until: {
    value: '<time>',
    description: 'Only the entries at or before this ISO time or date (a date: its whole day)',
  },
  verbose: {
    description:
      'A timestamped trace of each stage on stderr (also PERI_HOOKS_DEBUG=1; PERI_HOOKS_DEBUG=<path> appends it to a file)',
  },
  serve: {
    value: '<url>',
    description:
      'Register http hooks that post to a running peri-hooks serve at this URL (and allow it in allowedHttpHookUrls) instead of commands',
  },
  via: {
    value: '<command|mcp>',
    description:
      'How the hooks reach peri-hooks: command (a process per firing, the default) or mcp (mcp_tool hooks calling peri-hooks mcp, which the agent starts once per session)',
  },
  'token-env': {
    value: '<VAR>',
    description:
      'With --serve: the hooks send Authorization: Bearer $VAR, filled in by Claude Code from its environment; the token is never written',
  },
  listen: {
    value: '<host:port>',
    description: 'Address to serve on; another than loopback needs --token-file',
    default: '127.0.0.1:7387',
  },
  socket: { value: '<path>', description: 'Serve on this unix socket instead of TCP (created 0600)' },
  metrics: {
    value: '<host:port>',
    description:
      'Serve Prometheus metrics (GET /metrics) on this loopback address; port 0 picks a free one, named on stderr',
  },
  'token-file': {
    value: '<file>',
    description: 'File whose first line is the bearer token every request but /healthz must send',
  },
  'project-root': {
    value: '<dir>',
    description:
      'A folder whose projects (it and the folders inside it) may bring their own settings and .mcp.json; without it, or --token-file, or --socket, a project a client names loads none of its files',
    repeatable: true,
  },
  state: {
    value: '[url]',
    description:
      'Keep sessions in Redis (redis:// or rediss://), shared by every fire and serve on it; the state folder keeps async job files',
    default: '$PERI_HOOKS_STATE_URL, else the state folder',
    variants: {
      explain: { description: 'Read sessions from Redis (redis:// or rediss://), to show once hooks that already ran' },
      state: {
        description:
          'Read the session from Redis (redis:// or rediss://), where fire and serve with the same --state keep it',
      },
    },
  },
  'max-active': { value: '<n>', description: 'Firings run at once', default: '64' },
  'max-queued': {
    value: '<n>',
    description: 'Firings that wait for a slot; beyond them a request gets 503',
    default: '256',
  },
  'stop-grace': {
    value: '<seconds>',
    description: 'On SIGTERM/SIGINT, how long in-flight firings may finish before their hooks are killed',
    default: '10',
  },
  'require-trust': {
    description:
      'Project and local hooks run only with the content `peri-hooks trust` approved; the others are skipped and said (a block under --fail-closed)',
    variants: {
      install: {
        description: 'Register the firings with --require-trust (always in the managed scope)',
      },
    },
  },
  'project-hooks': {
    description:
      "Managed scope: the firings also run the project's and local hooks (every event, or --events), and allowManagedHooksOnly keeps Claude Code from running them itself",
  },
  diff: { description: 'Show what changed since the approval; record nothing' },
  revoke: { description: "Remove the approval of the project's hooks" },
  'move-hooks': {
    description:
      "Move the settings file's own hooks into a policy file next to it (which the registration runs) instead of refusing",
  },
} as const satisfies Record<string, FlagSpec>;

export type FlagName = keyof typeof FLAGS;

export interface CommandSpec {
  name: CommandName;
  /** Positional arguments as cac writes them: `<required>`, `[optional]`, `<...variadic>`. */
  args?: string;
  description: string;
  /** In help order. */
  flags: readonly FlagName[];
  examples: readonly string[];
  /** What each exit code this command can return means; its help lists these and no others. */
  exits: Readonly<Partial<Record<0 | 1 | 2, string>>>;
}

const USAGE = 'bad usage or unreadable input';

/** The flags that name settings sources: every command that loads settings takes the same ones. */
const SOURCE_FLAGS = [
  'settings',
  'plugin-dir',
  'setting-sources',
  'project-dir',
  'managed-dir',
] as const satisfies readonly FlagName[];

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'fire',
    args: '[event]',
    description: 'Run the hooks for one event: hook input JSON on stdin, decision on stdout',
    flags: [
      'output',
      'host',
      'input',
      'tool',
      'command',
      'file',
      'input-json',
      ...SOURCE_FLAGS,
      'mcp-config',
      'fail-closed',
      'require-trust',
      'sequential',
      'only-async',
      'skip-async',
      'state',
      'state-dir',
      'no-state',
      'audit',
      'verbose',
    ],
    examples: [
      'peri-hooks fire PreToolUse < input.json',
      "peri-hooks fire --tool Bash --command 'git push --force'",
      "peri-hooks fire PreToolUse --output claude --settings policy.json --setting-sources ''",
      'peri-hooks fire --host cursor beforeShellExecution < payload.json',
    ],
    exits: {
      0: 'go on (nothing blocked)',
      1: 'peri-hooks could not run: bad usage, bad input',
      2: 'the reduced decision blocks (or --fail-closed turned a failure into a block)',
    },
  },
  {
    name: 'state',
    args: '<session_id>',
    description: 'Print the state peri-hooks keeps for one session (once, Stop-block counts, async results), as JSON',
    flags: ['state', 'state-dir'],
    examples: ['peri-hooks state 8f0c5b1e-0000-4000-8000-000000000000'],
    exits: { 0: 'the state was printed (an unknown session prints an empty state)', 1: USAGE },
  },
  {
    name: 'validate',
    description: 'Check every settings source fire would read, without running a hook; exit 1 on errors',
    flags: [...SOURCE_FLAGS, 'mcp-config', 'strict', 'output', 'reporter'],
    examples: ['peri-hooks validate --project-dir .', 'peri-hooks validate --reporter sarif > peri-hooks.sarif'],
    exits: {
      0: 'no errors (with --strict: no warnings either)',
      1: `errors found (with --strict: warnings too), or ${USAGE}`,
    },
  },
  {
    name: 'explain',
    args: '<event>',
    description: 'Show which hooks would run for one input, and why the others would not; runs nothing',
    flags: [
      ...SOURCE_FLAGS,
      'mcp-config',
      'input',
      'tool',
      'tool-input',
      'output',
      'require-trust',
      'state',
      'state-dir',
      'no-state',
    ],
    examples: [
      'peri-hooks explain PreToolUse --tool Bash --tool-input \'{"command":"git push"}\'',
      'peri-hooks explain Stop < input.json',
    ],
    exits: { 0: 'explained', 1: USAGE },
  },
  {
    name: 'list',
    description: 'The hooks panel: hooks per event, with type, matcher, source and command',
    flags: [...SOURCE_FLAGS, 'output'],
    examples: ['peri-hooks list', 'peri-hooks list --output json --project-dir ~/repo'],
    exits: { 0: 'listed', 1: USAGE },
  },
  {
    name: 'schema',
    args: '[kind]',
    description: `Print a JSON Schema: settings (default), input or output (--event for one event), or a JSON document: ${DOCUMENT_NAMES.join(', ')}`,
    flags: ['event'],
    examples: ['peri-hooks schema settings > settings.schema.json', 'peri-hooks schema input --event PreToolUse'],
    exits: { 0: 'printed', 1: USAGE },
  },
  {
    name: 'test',
    args: '[...paths]',
    description:
      'Run hook test cases (hooks.test.json, *.hooks.test.json, .claude/hooks-tests/*.json); exit 1 unless all pass',
    flags: ['jobs', 'reporter', 'output-file', 'update', 'filter', 'bail', 'shard', 'watch'],
    examples: [
      'peri-hooks test',
      'peri-hooks test fixtures/policies/guard --reporter github --reporter junit --output-file junit.xml',
      'peri-hooks test --shard 2/4 --bail -t "force push"',
    ],
    exits: { 0: 'every case passed', 1: `a case failed or could not be read, or ${USAGE}` },
  },
  {
    name: 'record',
    description:
      'Registered as a Claude Code hook: append the hook input on stdin as a case without expectations (secrets redacted); prints nothing, always exits 0',
    flags: ['into'],
    examples: ['peri-hooks record --into .claude/hooks-tests/recorded.json < input.json'],
    exits: { 0: 'always, recorded or not (a problem is said on stderr), so that Claude Code goes on as without it' },
  },
  {
    name: 'install',
    description:
      "Register peri-hooks in Claude Code's settings: one entry per event of the policy files, fail-closed; in the project's file, peri-hooks is found in the project or on PATH, elsewhere by absolute path",
    flags: [
      'scope',
      'policy',
      'events',
      'host',
      'fail-closed',
      'fail-open',
      'force',
      'trust',
      'project-hooks',
      'require-trust',
      'move-hooks',
      'serve',
      'token-env',
      'audit',
      'via',
      'dry-run',
      'project-dir',
      'managed-dir',
    ],
    examples: [
      'peri-hooks install --policy team-policy.json',
      'peri-hooks install --policy team-policy.json --audit ~/.local/state/peri-hooks/audit.jsonl',
      'peri-hooks install --via mcp --policy team-policy.json',
      'peri-hooks install --scope user --policy ~/policies/guard.json --dry-run',
    ],
    exits: {
      0: 'registered (or already registered: nothing changed)',
      1: `nothing changed because of a problem (a settings file that does not parse, a policy that does not load, hooks of the file's own), or ${USAGE}`,
    },
  },
  {
    name: 'init',
    description:
      'Write a starter policy (no force push, no .env or secrets/ writes, no rm -r outside the project), its tests and a CI workflow; never overwrites',
    flags: ['dry-run', 'project-dir'],
    examples: ['peri-hooks init', 'peri-hooks init --dry-run'],
    exits: { 0: 'written (or already there: nothing changed)', 1: USAGE },
  },
  {
    name: 'uninstall',
    description: "Remove peri-hooks' registration from Claude Code's settings, and nothing else",
    flags: ['scope', 'events', 'host', 'dry-run', 'project-dir', 'managed-dir'],
    examples: ['peri-hooks uninstall', 'peri-hooks uninstall --scope user --dry-run'],
    exits: { 0: 'removed (or nothing was registered)', 1: `nothing changed because of a problem, or ${USAGE}` },
  },
  {
    name: 'doctor',
    description:
      'Will the guard work? Runtime, registration, policy files, start-up against the budget, state folder, hook targets; exit 1 when something would fail',
    flags: ['output', 'project-dir', 'managed-dir', 'mcp-config'],
    examples: ['peri-hooks doctor', 'peri-hooks doctor --output json'],
    exits: { 0: 'every check passed (warnings allowed)', 1: 'a check failed: the guard would not work as registered' },
  },
  {
    name: 'serve',
    description:
      'Serve the hook pipeline over HTTP: POST /hooks/<Event> (Claude Code http hooks), POST /v1/fire/<Event> (the full report), GET /healthz',
    flags: [
      'listen',
      'socket',
      'token-file',
      'project-root',
      ...SOURCE_FLAGS,
      'mcp-config',
      'fail-closed',
      'require-trust',
      'state',
      'state-dir',
      'no-state',
      'audit',
      'max-active',
      'max-queued',
      'stop-grace',
    ],
    examples: [
      "peri-hooks serve --listen 127.0.0.1:7387 --settings policy.json --setting-sources ''",
      'peri-hooks serve --socket /run/peri-hooks.sock',
    ],
    exits: {
      0: 'stopped by SIGTERM or SIGINT, every firing answered',
      1: `could not start (an address in use, a non-loopback --listen without --token-file), or ${USAGE}`,
    },
  },
  {
    name: 'mcp',
    description:
      'Serve the hook pipeline as an MCP server on stdio, for the agent to start and reach through mcp_tool hooks: one tool, fire, whose arguments are the hook input fields',
    flags: [
      ...SOURCE_FLAGS,
      'mcp-config',
      'fail-closed',
      'require-trust',
      'state',
      'state-dir',
      'no-state',
      'audit',
      'metrics',
      'host',
    ],
    examples: [
      "peri-hooks mcp --settings policy.json --setting-sources ''",
      "claude mcp add peri-hooks -- peri-hooks mcp --settings policy.json --setting-sources ''",
    ],
    exits: { 0: 'stdin closed (the agent ended the session) or SIGTERM, every call answered', 1: USAGE },
  },
  {
    name: 'audit',
    args: '<action> [file]',
    description:
      'Read the audit log (the file, else PERI_HOOKS_AUDIT): verify its hash chain, tail the newest entries, stats (decisions per event, tool, hook and day; the slowest hooks), search, report --html (one self-contained page with charts)',
    flags: ['output', 'lines', 'session', 'decision', 'tool', 'hook', 'since', 'until', 'html'],
    examples: [
      'peri-hooks audit verify audit.jsonl',
      'peri-hooks audit report --html audit.html audit.jsonl',
      'peri-hooks audit search --decision block --since 2026-12-01 audit.jsonl',
      'peri-hooks audit stats --output json',
    ],
    exits: {
      0: 'read (verify: the chain holds)',
      1: `verify: the chain is broken (the first line that breaks it is named), or ${USAGE}`,
    },
  },
  {
    name: 'replay',
    args: '<...transcripts>',
    description:
      "Fire the hooks of today's settings for every tool call of Claude Code transcripts; runs the hooks for real",
    flags: [...SOURCE_FLAGS, 'post', 'dry-run', 'output', 'jobs'],
    examples: [
      'peri-hooks replay ~/.claude/projects/-home-me-repo/*.jsonl --dry-run',
      'peri-hooks replay session.jsonl --post --output json',
    ],
    exits: { 0: 'replayed (blocks are reported, not an exit code)', 1: USAGE },
  },
  {
    name: 'trust',
    description:
      "Approve the project's hooks as they are now: shows the project and local hooks with the files they run, and records their content (entry and SHA-256 of each file) in the user state folder",
    flags: ['diff', 'revoke', 'project-dir', 'settings', 'state-dir', 'output'],
    examples: ['peri-hooks trust', 'peri-hooks trust --diff', 'peri-hooks trust --revoke --project-dir ~/repo'],
    exits: {
      0: 'approved (--diff: shown; --revoke: removed)',
      1: `a hook cannot be approved (a file leading out of the project, or too big to hash: the others are approved), or ${USAGE}`,
    },
  },
  {
    name: 'completion',
    args: '<shell>',
    description: 'Print a shell completion script (bash, zsh or fish) for commands, options, event names and values',
    flags: [],
    examples: [
      'peri-hooks completion bash > ~/.local/share/bash-completion/completions/peri-hooks',
      'peri-hooks completion zsh > "${fpath[1]}/_peri-hooks"',
      'peri-hooks completion fish > ~/.config/fish/completions/peri-hooks.fish',
    ],
    exits: { 0: 'printed', 1: 'an unknown shell' },
  },
];

/** The help line of a flag in one command's help: its description, then whether it repeats, then its default. */
export function flagHelp(name: FlagName, command: CommandName): string {
  const flag: FlagSpec = FLAGS[name];
  const variant = flag.variants?.[command];
  const description = variant?.description ?? flag.description;
  const fallback = variant?.default ?? flag.default;
  return `${description}${flag.repeatable ? ' (repeatable)' : ''}${fallback === undefined ? '' : ` (default: ${fallback})`}`;
}
