// opencode 1.18.33, the real agent, headless and offline (test/hosts/real/opencode.ts). Each case runs twice:
// a native plugin doing the logic, then the same logic as a Claude Code policy through `peri-hooks install
// --host opencode`; opencode must act the same (did the tool run, what the model read, exit status, number of
// model requests), or, where peri-hooks adds what opencode has not (hook timeouts, --fail-closed), meet the
// README's claim.

import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { chatTexts } from '../../helpers/openai-chat-server.ts';
import { type RunFolder, recordInput, recordingHook, runFolder, seen } from './common.ts';
import { mcpServer } from './mcp-server.ts';
import { installPolicy, nativePlugin, type OpencodeRun, outcome, runOpencode, toolResults } from './opencode.ts';

const bash = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command, description: 'run it' } }] });
const command = (path: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command: path, ...extra });

const made: RunFolder[] = [];
after(() => {
  for (const folder of made) folder.cleanup();
});

function folder(name: string): RunFolder {
  const made_ = runFolder(`oc-${name}`);
  made.push(made_);
  return made_;
}

/** A PreToolUse hook that records its input and denies a call whose input holds `needle`. */
function scriptHook(folder: RunFolder, name: string, needle: string): string {
  const seenFile = join(folder.root, 'seen', `${name}.jsonl`);
  const deny = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `no ${needle} files`,
    },
  });
  return folder.write(
    `../hooks/${name}.sh`,
    `#!/bin/sh\nmkdir -p '${join(folder.root, 'seen')}'\n${recordInput(seenFile)}\ncase "$input" in *'${needle}'*) printf '%s' '${deny}';; esac\n`,
  );
}

/** Runs the native and the policy variant of a case at the same time, each in its own run folder. */
async function both(
  name: string,
  native: (folder: RunFolder) => Promise<OpencodeRun>,
  policy: (folder: RunFolder) => Promise<OpencodeRun>,
) {
  const folders = { native: folder(`${name}-native`), policy: folder(`${name}-policy`) };
  const [nativeRun, policyRun] = await Promise.all([native(folders.native), policy(folders.policy)]);
  return { native: nativeRun, policy: policyRun, folders };
}

describe('opencode 1.18.33: a native plugin and the same logic as a Claude Code policy', () => {
  test('deny: a throw before the tool and an exit-2 PreToolUse hook refuse the call; the model reads the reason', async () => {
    const turns = [bash('echo ran > denied.txt')];
    const { native, policy, folders } = await both(
      'deny',
      async (folder) => {
        nativePlugin(
          folder,
          'export default async () => ({ "tool.execute.before": async (input) => { if (input.tool === "bash") throw new Error("no writes to denied.txt"); } });\n',
        );
        return runOpencode(folder, turns);
      },
      async (folder) => {
        const plugin = await installPolicy(folder, {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [command(recordingHook(folder, 'deny', { stderr: 'no writes to denied.txt', exit: 2 }))],
            },
          ],
        });
        assert.doesNotMatch(
          readFileSync(plugin, 'utf8'),
          /tool\.execute\.after/,
          'no PostToolUse hook: peri-hooks is not started after a tool',
        );
        return runOpencode(folder, turns);
      },
    );
    assert.deepEqual(outcome(policy), outcome(native));
    assert.deepEqual(outcome(native), {
      toolResults: ['no writes to denied.txt'],
      code: 0,
      agentRequests: 2,
      timedOut: false,
    });
    for (const folder of Object.values(folders)) assert.equal(existsSync(join(folder.project, 'denied.txt')), false);
    const [input] = seen(folders.policy, 'deny');
    assert.deepEqual(input!.tool_input, { command: 'echo ran > denied.txt', description: 'run it' });
    assert.match(input!.session_id, /^ses_/);
    assert.match(input!.tool_use_id, /^call_/);
    assert.equal(input!.cwd, folders.policy.project);
  });

  test("allow, then a block and context after the tool: the tool runs, the model reads its output, the reason and the context; tool_response is Claude Code's", async () => {
    const turns = [bash('echo hi | tee ok.txt')];
    const { native, policy, folders } = await both(
      'after',
      async (folder) => {
        nativePlugin(
          folder,
          'export default async () => ({ "tool.execute.after": async (input, output) => { if (input.tool === "bash") output.output = [output.output, "check ok.txt first", "ok.txt is generated"].join("\\n\\n"); } });\n',
        );
        return runOpencode(folder, turns);
      },
      async (folder) => {
        await installPolicy(folder, {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                command(
                  recordingHook(folder, 'allow', {
                    stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } },
                  }),
                ),
              ],
            },
          ],
          PostToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                command(
                  recordingHook(folder, 'after', {
                    stdout: {
                      decision: 'block',
                      reason: 'check ok.txt first',
                      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'ok.txt is generated' },
                    },
                  }),
                ),
              ],
            },
          ],
        });
        return runOpencode(folder, turns);
      },
    );
    assert.deepEqual(outcome(policy), outcome(native));
    assert.deepEqual(outcome(native), {
      toolResults: ['hi\n\n\ncheck ok.txt first\n\nok.txt is generated'],
      code: 0,
      agentRequests: 2,
      timedOut: false,
    });
    for (const folder of Object.values(folders))
      assert.equal(readFileSync(join(folder.project, 'ok.txt'), 'utf8'), 'hi\n');
    const [after] = seen(folders.policy, 'after');
    assert.deepEqual(after!.tool_response, {
      stdout: 'hi\n',
      stderr: '',
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    });
    assert.equal(seen(folders.policy, 'allow').length, 1);
  });

  test('after a tool, peri-hooks that cannot start: the output goes on to the model; under --fail-closed the model reads the failure instead', async () => {
    const turns = [bash('echo hi | tee ok.txt')];
    const [open, closed] = await Promise.all(
      [false, true].map(async (failClosed) => {
        const folder_ = folder(`after-nostart${failClosed ? '-closed' : ''}`);
        const plugin = await installPolicy(
          folder_,
          { PostToolUse: [{ matcher: 'Bash', hooks: [command(recordingHook(folder_, 'after'))] }] },
          { failClosed },
        );
        writeFileSync(
          plugin,
          readFileSync(plugin, 'utf8').replace(/^const RUNNER = .*$/m, 'const RUNNER = ["/nonexistent/peri-hooks"];'),
        );
        const run = await runOpencode(folder_, turns);
        assert.equal(readFileSync(join(folder_.project, 'ok.txt'), 'utf8'), 'hi\n', 'the tool ran');
        return run;
      }),
    );
    assert.deepEqual(outcome(open!), { toolResults: ['hi\n'], code: 0, agentRequests: 2, timedOut: false });
    assert.match(open!.stderr, /peri-hooks failed \(.*ENOENT.*\); the call goes on/);
    assert.equal(outcome(closed!).agentRequests, 2);
    assert.deepEqual(toolResults(closed!), ['peri-hooks failed; refused because of --fail-closed']);
  });

  test("ask: opencode's own ask permission is rejected by `opencode run`, which ends the run; a policy's ask is a deny the model reads, and the run goes on", async () => {
    const turns = [bash('echo asked > asked.txt')];
    const { native, policy, folders } = await both(
      'ask',
      async (folder) => {
        folder.write('opencode.json', { permission: { bash: { '*': 'allow', 'echo asked*': 'ask' } } });
        return runOpencode(folder, turns);
      },
      async (folder) => {
        await installPolicy(folder, {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                command(
                  recordingHook(folder, 'ask', {
                    stdout: {
                      hookSpecificOutput: {
                        hookEventName: 'PreToolUse',
                        permissionDecision: 'ask',
                        permissionDecisionReason: 'confirm the write',
                      },
                    },
                  }),
                ),
              ],
            },
          ],
        });
        return runOpencode(folder, turns);
      },
    );
    for (const folder of Object.values(folders)) assert.equal(existsSync(join(folder.project, 'asked.txt')), false);
    assert.deepEqual(outcome(native), { toolResults: [], code: 0, agentRequests: 1, timedOut: false });
    assert.match(native.stderr, /permission requested: bash \(echo asked > asked\.txt\); auto-rejecting/);
    assert.deepEqual(outcome(policy), {
      toolResults: ['confirm the write'],
      code: 0,
      agentRequests: 2,
      timedOut: false,
    });
    assert.match(
      policy.stderr,
      /unsupported on opencode \(plugin\) tool\.execute\.before: asking the user \(permissionDecision ask\); denied instead, the safe side/,
    );
  });

  test("rewrite: the arguments are changed in place, and the 3 s hook leaves opencode's event loop running", async () => {
    const turns = [bash('echo original > r.txt')];
    const { native, policy, folders } = await both(
      'rewrite',
      async (folder) => {
        watchdog(folder);
        nativePlugin(
          folder,
          'export default async () => ({ "tool.execute.before": async (input, output) => { await new Promise((resolve) => setTimeout(resolve, 3000)); output.args.command = "echo rewritten > r.txt"; } });\n',
        );
        return runOpencode(folder, turns);
      },
      async (folder) => {
        watchdog(folder);
        const hook = folder.write(
          '../hooks/slow-rewrite.sh',
          [
            '#!/bin/sh',
            'cat > /dev/null',
            `date +%s%3N > ${folder.root}/hook-start`,
            'sleep 3',
            `date +%s%3N > ${folder.root}/hook-end`,
            `printf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo rewritten > r.txt', description: 'run it' } } })}'`,
            '',
          ].join('\n'),
        );
        await installPolicy(folder, { PreToolUse: [{ matcher: 'Bash', hooks: [command(hook)] }] });
        return runOpencode(folder, turns);
      },
    );
    assert.deepEqual(outcome(policy), outcome(native));
    assert.equal(outcome(native).agentRequests, 2);
    for (const folder of Object.values(folders))
      assert.equal(readFileSync(join(folder.project, 'r.txt'), 'utf8'), 'rewritten\n');
    // spawnSync froze opencode for the whole hook: no timer of another plugin fired while it ran.
    const start = Number(readFileSync(join(folders.policy.root, 'hook-start'), 'utf8'));
    const end = Number(readFileSync(join(folders.policy.root, 'hook-end'), 'utf8'));
    const ticks = (JSON.parse(readFileSync(join(folders.policy.root, 'ticks.json'), 'utf8')) as number[]).filter(
      (at) => at > start && at < end,
    );
    assert.ok(end - start >= 3000);
    assert.ok(ticks.length >= 2, `opencode's timers ran ${ticks.length} times during the ${end - start} ms hook`);
  });

  test('apply_patch (a gpt- model): the Add File is a Write, and a Write|Edit guard keeps .env.local from being written', async () => {
    const turns = [
      {
        toolCalls: [
          {
            name: 'apply_patch',
            arguments: { patchText: '*** Begin Patch\n*** Add File: .env.local\n+SECRET=1\n*** End Patch' },
          },
        ],
      },
    ];
    const { native, policy, folders } = await both(
      'patch',
      async (folder) => {
        nativePlugin(
          folder,
          'export default async () => ({ "tool.execute.before": async (input, output) => { if (input.tool === "apply_patch" && /\\.env/.test(output.args.patchText)) throw new Error("no .env files"); } });\n',
        );
        return runOpencode(folder, turns, { model: 'gpt-fake' });
      },
      async (folder) => {
        await installPolicy(folder, {
          PreToolUse: [
            {
              matcher: 'Write|Edit',
              hooks: [command(recordingHook(folder, 'env', { stderr: 'no .env files', exit: 2 }))],
            },
          ],
        });
        return runOpencode(folder, turns, { model: 'gpt-fake' });
      },
    );
    const offered = (native.agentChats[0]!.body.tools as Array<{ function: { name: string } }>).map(
      (tool) => tool.function.name,
    );
    assert.ok(
      offered.includes('apply_patch') && !offered.includes('write') && !offered.includes('edit'),
      offered.join(' '),
    );
    assert.deepEqual(outcome(policy), outcome(native));
    assert.deepEqual(outcome(native), { toolResults: ['no .env files'], code: 0, agentRequests: 2, timedOut: false });
    for (const folder of Object.values(folders)) assert.equal(existsSync(join(folder.project, '.env.local')), false);
    const [input] = seen(folders.policy, 'env');
    assert.equal(input!.tool_name, 'Write');
    assert.deepEqual(input!.tool_input, {
      file_path: join(folders.policy.project, '.env.local'),
      content: 'SECRET=1\n',
    });
    assert.equal(input!.peri_hooks_host.tool_name, 'apply_patch');
  });

  test('a crashing and a timed-out hook: opencode refuses a call whose plugin throws, and so does peri-hooks, with and without --fail-closed; so when peri-hooks cannot start', async () => {
    const turns = [
      {
        toolCalls: [
          { name: 'bash', arguments: { command: 'echo ran > crash.txt', description: 'run it' } },
          { name: 'write', arguments: { filePath: 'slow.txt', content: 'slow\n' } },
        ],
      },
    ];
    const policy = (folder: RunFolder) => ({
      PreToolUse: [
        { matcher: 'Bash', hooks: [command(recordingHook(folder, 'crash', { stderr: 'TypeError: boom', exit: 1 }))] },
        { matcher: 'Write', hooks: [command(recordingHook(folder, 'slow', { sleep: 30 }), { timeout: 1 })] },
      ],
    });
    const runs = await Promise.all([
      (async () => {
        const folder_ = folder('crash-native');
        nativePlugin(
          folder_,
          'export default async () => ({ "tool.execute.before": async (input) => { if (input.tool === "bash") null.x; if (input.tool === "write") await new Promise((resolve, reject) => { setTimeout(resolve, 5000); setTimeout(() => reject(new Error("the hook timed out")), 1000); }); } });\n',
        );
        return runOpencode(folder_, turns);
      })(),
      ...[false, true].map(async (failClosed) => {
        const folder_ = folder(`crash-policy${failClosed ? '-closed' : ''}`);
        await installPolicy(folder_, policy(folder_), { failClosed });
        return runOpencode(folder_, turns);
      }),
      (async () => {
        const folder_ = folder('crash-nostart');
        const plugin = await installPolicy(folder_, policy(folder_));
        writeFileSync(
          plugin,
          readFileSync(plugin, 'utf8').replace(/^const RUNNER = .*$/m, 'const RUNNER = ["/nonexistent/peri-hooks"];'),
        );
        return runOpencode(folder_, turns);
      })(),
    ]);
    for (const run of runs) {
      assert.deepEqual(
        { ...outcome(run), toolResults: toolResults(run).length },
        { toolResults: 2, code: 0, agentRequests: 2, timedOut: false },
      );
    }
    for (const folder_ of made.filter((made_) => made_.root.includes('oc-crash-'))) {
      assert.equal(existsSync(join(folder_.project, 'crash.txt')), false, folder_.root);
      assert.equal(existsSync(join(folder_.project, 'slow.txt')), false, folder_.root);
    }
    const [native, open, closed, nostart] = runs.map((run) => toolResults(run).sort());
    assert.deepEqual(native, ["null is not an object (evaluating 'null.x')", 'the hook timed out']);
    for (const text of open!)
      assert.match(
        text,
        /^a policy hook (failed|timed out) \(blocking because of opencode \(plugin\), which refuses the action when a tool\.execute\.before hook fails\)$/,
      );
    for (const text of closed!)
      assert.match(text, /^a policy hook (failed|timed out) \(blocking because of --fail-closed\)$/);
    assert.deepEqual(nostart, ['peri-hooks failed; refused', 'peri-hooks failed; refused']);
    assert.match(runs[3]!.stderr, /peri-hooks failed \(.*ENOENT.*\); refused/, "the details are on opencode's stderr");
  });

  test('prompts (chat.message): a block refuses the prompt before any model request; context is one more part of it the model reads', async () => {
    const prompt = {
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'the repo is frozen' },
    };
    const [blocked, context, crashed] = await Promise.all([
      both(
        'prompt-block',
        async (folder) => {
          nativePlugin(
            folder,
            'export default async () => ({ "chat.message": async () => { throw new Error("not today"); } });\n',
          );
          return runOpencode(folder, []);
        },
        async (folder) => {
          await installPolicy(folder, {
            UserPromptSubmit: [
              {
                hooks: [
                  command(recordingHook(folder, 'prompt', { stdout: { decision: 'block', reason: 'not today' } })),
                ],
              },
            ],
          });
          return runOpencode(folder, []);
        },
      ),
      both(
        'prompt-context',
        async (folder) => {
          nativePlugin(
            folder,
            'export default async () => ({ "chat.message": async (input, output) => { const last = output.parts.at(-1); output.parts.push({ type: "text", text: "the repo is frozen", synthetic: true, id: `${last.id}p`, messageID: last.messageID, sessionID: last.sessionID }); } });\n',
          );
          return runOpencode(folder, []);
        },
        async (folder) => {
          await installPolicy(folder, {
            UserPromptSubmit: [{ hooks: [command(recordingHook(folder, 'prompt', { stdout: prompt }))] }],
          });
          return runOpencode(folder, []);
        },
      ),
      (async () => {
        const folder_ = folder('prompt-crash');
        await installPolicy(folder_, {
          UserPromptSubmit: [{ hooks: [command(recordingHook(folder_, 'prompt', { stderr: 'boom', exit: 1 }))] }],
        });
        return runOpencode(folder_, []);
      })(),
    ]);
    assert.deepEqual(outcome(blocked.policy), outcome(blocked.native));
    assert.deepEqual(outcome(blocked.native), { toolResults: [], code: 1, agentRequests: 0, timedOut: false });
    assert.match(blocked.policy.stderr, /not today/, 'the reason reaches the user on stderr');
    assert.equal(seen(blocked.folders.policy, 'prompt')[0]!.prompt, '"Do the task."');
    assert.deepEqual(
      outcome(crashed),
      outcome(blocked.native),
      'a failing prompt hook refuses the prompt, as a throwing plugin does',
    );
    assert.deepEqual(outcome(context.policy), outcome(context.native));
    for (const run of [context.native, context.policy])
      assert.deepEqual(chatTexts(run.agentChats[0]!).slice(1), ['"Do the task."', 'the repo is frozen']);
  });

  /** a team policy as Claude Code users write it, one turn of parallel calls: `Write|Edit`, `Read`, `if: Bash(git push:*)` beside an allow, two contexts after a tool; the project's own plugin kept and run */
  const teamPolicy = async () => {
    const turns = [
      {
        toolCalls: [
          { name: 'write', arguments: { filePath: '.env.local', content: 'TOKEN=1\n' } },
          { name: 'edit', arguments: { filePath: 'notes.txt', oldString: 'old', newString: 'new' } },
          { name: 'read', arguments: { filePath: 'secret.txt' } },
          { name: 'bash', arguments: { command: 'git push origin main', description: 'push' } },
          { name: 'bash', arguments: { command: 'echo HELLO_OUT | tee OUT.txt', description: 'echo' } },
        ],
      },
    ];
    const marks = ['no .env files', 'no secrets', 'no pushes', 'HELLO_OUT', 'CTX_A', 'CTX_B', 'CTX_OWN', 'SECRET_BODY'];
    const own =
      'export default async () => ({ "tool.execute.after": async (input, output) => { if (input.tool === "bash") output.output += "\\n\\nCTX_OWN"; } });\n';
    const prepare = (folder: RunFolder) => {
      folder.write('notes.txt', 'old text\n');
      folder.write('secret.txt', 'SECRET_BODY\n');
      folder.write('.opencode/plugins/own.js', own);
    };
    const facts = (run: OpencodeRun, folder: RunFolder) => {
      const results = toolResults(run).join('\n');
      return {
        code: run.code,
        agentRequests: run.agentChats.length,
        results: toolResults(run).length,
        saw: Object.fromEntries(marks.map((mark) => [mark, results.includes(mark)])),
        envWritten: existsSync(join(folder.project, '.env.local')),
        out: existsSync(join(folder.project, 'OUT.txt')),
      };
    };
    const deny = (reason: string) => ({
      stdout: {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: reason,
        },
      },
    });
    const context = (text: string) => ({
      stdout: { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: text } },
    });
    const { native, policy, folders } = await both(
      'team',
      async (folder) => {
        prepare(folder);
        nativePlugin(
          folder,
          `export default async () => ({
  "tool.execute.before": async (input, output) => {
    if ((input.tool === "write" || input.tool === "edit") && /\\.env/.test(output.args.filePath)) throw new Error("no .env files");
    if (input.tool === "read") throw new Error("no secrets");
    if (input.tool === "bash" && /^git push/.test(output.args.command)) throw new Error("no pushes");
  },
  "tool.execute.after": async (input, output) => { if (input.tool === "bash") output.output = [output.output, "CTX_A", "CTX_B"].join("\\n\\n"); },
});
`,
        );
        return runOpencode(folder, turns);
      },
      async (folder) => {
        prepare(folder);
        await installPolicy(folder, {
          PreToolUse: [
            { matcher: 'Write|Edit', hooks: [command(scriptHook(folder, 'files', '.env'))] },
            { matcher: 'Read', hooks: [command(recordingHook(folder, 'read', deny('no secrets')))] },
            {
              matcher: 'Bash',
              hooks: [
                command(
                  recordingHook(folder, 'allow', {
                    stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } },
                  }),
                ),
                command(recordingHook(folder, 'push', deny('no pushes')), { if: 'Bash(git push:*)' }),
              ],
            },
          ],
          PostToolUse: [
            { matcher: 'Write|Edit', hooks: [command(recordingHook(folder, 'edited'))] },
            {
              matcher: 'Bash',
              hooks: [
                command(recordingHook(folder, 'ctx-a', context('CTX_A'))),
                command(recordingHook(folder, 'ctx-b', context('CTX_B'))),
              ],
            },
          ],
        });
        assert.equal(readFileSync(join(folder.project, '.opencode/plugins/own.js'), 'utf8'), own);
        return runOpencode(folder, turns);
      },
    );
    const policyFolder = folders.policy;
    const at = (file: string) => join(policyFolder.project, file);
    assert.deepEqual(
      // Parallel calls: in any order.
      seen(policyFolder, 'files')
        .map((input) => [input.tool_name, input.tool_input])
        .sort(),
      [
        ['Edit', { file_path: at('notes.txt'), old_string: 'old', new_string: 'new' }],
        ['Write', { file_path: at('.env.local'), content: 'TOKEN=1\n' }],
      ],
    );
    assert.deepEqual(seen(policyFolder, 'read')[0]!.tool_input, { file_path: at('secret.txt') });
    // The `if` ran the push guard for the push alone; both contexts follow the project's own plugin's.
    assert.deepEqual(
      seen(policyFolder, 'push').map((input) => input.tool_input.command),
      ['git push origin main'],
    );
    assert.equal(seen(policyFolder, 'ctx-a')[0]!.tool_response.stdout, 'HELLO_OUT\n');
    assert.equal(seen(policyFolder, 'edited')[0]!.tool_response.filePath, at('notes.txt'));
    assert.deepEqual(facts(native, folders.native), {
      code: 0,
      agentRequests: 2,
      results: 5,
      saw: { ...Object.fromEntries(marks.map((mark) => [mark, true])), SECRET_BODY: false },
      envWritten: false,
      out: true,
    });
    assert.deepEqual(facts(policy, policyFolder), facts(native, folders.native));
  };

  /** MCP: opencode names a server tool <server>_<tool>; a Claude Code `mcp__.*` guard denies one of two parallel calls as a native plugin does */
  const mcpTools = async () => {
    const call = (text: string) => ({ name: 'srv_ping_me', arguments: { text } });
    const turns = [{ toolCalls: [call('hello'), call('FORBIDDEN')] }];
    const withServer = (folder: RunFolder) => {
      const server = mcpServer(folder);
      folder.write('opencode.json', {
        $schema: 'https://opencode.ai/config.json',
        mcp: { srv: { type: 'local', command: [server.command, ...server.args], enabled: true } },
      });
      return server;
    };
    const ran: Record<string, string[]> = {};
    const calls = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []);
    const { native, policy, folders } = await both(
      'mcp',
      async (folder) => {
        const server = withServer(folder);
        nativePlugin(
          folder,
          'export default async () => ({ "tool.execute.before": async (input, output) => { if (input.tool.startsWith("srv_") && output.args.text === "FORBIDDEN") throw new Error("no FORBIDDEN files"); } });\n',
        );
        const run = await runOpencode(folder, turns);
        ran.native = calls(server.calls);
        return run;
      },
      async (folder) => {
        const server = withServer(folder);
        await installPolicy(folder, {
          PreToolUse: [{ matcher: 'mcp__.*', hooks: [command(scriptHook(folder, 'guard', 'FORBIDDEN'))] }],
        });
        const run = await runOpencode(folder, turns);
        ran.policy = calls(server.calls);
        return run;
      },
    );
    const offered: Array<{ function?: { name?: string } }> = native.agentChats[0]!.body.tools;
    assert.ok(offered.some((tool) => tool.function?.name === 'srv_ping_me'));
    assert.deepEqual(outcome(native), {
      toolResults: ['PONG:hello', 'no FORBIDDEN files'],
      code: 0,
      agentRequests: 2,
      timedOut: false,
    });
    assert.deepEqual(ran, { native: ['{"text":"hello"}'], policy: ['{"text":"hello"}'] });
    assert.deepEqual(
      seen(folders.policy, 'guard')
        .map((input) => [input.tool_name, input.tool_input.text])
        .sort(),
      [
        ['mcp__srv__ping_me', 'FORBIDDEN'],
        ['mcp__srv__ping_me', 'hello'],
      ],
    );
    assert.deepEqual(outcome(policy), outcome(native));
  };

  // Independent, so at the same time: each opencode run takes most of a minute on 2 cores.
  test("a team policy as Claude Code users write it (Write|Edit, Read, an if beside an allow, five parallel calls, two contexts, the project's own plugin); MCP tools under a mcp__.* guard", () =>
    Promise.all([teamPolicy(), mcpTools()]).then(() => undefined));
});

/** A plugin of the test's own that records when opencode's timers fire, to see whether a hook freezes the loop. */
function watchdog(folder: RunFolder): void {
  folder.write(
    '.opencode/plugins/watchdog.js',
    `import { writeFileSync } from "node:fs";
const ticks = [];
const timer = setInterval(() => ticks.push(Date.now()), 20);
timer.unref?.();
export default async () => ({ "tool.execute.after": async () => { writeFileSync(${JSON.stringify(join(folder.root, 'ticks.json'))}, JSON.stringify(ticks)); } });
`,
  );
}
