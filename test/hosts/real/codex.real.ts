// The real Codex CLI 0.171.0 with its hooks, offline (test/hosts/real/codex.ts). Each case runs twice: the hooks
// registered natively in .codex/hooks.json (trusted with the hashes Codex lists), and the same logic as a Claude
// Code policy through `peri-hooks install --host codex --trust`. Codex must act the same: did the tool run (files
// in the project), what the model saw, exit status, number of model requests; where Codex has no native
// equivalent (ask, --fail-closed, the Stop loop cap) the README's claim is what is checked.

import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { ResponsesScript } from '../../helpers/openai-responses-server.ts';
import { type CodexRun, codexRun, modelSaw, projectFile, scriptHook } from './codex.ts';
import { recordingHook, seen } from './common.ts';

type Variant = 'native' | 'peri-hooks' | 'peri-hooks --fail-closed';
type Groups = Record<string, Array<{ matcher?: string; hooks: Array<Record<string, unknown>> }>>;

interface Outcome {
  code: number | null;
  requests: number;
  files: Record<string, string | undefined>;
  saw: Record<string, boolean>;
}

interface Case {
  name: string;
  script: ResponsesScript;
  hooks(run: CodexRun, variant: Variant): Groups;
  files: string[];
  /** Texts whose presence in the model's requests is compared. */
  markers: string[];
  /** What Codex does natively; the peri-hooks run must do the same unless `differs` says otherwise. */
  native: Outcome;
  differs?: Partial<Record<Variant, Outcome>>;
  variants?: Variant[];
  /** More checks on a variant's run (what the hooks saw, what the model must not see). */
  check?(run: CodexRun, variant: Variant): void;
}

const bash = (cmd: string) => ({ name: 'exec_command', arguments: { cmd } });
const hook = (command: string, timeout?: number) => ({ type: 'command', command, ...(timeout ? { timeout } : {}) });
const json = (value: object) => `printf '%s' '${JSON.stringify(value)}'`;
const pre = (fields: object) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });

/** Runs one case in one variant: its own run folder, fake model and Codex. */
async function runCase(entry: Case, variant: Variant): Promise<{ outcome: Outcome; run: CodexRun }> {
  const run = await codexRun(`${entry.name.replace(/\W+/g, '-')}-${variant.replace(/\W+/g, '-')}`, entry.script);
  const groups = entry.hooks(run, variant);
  if (variant === 'native') {
    run.nativeHooks(groups);
    await run.trustListed();
  } else {
    run.folder.write('policy.json', { hooks: groups });
    const installed = await run.periHooks([
      'install',
      '--host',
      'codex',
      '--policy',
      'policy.json',
      '--trust',
      ...(variant === 'peri-hooks --fail-closed' ? ['--fail-closed'] : ['--fail-open']),
    ]);
    assert.equal(installed.code, 0, installed.stderr);
  }
  const result = await run.exec('Do the task.');
  assert.equal(result.timedOut, false, `${variant}: codex exec did not end (stderr: ${result.stderr.slice(-2000)})`);
  const saw = modelSaw(run);
  return {
    run,
    outcome: {
      code: result.code,
      requests: run.api.turns.length,
      files: Object.fromEntries(entry.files.map((file) => [file, projectFile(run, file)])),
      saw: Object.fromEntries(entry.markers.map((marker) => [marker, saw.includes(marker)])),
    },
  };
}

const CASES: Case[] = [
  {
    name: 'exit-2 deny of a shell call',
    script: [{ calls: [bash('echo x > out.txt')] }, { text: 'DONE' }],
    hooks: (run) => ({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [hook(recordingHook(run.folder, 'pre', { stderr: 'DENY-EXIT2 no writes here', exit: 2 }))],
        },
      ],
    }),
    files: ['out.txt'],
    markers: ['DENY-EXIT2 no writes here', 'peri-hooks:'],
    native: {
      code: 0,
      requests: 2,
      files: { 'out.txt': undefined },
      saw: { 'DENY-EXIT2 no writes here': true, 'peri-hooks:': false },
    },
    check(run, variant) {
      if (variant === 'native') return;
      const [input] = seen(run.folder, 'pre');
      assert.equal(input!.tool_name, 'Bash');
      assert.deepEqual(input!.tool_input, { command: 'echo x > out.txt' });
      assert.equal(
        typeof input!.peri_hooks_host.fields.turn_id,
        'string',
        "Codex's turn_id kept under peri_hooks_host.fields",
      );
    },
  },
  {
    name: 'JSON deny, allow with context, block and context after the tool',
    script: [{ calls: [bash('echo a > allowed.txt')] }, { calls: [bash('echo b > denied.txt')] }, { text: 'DONE' }],
    hooks: (run) => ({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            hook(
              scriptHook(
                run.folder,
                'pre',
                `case "$input" in *denied.txt*) ${json(pre({ permissionDecision: 'deny', permissionDecisionReason: 'DENY-JSON' }))};; *) ${json(pre({ permissionDecision: 'allow', additionalContext: 'PRE-CONTEXT' }))};; esac`,
              ),
            ),
          ],
        },
      ],
      PostToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            hook(
              recordingHook(run.folder, 'post', {
                stdout: {
                  decision: 'block',
                  reason: 'POST-BLOCK',
                  hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'POST-CONTEXT' },
                },
              }),
            ),
          ],
        },
      ],
    }),
    files: ['allowed.txt', 'denied.txt'],
    markers: ['DENY-JSON', 'PRE-CONTEXT', 'POST-CONTEXT', 'POST-BLOCK'],
    // Codex refuses a PreToolUse allow ("unsupported permissionDecision:allow") and drops that answer whole, its
    // context too; peri-hooks leaves Claude Code's allow out for Codex (which runs the call anyway), so the context arrives.
    native: {
      code: 0,
      requests: 3,
      files: { 'allowed.txt': 'a\n', 'denied.txt': undefined },
      saw: { 'DENY-JSON': true, 'PRE-CONTEXT': false, 'POST-CONTEXT': true, 'POST-BLOCK': true },
    },
    differs: {
      'peri-hooks': {
        code: 0,
        requests: 3,
        files: { 'allowed.txt': 'a\n', 'denied.txt': undefined },
        saw: { 'DENY-JSON': true, 'PRE-CONTEXT': true, 'POST-CONTEXT': true, 'POST-BLOCK': true },
      },
    },
    check(run, variant) {
      const [post] = seen(run.folder, 'post');
      if (variant === 'native')
        assert.equal(typeof post!.tool_response, 'string', 'Codex sends the text the model read');
      else
        assert.deepEqual(
          Object.keys(post!.tool_response).sort(),
          ['interrupted', 'isImage', 'stderr', 'stdout'],
          "Claude Code's Bash response shape",
        );
    },
  },
  {
    name: 'rewrite of a shell call and of an apply_patch',
    script: [
      { calls: [bash('echo a > wrong.txt')] },
      { calls: [{ name: 'apply_patch', input: '*** Begin Patch\n*** Add File: wrong2.txt\n+b\n*** End Patch\n' }] },
      { text: 'DONE' },
    ],
    hooks: (run, variant) => ({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            hook(
              recordingHook(run.folder, 'bash', {
                stdout: pre({
                  permissionDecision: 'allow',
                  updatedInput: { command: 'echo a > right.txt' },
                  additionalContext: 'REWRITE-CONTEXT',
                }),
              }),
            ),
          ],
        },
        variant === 'native'
          ? {
              matcher: 'apply_patch',
              hooks: [
                hook(
                  recordingHook(run.folder, 'patch', {
                    stdout: pre({
                      permissionDecision: 'allow',
                      updatedInput: { command: '*** Begin Patch\n*** Add File: right2.txt\n+b\n*** End Patch\n' },
                    }),
                  }),
                ),
              ],
            }
          : {
              matcher: 'Write',
              hooks: [
                hook(
                  recordingHook(run.folder, 'patch', {
                    stdout: pre({
                      permissionDecision: 'allow',
                      updatedInput: { file_path: join(run.folder.project, 'right2.txt'), content: 'b\n' },
                    }),
                  }),
                ),
              ],
            },
      ],
    }),
    files: ['wrong.txt', 'right.txt', 'wrong2.txt', 'right2.txt'],
    markers: ['REWRITE-CONTEXT'],
    native: {
      code: 0,
      requests: 3,
      files: { 'wrong.txt': undefined, 'right.txt': 'a\n', 'wrong2.txt': undefined, 'right2.txt': 'b\n' },
      saw: { 'REWRITE-CONTEXT': true },
    },
    check(run, variant) {
      if (variant === 'native') return;
      const [write] = seen(run.folder, 'patch');
      assert.deepEqual(
        write!.tool_input,
        { file_path: join(run.folder.project, 'wrong2.txt'), content: 'b\n' },
        'an Add File keeps its final newline',
      );
    },
  },
  {
    name: 'prompt block',
    script: [{ text: 'DONE' }],
    hooks: (run) => ({
      UserPromptSubmit: [{ hooks: [hook(recordingHook(run.folder, 'prompt', { stderr: 'PROMPT-BLOCKED', exit: 2 }))] }],
    }),
    files: [],
    markers: [],
    native: { code: 0, requests: 0, files: {}, saw: {} },
  },
  {
    name: 'session start and prompt context',
    script: [{ text: 'DONE' }],
    hooks: (run) => ({
      SessionStart: [
        {
          hooks: [
            hook(
              recordingHook(run.folder, 'start', {
                stdout: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'START-CONTEXT' } },
              }),
            ),
          ],
        },
      ],
      UserPromptSubmit: [
        {
          hooks: [
            hook(
              recordingHook(run.folder, 'prompt', {
                stdout: {
                  hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'PROMPT-CONTEXT' },
                },
              }),
            ),
          ],
        },
      ],
    }),
    files: [],
    markers: ['START-CONTEXT', 'PROMPT-CONTEXT'],
    native: { code: 0, requests: 1, files: {}, saw: { 'START-CONTEXT': true, 'PROMPT-CONTEXT': true } },
  },
  {
    name: 'Stop block, then the loop guard lets it stop',
    script: () => ({ text: 'DONE' }),
    hooks: (run) => ({
      Stop: [
        {
          hooks: [
            hook(
              scriptHook(
                run.folder,
                'stop',
                'case "$input" in *\'"stop_hook_active":true\'*) exit 0;; esac; echo STOP-ONCE >&2; exit 2',
              ),
            ),
          ],
        },
      ],
    }),
    files: [],
    markers: ['STOP-ONCE'],
    native: { code: 0, requests: 2, files: {}, saw: { 'STOP-ONCE': true } },
  },
  {
    // Codex has no cap: it asks the model again after every block, 12 times here until the fake model fails.
    // peri-hooks keeps Claude Code's cap of 8 (README, "Stop loop guard"): the ninth stop goes through.
    name: 'Stop that always blocks',
    script: (_request, index) => (index < 12 ? { text: 'DONE' } : { error: { status: 400, message: 'END-OF-SCRIPT' } }),
    hooks: (run) => ({
      Stop: [{ hooks: [hook(recordingHook(run.folder, 'stop', { stderr: 'STOP-LOOP', exit: 2 }))] }],
    }),
    files: [],
    markers: ['STOP-LOOP'],
    native: { code: 1, requests: 13, files: {}, saw: { 'STOP-LOOP': true } },
    differs: { 'peri-hooks': { code: 0, requests: 9, files: {}, saw: { 'STOP-LOOP': true } } },
  },
  {
    name: 'crash and timeout of a PreToolUse hook',
    script: [{ calls: [bash('echo a > crash.txt')] }, { calls: [bash('echo b > slow.txt')] }, { text: 'DONE' }],
    hooks: (run) => ({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            hook(
              scriptHook(
                run.folder,
                'pre',
                'case "$input" in *crash.txt*) echo "CRASH-STACK at /secret/place" >&2; exit 1;; esac; sleep 5',
              ),
              1,
            ),
          ],
        },
      ],
    }),
    files: ['crash.txt', 'slow.txt'],
    markers: [
      'CRASH-STACK',
      'a policy hook failed (blocking because of --fail-closed)',
      'a policy hook timed out (blocking because of --fail-closed)',
      'hooks/pre.sh',
      'peri-hooks:',
    ],
    variants: ['native', 'peri-hooks', 'peri-hooks --fail-closed'],
    // Codex lets the call run when a hook fails or times out; so does peri-hooks, unless --fail-closed.
    native: {
      code: 0,
      requests: 3,
      files: { 'crash.txt': 'a\n', 'slow.txt': 'b\n' },
      saw: {
        'CRASH-STACK': false,
        'a policy hook failed (blocking because of --fail-closed)': false,
        'a policy hook timed out (blocking because of --fail-closed)': false,
        'hooks/pre.sh': false,
        'peri-hooks:': false,
      },
    },
    differs: {
      'peri-hooks --fail-closed': {
        code: 0,
        requests: 3,
        files: { 'crash.txt': undefined, 'slow.txt': undefined },
        saw: {
          'CRASH-STACK': false,
          'a policy hook failed (blocking because of --fail-closed)': true,
          'a policy hook timed out (blocking because of --fail-closed)': true,
          'hooks/pre.sh': false,
          'peri-hooks:': false,
        },
      },
    },
  },
  {
    // Codex runs the call on an ask; peri-hooks denies it (README: ask→deny), and its note stays off the model.
    name: 'ask',
    script: [{ calls: [bash('echo a > out.txt')] }, { text: 'DONE' }],
    hooks: (run) => ({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            hook(
              recordingHook(run.folder, 'pre', {
                stdout: pre({ permissionDecision: 'ask', permissionDecisionReason: 'ASK-REASON' }),
              }),
            ),
          ],
        },
      ],
    }),
    files: ['out.txt'],
    markers: ['ASK-REASON', 'unsupported', 'peri-hooks:'],
    native: {
      code: 0,
      requests: 2,
      files: { 'out.txt': 'a\n' },
      saw: { 'ASK-REASON': false, unsupported: false, 'peri-hooks:': false },
    },
    differs: {
      'peri-hooks': {
        code: 0,
        requests: 2,
        files: { 'out.txt': undefined },
        saw: { 'ASK-REASON': true, unsupported: false, 'peri-hooks:': false },
      },
    },
  },
  {
    // codex exec runs with the approval policy never: an escalation is refused by Codex itself, and no
    // PermissionRequest hook is called.
    name: 'permission request, headless',
    script: [
      {
        calls: [
          {
            name: 'exec_command',
            arguments: { cmd: 'echo a > out.txt', sandbox_permissions: 'require_escalated', justification: 'needs it' },
          },
        ],
      },
      { text: 'DONE' },
    ],
    hooks: (run) => ({
      PermissionRequest: [
        {
          hooks: [
            hook(
              recordingHook(run.folder, 'perm', {
                stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } },
              }),
            ),
          ],
        },
      ],
    }),
    files: ['out.txt'],
    markers: ['approval policy is Never'],
    native: { code: 0, requests: 2, files: { 'out.txt': undefined }, saw: { 'approval policy is Never': true } },
    check: (run) => assert.deepEqual(seen(run.folder, 'perm'), []),
  },
];

describe('Codex CLI: native hooks and the same policy through peri-hooks', { concurrency: 3 }, () => {
  for (const entry of CASES) {
    test(entry.name, async () => {
      const variants = entry.variants ?? ['native', 'peri-hooks'];
      const runs = await Promise.all(variants.map((variant) => runCase(entry, variant)));
      try {
        runs.forEach(({ outcome, run }, index) => {
          const variant = variants[index]!;
          assert.deepEqual(outcome, entry.differs?.[variant] ?? entry.native, `${variant}`);
          entry.check?.(run, variant);
        });
      } finally {
        await Promise.all(runs.map(({ run }) => run.close()));
      }
    });
  }

  test('install --via mcp (fail-open): a deny through the server blocks a shell call, an allow runs it, context arrives; a server that cannot start lets the call run', async () => {
    const turns = [bash('echo a > allowed.txt'), bash('echo b > denied.txt')];
    const run = await codexRun('via-mcp', (_request, index) =>
      index % 3 === 2 ? { text: 'DONE' } : { calls: [turns[index % 3]!] },
    );
    try {
      run.folder.write('policy.json', {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                hook(
                  scriptHook(run.folder, 'pre', 'case "$input" in *denied.txt*) echo DENY-VIA-MCP >&2; exit 2;; esac'),
                ),
              ],
            },
          ],
          UserPromptSubmit: [
            {
              hooks: [
                hook(
                  recordingHook(run.folder, 'prompt', {
                    stdout: {
                      hookSpecificOutput: {
                        hookEventName: 'UserPromptSubmit',
                        additionalContext: 'PROMPT-CONTEXT-MCP',
                      },
                    },
                  }),
                ),
              ],
            },
          ],
        },
      });
      const refused = await run.periHooks(['install', '--host', 'codex', '--via', 'mcp', '--policy', 'policy.json']);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /cannot be fail-closed/);
      const installed = await run.periHooks([
        'install',
        '--host',
        'codex',
        '--via',
        'mcp',
        '--fail-open',
        '--trust',
        '--policy',
        'policy.json',
      ]);
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stdout, /FAIL-OPEN: Codex CLI runs the call without a word/);
      // The server's table gives it 30 s to start (Codex's default is 10), and Codex loads it (the runs below).
      assert.match(
        readFileSync(join(run.folder.project, '.codex/config.toml'), 'utf8'),
        /^\[mcp_servers\.peri-hooks\]\ncommand = .*\nargs = .*\nstartup_timeout_sec = 30\n/m,
      );
      // Codex's own listing: both are mcp_tool hooks, trusted by the hash install computed.
      const listed = await run.listHooks();
      assert.deepEqual(
        listed.map((entry) => [entry.eventName, entry.handlerType, entry.server, entry.trustStatus]),
        [
          ['preToolUse', 'mcpTool', 'peri-hooks', 'trusted'],
          ['userPromptSubmit', 'mcpTool', 'peri-hooks', 'trusted'],
        ],
      );

      const guarded = await run.exec('Do the task.');
      assert.equal(guarded.code, 0, guarded.stderr.slice(-2000));
      assert.equal(projectFile(run, 'allowed.txt'), 'a\n');
      assert.equal(projectFile(run, 'denied.txt'), undefined);
      const saw = modelSaw(run);
      assert.ok(saw.includes('DENY-VIA-MCP'), 'the deny reason reaches the model');
      assert.ok(saw.includes('PROMPT-CONTEXT-MCP'), 'the context reaches the model');
      assert.ok(!saw.includes('peri-hooks:'));
      const calls = seen(run.folder, 'pre');
      assert.deepEqual(
        calls.map((input) => input.tool_input),
        [{ command: 'echo a > allowed.txt' }, { command: 'echo b > denied.txt' }],
      );
      assert.equal(calls[0]!.tool_name, 'Bash');
      assert.equal(typeof calls[0]!.peri_hooks_host.fields.turn_id, 'string', 'the typed payload arrived whole');
      assert.equal(seen(run.folder, 'prompt')[0]!.prompt, 'Do the task.');

      // peri-hooks gone from the project (not installed on this checkout): the server does not start, and Codex
      // runs every call without a word, as install and doctor say.
      rmSync(join(run.folder.project, 'node_modules/.bin/peri-hooks'));
      const open = await run.exec('Do the task.');
      assert.equal(open.code, 0);
      assert.equal(projectFile(run, 'denied.txt'), 'b\n');
      assert.equal(seen(run.folder, 'pre').length, 2, 'no hook ran');
    } finally {
      await run.close();
    }
  });

  test('the registration Codex runs: untrusted after install, trusted with --trust by the hash Codex computes', async () => {
    const run = await codexRun('gate', (_request, index) =>
      index % 2 === 0 ? { calls: [bash('echo x > out.txt')] } : { text: 'DONE' },
    );
    try {
      // Every event Codex 0.171.0 lists (hooks/list), so that each one's key and hash are checked.
      const others = Object.fromEntries(
        [
          'PermissionRequest',
          'PostToolUse',
          'PreCompact',
          'SessionStart',
          'SessionEnd',
          'UserPromptSubmit',
          'SubagentStart',
          'SubagentStop',
          'Stop',
        ].map((event) => [event, [{ hooks: [hook('true', 3)] }]]),
      );
      run.folder.write('policy.json', {
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [hook(recordingHook(run.folder, 'pre', { stderr: 'DENIED', exit: 2 }))] },
          ],
          ...others,
        },
      });
      const installed = await run.periHooks(['install', '--host', 'codex', '--policy', 'policy.json']);
      assert.match(installed.stdout, /Codex CLI will not run this registration yet/);
      const untrusted = await run.listHooks();
      assert.equal(untrusted.length, 10);
      assert.deepEqual(new Set(untrusted.map((entry) => entry.trustStatus)), new Set(['untrusted']));
      const doctored = await run.periHooks(['doctor']);
      assert.equal(doctored.code, 1);
      assert.match(doctored.stdout + doctored.stderr, /✗ Codex CLI hook trust/);
      // What Codex does with it: the tool runs, the hook is never called, and nothing says so.
      const open = await run.exec('Do the task.');
      assert.equal(open.code, 0);
      assert.equal(projectFile(run, 'out.txt'), 'x\n');
      assert.deepEqual(seen(run.folder, 'pre'), []);

      const trusted = await run.periHooks(['install', '--host', 'codex', '--policy', 'policy.json', '--trust']);
      assert.equal(trusted.code, 0, trusted.stderr);
      const config = readFileSync(join(run.codexHome, 'config.toml'), 'utf8');
      for (const listed of await run.listHooks()) {
        assert.equal(listed.trustStatus, 'trusted', listed.key);
        assert.ok(
          config.includes(`[hooks.state.${JSON.stringify(listed.key)}]\ntrusted_hash = "${listed.currentHash}"`),
          listed.key,
        );
      }
      assert.equal((await run.periHooks(['doctor'])).stdout.includes('✓ Codex CLI hook trust'), true);
      run.folder.write('out.txt', '');
      const closed = await run.exec('Do the task.');
      assert.equal(closed.code, 0);
      assert.equal(projectFile(run, 'out.txt'), '');
      assert.equal(seen(run.folder, 'pre').length, 1);
    } finally {
      await run.close();
    }
  });
});
