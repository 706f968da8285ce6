// The real Qwen Code 0.24.4 against peri-hooks: each case runs natively (the hook in `.qwen/settings.json`) and
// as a Claude Code policy through `peri-hooks install --host qwen`, and compares what the agent did: did the tool
// run, what the model saw, the exit status, the number of model requests. Where Qwen Code ignores an answer
// (a rewrite, context before a tool, a block after one) the native run shows it, and peri-hooks' run meets the
// README's claim instead. `npm run test:hosts qwen`.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { type RunFolder, recordInput, recordingHook, seen } from './common.ts';
import {
  cleanupRuns,
  handler,
  modelSaw,
  PROMPT,
  projectFile,
  type QwenCase,
  type QwenRun,
  runQwen,
  texts,
  toolResults,
} from './qwen.ts';

after(cleanupRuns);

const SHELL = { name: 'run_shell_command', arguments: { command: 'echo ran > ran.txt' } };
const TOOL_THEN_DONE = [{ toolCalls: [SHELL] }, { text: 'DONE' }];

/** Both runs of a case, side by side. */
async function both(build: (folder: RunFolder) => QwenCase): Promise<{ native: QwenRun; policy: QwenRun }> {
  const [native, policy] = await Promise.all([runQwen('native', build), runQwen('policy', build)]);
  for (const run of [native, policy]) {
    assert.equal(run.result.timedOut, false, `qwen did not finish: ${run.result.stderr}`);
    // Its one side request, managed memory extraction, is answered apart so it cannot shift the script.
    for (const request of run.side)
      assert.match(
        texts(request)[0] ?? '',
        /managed memory extraction subagent/,
        'Qwen Code made a new kind of side request',
      );
  }
  return { native, policy };
}

/** A hook script of the case's own (shell), that also records its input like recordingHook. */
function scriptHook(folder: RunFolder, name: string, body: string): string {
  const seenFile = join(folder.root, 'seen', `${name}.jsonl`);
  recordingHook(folder, `${name}-unused`);
  return folder.writeHome(`hooks/${name}.sh`, `#!/bin/sh\n${recordInput(seenFile)}\n${body}\n`);
}

const pre = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });

describe('Qwen Code 0.24.4: native hooks and the same policy through peri-hooks', { concurrency: 3 }, () => {
  test('exit-2 deny: the command does not run, the model reads the reason alone, two requests', async () => {
    const { native, policy } = await both((folder) => {
      const deny = handler(recordingHook(folder, 'deny', { stderr: 'no shell here', exit: 2 }));
      // The policy also adds context, which Qwen cannot show before a tool: peri-hooks' note must not reach the model.
      const context = handler(recordingHook(folder, 'context', { stdout: pre({ additionalContext: 'PRE-CONTEXT' }) }));
      return {
        turns: TOOL_THEN_DONE,
        native: { PreToolUse: [{ matcher: 'run_shell_command', hooks: [deny] }] },
        policy: { PreToolUse: [{ matcher: 'Bash', hooks: [deny, context] }] },
      };
    });
    for (const run of [native, policy]) {
      assert.equal(run.result.code, 0, run.result.stderr);
      assert.equal(projectFile(run, 'ran.txt'), undefined);
      assert.equal(run.main.length, 2);
      assert.match(toolResults(run)[0]!, /no shell here/);
      assert.doesNotMatch(modelSaw(run), /peri-hooks:|PRE-CONTEXT|unsupported on/);
    }
    assert.deepEqual(toolResults(policy), toolResults(native));
    const [input] = seen(policy.folder, 'deny');
    assert.equal(input!.tool_name, 'Bash');
    assert.equal(input!.tool_input.command, 'echo ran > ran.txt');
    assert.equal(input!.peri_hooks_host.fields.permission_mode, 'yolo');
    assert.equal(input!.permission_mode, 'bypassPermissions');
    assert.deepEqual(Object.keys(input!.peri_hooks_host.fields).sort(), [
      'permission_mode',
      'prompt_id',
      'tool_call_id',
    ]);
  });

  test('JSON deny and JSON allow: the same tool results and requests natively and through peri-hooks', async () => {
    const answers = {
      deny: pre({ permissionDecision: 'deny', permissionDecisionReason: 'denied by JSON' }),
      allow: pre({ permissionDecision: 'allow', permissionDecisionReason: 'fine' }),
    };
    for (const [name, answer] of Object.entries(answers)) {
      const { native, policy } = await both((folder) => {
        const hook = handler(recordingHook(folder, name, { stdout: answer }));
        return {
          turns: TOOL_THEN_DONE,
          native: { PreToolUse: [{ hooks: [hook] }] },
          policy: { PreToolUse: [{ hooks: [hook] }] },
        };
      });
      for (const run of [native, policy]) {
        assert.equal(run.result.code, 0, run.result.stderr);
        assert.equal(run.main.length, 2);
        assert.equal(projectFile(run, 'ran.txt'), name === 'allow' ? 'ran\n' : undefined);
      }
      assert.deepEqual(toolResults(policy), toolResults(native));
      if (name === 'deny') assert.match(toolResults(policy)[0]!, /denied by JSON/);
    }
  });

  test('rewrite: Qwen Code runs the original command; through peri-hooks the call is refused with the reason', async () => {
    const { native, policy } = await both((folder) => {
      const hook = handler(
        recordingHook(folder, 'rewrite', {
          stdout: pre({ permissionDecision: 'allow', updatedInput: { command: 'echo safe > safe.txt' } }),
        }),
      );
      return {
        turns: TOOL_THEN_DONE,
        native: { PreToolUse: [{ hooks: [hook] }] },
        policy: { PreToolUse: [{ hooks: [hook] }] },
      };
    });
    assert.equal(
      projectFile(native, 'ran.txt'),
      'ran\n',
      'Qwen Code applied updatedInput after all: the table may claim rewrites',
    );
    assert.equal(projectFile(native, 'safe.txt'), undefined);
    assert.equal(projectFile(policy, 'ran.txt'), undefined);
    assert.equal(projectFile(policy, 'safe.txt'), undefined);
    assert.match(
      toolResults(policy)[0]!,
      /the policy rewrites this call, which Qwen Code cannot apply; it is refused rather than run unchanged/,
    );
    assert.doesNotMatch(modelSaw(policy), /peri-hooks:/);
    for (const run of [native, policy]) assert.deepEqual([run.result.code, run.main.length], [0, 2]);
  });

  test("context: after a tool and after a failed one the model reads it, before a tool Qwen drops it; a block after a tool is continue: false; tool_response in Claude Code's shape; read_file's 0-based offset is Read's offset + 1", async () => {
    const { native, policy } = await both((folder) => {
      const before = handler(recordingHook(folder, 'before', { stdout: pre({ additionalContext: 'PRE-CONTEXT' }) }));
      const after = handler(
        recordingHook(folder, 'after', {
          stdout: {
            decision: 'block',
            reason: 'POST-BLOCK',
            hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'POST-CONTEXT' },
          },
        }),
      );
      const failed = handler(
        recordingHook(folder, 'failed', {
          stdout: { hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'FAILURE-CONTEXT' } },
        }),
      );
      const groups = {
        PreToolUse: [{ hooks: [before] }],
        PostToolUse: [{ hooks: [after] }],
        PostToolUseFailure: [{ hooks: [failed] }],
      };
      const missing = { name: 'read_file', arguments: { file_path: join(folder.project, 'missing.txt') } };
      folder.write('lines.txt', 'LINE-ONE\nLINE-TWO\nLINE-THREE\nLINE-FOUR\nLINE-FIVE\n');
      const lines = { file_path: join(folder.project, 'lines.txt') };
      const reads = [
        { name: 'read_file', arguments: { ...lines, offset: 1, limit: 2 } },
        { name: 'read_file', arguments: { ...lines, offset: null, limit: 1 } },
      ];
      return {
        // One call a turn: hooks of parallel calls would write their logs at once.
        turns: [{ toolCalls: [SHELL] }, { toolCalls: [missing] }, ...reads.map((read) => ({ toolCalls: [read] }))],
        native: groups,
        policy: groups,
      };
    });
    for (const run of [native, policy]) {
      assert.deepEqual([run.result.code, run.main.length, projectFile(run, 'ran.txt')], [0, 5, 'ran\n']);
      assert.match(modelSaw(run), /POST-CONTEXT/);
      assert.match(toolResults(run)[1]!, /FAILURE-CONTEXT/);
      assert.doesNotMatch(modelSaw(run), /PRE-CONTEXT|peri-hooks:/);
    }
    // Qwen reads no decision after a tool: natively the output and the context go to the model, the block does not;
    // peri-hooks answers continue: false, which puts the reason (and the context) in place of the output.
    assert.match(toolResults(native)[0]!, /^\[\{"type":"text","text":"Command: echo ran > ran.txt[\s\S]*POST-CONTEXT/);
    assert.doesNotMatch(modelSaw(native), /POST-BLOCK/);
    assert.equal(toolResults(policy)[0]!, '[{"type":"text","text":"POST-BLOCK\\n\\nPOST-CONTEXT"}]');
    assert.equal(toolResults(policy)[1]!, toolResults(native)[1]!);
    assert.deepEqual(seen(native.folder, 'after')[0]!.tool_response.llmContent.split('\n')[2], 'Output: (empty)');
    assert.deepEqual(seen(policy.folder, 'after')[0]!.tool_response, {
      stdout: '',
      stderr: '',
      interrupted: false,
      isImage: false,
    });
    const [failure] = seen(policy.folder, 'failed');
    assert.equal(failure!.tool_name, 'Read');
    assert.equal(typeof failure!.error, 'string');
    // read_file's offset counts from 0: Qwen's offset 1 is the second line, Read's offset 2; a null offset (sent
    // to the hook as it came) is from line 1.
    assert.match(
      toolResults(native)[2]!,
      /^\[\{"type":"text","text":"Showing lines 2-3 of \d+ total lines\.\\n\\n---\\n\\nLINE-TWO\\nLINE-THREE\\n/,
    );
    assert.match(
      toolResults(native)[3]!,
      /^\[\{"type":"text","text":"Showing lines 1-1 of \d+ total lines\.\\n\\n---\\n\\nLINE-ONE\\n/,
    );
    const reads = (run: QwenRun, name: string) =>
      seen(run.folder, name).filter((input) => String(input.tool_input.file_path).endsWith('lines.txt'));
    assert.deepEqual(
      reads(native, 'before').map((input) => input.tool_input),
      [
        { file_path: join(native.folder.project, 'lines.txt'), offset: 1, limit: 2 },
        { file_path: join(native.folder.project, 'lines.txt'), offset: null, limit: 1 },
      ],
    );
    const lines = join(policy.folder.project, 'lines.txt');
    assert.deepEqual(
      reads(policy, 'before').map((input) => [input.tool_name, input.tool_input, input.peri_hooks_host.tool_input]),
      [
        ['Read', { file_path: lines, offset: 2, limit: 2 }, { file_path: lines, offset: 1, limit: 2 }],
        ['Read', { file_path: lines, limit: 1 }, { file_path: lines, offset: null, limit: 1 }],
      ],
    );
    // The policy judged both reads after them too (its block is each one's result), the part read from its line.
    assert.deepEqual(
      reads(policy, 'after').map((input) => {
        const { content, startLine, totalLines } = input.tool_response.file;
        return [input.tool_input.offset, content.replace(/\n$/, ''), startLine, totalLines];
      }),
      [
        [2, 'LINE-TWO\nLINE-THREE', 2, 6],
        [undefined, 'LINE-ONE', 1, 6],
      ],
    );
    assert.deepEqual(
      toolResults(policy).slice(2),
      Array(2).fill('[{"type":"text","text":"POST-BLOCK\\n\\nPOST-CONTEXT"}]'),
    );
  });

  test('continue: false on a tool event: the model goes on, with the reason instead of the call or of its output', async () => {
    const halt = { continue: false, stopReason: 'HALT-REASON' };
    const [before, after] = await Promise.all(
      ['PreToolUse', 'PostToolUse'].map((event) =>
        both((folder) => {
          const hook = handler(recordingHook(folder, 'halt', { stdout: halt }));
          return {
            turns: TOOL_THEN_DONE,
            native: { [event]: [{ hooks: [hook] }] },
            policy: { [event]: [{ hooks: [hook] }] },
          };
        }),
      ),
    );
    for (const [pair, ran] of [
      [before!, undefined],
      [after!, 'ran\n'],
    ] as const) {
      for (const run of [pair.native, pair.policy]) {
        assert.deepEqual([run.result.code, run.main.length, projectFile(run, 'ran.txt')], [0, 2, ran]);
        assert.equal(toolResults(run)[0], '[{"type":"text","text":"HALT-REASON"}]');
      }
      assert.equal(pair.policy.result.stdout, pair.native.result.stdout);
    }
  });

  test('prompt: a block stops before any request; context reaches the model; continuations fire no UserPromptSubmit through peri-hooks', async () => {
    const blocked = await both((folder) => {
      const hook = handler(recordingHook(folder, 'block', { stdout: { decision: 'block', reason: 'PROMPT-BLOCKED' } }));
      return {
        turns: TOOL_THEN_DONE,
        native: { UserPromptSubmit: [{ hooks: [hook] }] },
        policy: { UserPromptSubmit: [{ hooks: [hook] }] },
      };
    });
    for (const run of [blocked.native, blocked.policy]) {
      assert.equal(run.main.length, 0);
      assert.equal(projectFile(run, 'ran.txt'), undefined);
    }
    assert.equal(blocked.policy.result.code, blocked.native.result.code);
    assert.equal(blocked.policy.result.stdout, blocked.native.result.stdout);
    const context = await both((folder) => {
      const hook = handler(
        recordingHook(folder, 'context', {
          stdout: { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'PROMPT-CONTEXT' } },
        }),
      );
      return {
        turns: TOOL_THEN_DONE,
        native: { UserPromptSubmit: [{ hooks: [hook] }] },
        policy: { UserPromptSubmit: [{ hooks: [hook] }] },
      };
    });
    for (const run of [context.native, context.policy]) {
      assert.deepEqual([run.result.code, run.main.length, projectFile(run, 'ran.txt')], [0, 2, 'ran\n']);
      assert.match(texts(run.main[0]).join('\n'), /PROMPT-CONTEXT/);
    }
    assert.deepEqual(
      seen(context.native.folder, 'context').map((input) => input.prompt),
      [PROMPT, ''],
    );
    assert.deepEqual(
      seen(context.policy.folder, 'context').map((input) => input.prompt),
      [PROMPT],
    );
  });

  test('Stop: a block continues the turn once with the reason; a policy that always blocks is capped by Qwen Code', async () => {
    const once = await both((folder) => {
      const hook = handler(
        scriptHook(
          folder,
          'stop-once',
          `case "$input" in *'"stop_hook_active":true'*) exit 0;; esac\nprintf '%s' '{"decision":"block","reason":"STOP-AGAIN"}'`,
        ),
      );
      return {
        turns: [{ text: 'first' }, { text: 'second' }],
        native: { Stop: [{ hooks: [hook] }] },
        policy: { Stop: [{ hooks: [hook] }] },
      };
    });
    for (const run of [once.native, once.policy]) {
      assert.deepEqual([run.result.code, run.main.length], [0, 2]);
      assert.match(texts(run.main[1]).join('\n'), /STOP-AGAIN/);
      assert.equal(seen(run.folder, 'stop-once').length, 2);
    }
    assert.equal(once.policy.result.stdout, once.native.result.stdout);
    const loop = await both((folder) => {
      const hook = handler(recordingHook(folder, 'stop-loop', { stdout: { decision: 'block', reason: 'LOOP' } }));
      return { turns: [], native: { Stop: [{ hooks: [hook] }] }, policy: { Stop: [{ hooks: [hook] }] } };
    });
    assert.equal(
      loop.native.main.length,
      8,
      'Qwen Code ends a chain of Stop blocks at the 8th (QWEN_CODE_STOP_HOOK_BLOCK_CAP)',
    );
    assert.equal(loop.policy.main.length, loop.native.main.length);
    assert.equal(loop.policy.result.code, loop.native.result.code);
  });

  test('ask: headless, Qwen Code refuses the call, and so it does through peri-hooks', async () => {
    const { native, policy } = await both((folder) => {
      const hook = handler(
        recordingHook(folder, 'ask', {
          stdout: pre({ permissionDecision: 'ask', permissionDecisionReason: 'ASK-REASON' }),
        }),
      );
      return {
        turns: TOOL_THEN_DONE,
        native: { PreToolUse: [{ hooks: [hook] }] },
        policy: { PreToolUse: [{ hooks: [hook] }] },
      };
    });
    for (const run of [native, policy]) {
      assert.deepEqual([run.result.code, run.main.length, projectFile(run, 'ran.txt')], [0, 2, undefined]);
    }
    assert.deepEqual(toolResults(policy), toolResults(native));
  });

  test('crash, timeout and garbled JSON: Qwen Code runs the tool, as peri-hooks does; under --fail-closed it is refused and the model sees no command line', async () => {
    const build =
      (failClosed: boolean) =>
      (folder: RunFolder): QwenCase => {
        const crash = recordingHook(folder, 'crash', { stderr: 'CRASH-DETAIL', exit: 1 });
        const slow = recordingHook(folder, 'slow', { sleep: 6 });
        const garbled = handler(
          recordingHook(folder, 'garbled', { stdout: '{"hookSpecificOutput": {"permissionDecision": "deny"' }),
        );
        return {
          turns: [
            { toolCalls: [SHELL] },
            { toolCalls: [{ name: 'run_shell_command', arguments: { command: 'echo slow > slow.txt' } }] },
            { text: 'DONE' },
          ],
          native: {
            PreToolUse: [
              { hooks: [handler(`${crash} --token SECRET-ARG`), garbled] },
              { hooks: [handler(`${slow} --token SECRET-ARG`, 1000)] },
            ],
          },
          policy: {
            PreToolUse: [
              { hooks: [handler(`${crash} --token SECRET-ARG`), garbled] },
              { hooks: [handler(`${slow} --token SECRET-ARG`, 1)] },
            ],
          },
          failClosed,
        };
      };
    const [open, closed] = await Promise.all([both(build(false)), runQwen('policy', build(true))]);
    for (const run of [open.native, open.policy]) {
      assert.deepEqual(
        [run.result.code, run.main.length, projectFile(run, 'ran.txt'), projectFile(run, 'slow.txt')],
        [0, 3, 'ran\n', 'slow\n'],
      );
      assert.doesNotMatch(modelSaw(run), /CRASH-DETAIL|SECRET-ARG|peri-hooks:/);
    }
    assert.deepEqual(
      [closed.result.code, closed.main.length, projectFile(closed, 'ran.txt'), projectFile(closed, 'slow.txt')],
      [0, 3, undefined, undefined],
    );
    const refused = toolResults(closed);
    assert.equal(refused.length, 2);
    for (const result of refused)
      assert.match(result, /a policy hook (failed|timed out) \(blocking because of --fail-closed\)/);
    assert.doesNotMatch(
      modelSaw(closed),
      /CRASH-DETAIL|SECRET-ARG|crash\.sh|slow\.sh|peri-hooks\.cjs|--fail-closed \(a hook failed\)/,
    );
  });

  test("session start: context reaches the model's first request", async () => {
    const { native, policy } = await both((folder) => {
      const hook = handler(
        recordingHook(folder, 'start', {
          stdout: { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'SESSION-CONTEXT' } },
        }),
      );
      return {
        turns: [{ text: 'DONE' }],
        native: { SessionStart: [{ hooks: [hook] }] },
        policy: { SessionStart: [{ hooks: [hook] }] },
      };
    });
    for (const run of [native, policy]) {
      assert.deepEqual([run.result.code, run.main.length], [0, 1]);
      assert.match(texts(run.main[0]).join('\n'), /SESSION-CONTEXT/);
      assert.equal(seen(run.folder, 'start')[0]!.source, 'startup');
    }
  });
});
