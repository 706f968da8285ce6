// `peri-hooks init`: a starter policy for a project — the common guards as sh scripts that work from any
// subfolder, a test suite for them that passes, and a GitHub Actions workflow that runs validate and test.
// Each file is written only where none is: init is idempotent and never overwrites.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface InitResult {
  projectDir: string;
  /** Relative to the project, in order. */
  written: string[];
  kept: string[];
}

/** The policy file init writes, relative to the project: what `install --policy` takes. */
export const STARTER_POLICY = '.claude/peri-hooks/policy.json';

const DIR = '.claude/peri-hooks';
const HOOK = (script: string) => `sh "$CLAUDE_PROJECT_DIR"/${DIR}/${script}`;

/** Reads the hook input's one string field `name` (a JSON string with no escaped quote in it), as sh can. */
const FIELD = (name: string) =>
  `printf '%s\\n' "$input" | sed -n 's/.*"${name}" *: *"\\([^"]*\\)".*/\\1/p' | head -n 1`;

const FILES: ReadonlyArray<{ file: string; text: string; executable?: true }> = [
  {
    file: STARTER_POLICY,
    text: `${JSON.stringify(
      {
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: HOOK('guard-bash.sh') }] },
            { matcher: 'Edit|Write|NotebookEdit', hooks: [{ type: 'command', command: HOOK('guard-files.sh') }] },
          ],
        },
      },
      null,
      2,
    )}\n`,
  },
  {
    file: `${DIR}/guard-bash.sh`,
    executable: true,
    text: `#!/bin/sh
# peri-hooks starter guard for Bash calls: no force push, no rm -r outside the project. The hook input is on
# stdin; exit 2 with a reason on stderr refuses the call.
input=$(cat)
command=$(${FIELD('command')})
case $command in
  *'git push'*' --force'*|*'git push'*' -f'*|*'git push'*' +'*)
    echo "force pushes are not allowed here (starter policy: ${DIR}/guard-bash.sh)" >&2; exit 2 ;;
esac
case $command in
  *'rm -'*r*)
    for word in $command; do
      case $word in
        "$CLAUDE_PROJECT_DIR"/*) ;;
        /*|'~'*|'$HOME'*|..|../*|*/..|*/../*)
          echo "rm -r of $word is outside the project (starter policy: ${DIR}/guard-bash.sh)" >&2; exit 2 ;;
      esac
    done ;;
esac
exit 0
`,
  },
  {
    file: `${DIR}/guard-files.sh`,
    executable: true,
    text: `#!/bin/sh
# peri-hooks starter guard for file writes: no .env files, nothing under secrets/. The hook input is on stdin;
# exit 2 with a reason on stderr refuses the call.
input=$(cat)
file=$(${FIELD('file_path')})
case $file in
  .env|.env.*|*/.env|*/.env.*|secrets/*|*/secrets/*)
    echo "writing $file is not allowed here (starter policy: ${DIR}/guard-files.sh)" >&2; exit 2 ;;
esac
exit 0
`,
  },
  {
    file: `${DIR}/policy.hooks.test.json`,
    text: `${JSON.stringify(
      {
        // The project is two folders up: the hooks name their scripts from $CLAUDE_PROJECT_DIR.
        projectDir: '../..',
        settings: 'policy.json',
        cases: [
          {
            name: 'a force push is refused',
            tool: 'Bash',
            toolInput: { command: 'git push --force origin main' },
            expect: { decision: 'deny', exitCode: 2, reasonContains: 'force pushes are not allowed' },
          },
          {
            name: 'a plain push goes on',
            tool: 'Bash',
            toolInput: { command: 'git push origin feature' },
            expect: { decision: 'none', exitCode: 0 },
          },
          {
            name: 'rm -rf outside the project is refused',
            tool: 'Bash',
            toolInput: { command: 'rm -rf /tmp/x ../other' },
            expect: { decision: 'deny', exitCode: 2 },
          },
          {
            name: 'rm -rf of a build folder goes on',
            tool: 'Bash',
            toolInput: { command: 'rm -rf build' },
            expect: { decision: 'none', exitCode: 0 },
          },
          {
            name: 'writing .env is refused',
            tool: 'Write',
            toolInput: { file_path: '/work/app/.env', content: 'KEY=1' },
            expect: { decision: 'deny', exitCode: 2, reasonContains: '.env is not allowed' },
          },
          {
            name: 'editing under secrets/ is refused',
            tool: 'Edit',
            toolInput: { file_path: '/work/app/secrets/token.txt', old_string: 'a', new_string: 'b' },
            expect: { decision: 'deny', exitCode: 2 },
          },
          {
            name: 'writing source goes on',
            tool: 'Write',
            toolInput: { file_path: '/work/app/src/env.ts', content: 'export {}' },
            expect: { decision: 'none', exitCode: 0 },
          },
        ],
      },
      null,
      2,
    )}\n`,
  },
  {
    file: '.github/workflows/peri-hooks.yml',
    text: `# The hook policy in CI: peri-hooks from scratch (the project's devDependency), validate, then the policy's
# tests. Under GitHub Actions both print annotations on the lines at fault.
name: peri-hooks
on: [push, pull_request]
jobs:
  policy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 24 }
      - run: npm ci
      - run: npx peri-hooks validate --setting-sources none --settings ${STARTER_POLICY}
      - run: npx peri-hooks test ${DIR}
`,
  },
];

export function init(projectDir: string, dryRun: boolean): InitResult {
  const written: string[] = [];
  const kept: string[] = [];
  for (const { file, text, executable } of FILES) {
    const target = path.join(projectDir, file);
    if (existsSync(target)) {
      kept.push(file);
      continue;
    }
    written.push(file);
    if (dryRun) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    // wx: a file that appeared since the check is never overwritten.
    writeFileSync(target, text, { flag: 'wx' });
    if (executable) chmodSync(target, 0o755);
  }
  return { projectDir, written, kept };
}
