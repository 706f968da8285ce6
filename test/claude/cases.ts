// The cases of `npm run test:claude`, as data: the hooks, what the model does, the prompt, and what the
// direct run must show. Tool calls write into the project (`touch ran-…`), so whether a tool ran is seen
// in the files it left. Hooks log their input under their name (see `hook`); `$input` holds it.
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.ts';
import { bash, type ClaudeCase, HOOK_SERVER, hook, say } from './harness.ts';

const json = (value: unknown) => `echo '${JSON.stringify(value)}'`;
const specific = (hookEventName: string, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  json({ ...extra, hookSpecificOutput: { hookEventName, ...fields } });
const pre = (fields: Record<string, unknown>, extra?: Record<string, unknown>) => specific('PreToolUse', fields, extra);
const onBash = (...hooks: Record<string, unknown>[]) => [{ matcher: 'Bash', hooks }];
const all = (...hooks: Record<string, unknown>[]) => [{ hooks }];
// Blocks until Claude Code sets stop_hook_active, i.e. once.
const blockStopOnce = (answer: string) => `case "$input" in *'"stop_hook_active":true'*) exit 0;; esac; ${answer}`;
const NO_PERMISSIONS = { permissions: { allow: [] } };
// Claude Code orders sibling hooks' texts by when they finished, peri-hooks by configuration: a hook that
// starts with this finishes after its instant siblings, so that the two orders are the same.
const THEN = 'sleep 1;';
// Claude Code does not wait for some hooks (async ones, InstructionsLoaded, CwdChanged) and ends them with the
// session. Such cases meet through marks in the run's folder instead of sleeps, so that none depends on how fast a
// process starts: a tool call waits for the mark a hook leaves (30 s at the most), an async hook for the mark of the
// tool call it must outlast. In single quotes, so that Claude Code's `if` sees plain commands.
const mark = (name: string) => `sh -c 'touch "$HOOK_LOG/../${name}.mark"'`;
const waitFor = (name: string) => `timeout 30 sh -c 'until [ -e "$HOOK_LOG/../${name}.mark" ]; do sleep 0.1; done'`;
// After an async hook's mark, the time for its process (or peri-hooks around it) to end and Claude Code to see it.
const SETTLE = 'sleep 1';
const httpHook = (path: string) => ({ type: 'http', url: `${HOOK_SERVER}${path}` });
// mcp_tool hooks call the guard of the MCP tests (test/mcp/guard-server.ts), a user-scope stdio server.
const GUARD = { guard: { command: process.execPath, args: [join(ROOT, 'test/mcp/guard-server.ts'), 'stdio'] } };
const guard = (tool: string, event: string, extra: Record<string, unknown> = {}) => ({
  type: 'mcp_tool',
  server: 'guard',
  tool,
  input: { event },
  ...extra,
});

// Through install --via mcp (docs/agents/mcp.md): Claude Code passes on no plain text an mcp_tool hook answers, so
// peri-hooks answers a command's plain-stdout context as additionalContext, framed "hook additional context:"
// where the command's is "hook success:".
const PLAIN_CONTEXT_OVER_MCP =
  'plain stdout context: an mcp_tool answer can only give it as additionalContext, which Claude Code frames "<Event> hook additional context:" instead of "<Event> hook success:"';

export const CASES: ClaudeCase[] = [
  {
    name: 'events of a turn with one tool call: every hook sees its input',
    hooks: {
      SessionStart: all(hook('sessionstart')),
      UserPromptSubmit: all(hook('userpromptsubmit')),
      PreToolUse: onBash(hook('pretooluse')),
      PostToolUse: onBash(hook('posttooluse')),
      PostToolBatch: all(hook('posttoolbatch')),
      Stop: all(hook('stop')),
      SessionEnd: all(hook('sessionend')),
    },
    model: [[bash('toolu_a1', 'touch ran-a1')], [say('all done')]],
    expect: {
      ran: ['sessionstart', 'userpromptsubmit', 'pretooluse', 'posttooluse', 'posttoolbatch', 'stop', 'sessionend'],
      files: ['ran-a1'],
      result: { result: 'all done' },
    },
  },
  {
    name: 'PostToolUseFailure: a failing tool call, with context for the model',
    hooks: {
      PostToolUse: onBash(hook('posttooluse')),
      PostToolUseFailure: onBash(
        hook('failure', specific('PostToolUseFailure', { additionalContext: 'the failure was expected' })),
      ),
    },
    model: [[bash('toolu_f1', 'touch ran-f1; exit 3')], [say('noted')]],
    expect: { ran: ['failure'], notRan: ['posttooluse'], files: ['ran-f1'], modelSees: ['the failure was expected'] },
  },
  {
    name: 'PreToolUse exit 2: the tool does not run, the model gets the stderr',
    hooks: { PreToolUse: onBash(hook('guard', 'echo "no touching" >&2; exit 2')) },
    model: [[bash('toolu_b1', 'touch ran-b1')], [say('understood')]],
    expect: { files: [], modelSees: ['no touching'] },
  },
  {
    name: 'PreToolUse JSON deny: the tool does not run, the model gets the reason',
    hooks: {
      PreToolUse: onBash(
        hook('guard', pre({ permissionDecision: 'deny', permissionDecisionReason: 'denied by policy' })),
      ),
    },
    model: [[bash('toolu_c1', 'touch ran-c1')], [say('understood')]],
    expect: { files: [], modelSees: ['denied by policy'] },
  },
  {
    name: 'PreToolUse JSON allow runs a tool that no rule allows',
    settings: NO_PERMISSIONS,
    hooks: {
      PreToolUse: onBash(hook('allow', pre({ permissionDecision: 'allow', permissionDecisionReason: 'fine' }))),
    },
    model: [[bash('toolu_d1', 'touch ran-d1')], [say('ok')]],
    expect: { files: ['ran-d1'] },
  },
  {
    name: 'without a hook, a tool that no rule allows is refused headless',
    settings: NO_PERMISSIONS,
    hooks: { PreToolUse: onBash(hook('watch')) },
    model: [[bash('toolu_d2', 'touch ran-d2')], [say('ok')]],
    expect: { ran: ['watch'], files: [] },
  },
  {
    name: 'PreToolUse JSON ask headless',
    hooks: {
      PreToolUse: onBash(hook('ask', pre({ permissionDecision: 'ask', permissionDecisionReason: 'please confirm' }))),
    },
    model: [[bash('toolu_d3', 'touch ran-d3')], [say('ok')]],
    expect: { ran: ['ask'], files: [] },
  },
  {
    name: 'allow and deny from two hooks: deny wins',
    hooks: {
      PreToolUse: onBash(
        hook('allow', pre({ permissionDecision: 'allow' })),
        hook('deny', pre({ permissionDecision: 'deny', permissionDecisionReason: 'deny wins' })),
      ),
    },
    model: [[bash('toolu_d4', 'touch ran-d4')], [say('ok')]],
    expect: { ran: ['allow', 'deny'], files: [], modelSees: ['deny wins'] },
  },
  {
    name: 'exit 1 with a deny on stdout: the JSON is honoured',
    hooks: {
      PreToolUse: onBash(
        hook('deny', `${pre({ permissionDecision: 'deny', permissionDecisionReason: 'exit 1 but JSON' })}; exit 1`),
      ),
    },
    model: [[bash('toolu_d5', 'touch ran-d5')], [say('ok')]],
    expect: { files: [], modelSees: ['exit 1 but JSON'] },
  },
  {
    name: 'exit 1 and invalid JSON are non-blocking: the tool runs',
    hooks: {
      PreToolUse: onBash(
        hook('fails', 'echo "not today" >&2; exit 1'),
        hook('garbage', `echo '{"permissionDecision": nope}'`),
      ),
    },
    model: [[bash('toolu_d6', 'touch ran-d6')], [say('ok')]],
    expect: { ran: ['fails', 'garbage'], files: ['ran-d6'] },
  },
  {
    name: 'updatedInput replaces the tool input; PostToolUse sees the rewritten one',
    hooks: {
      PreToolUse: onBash(
        hook(
          'rewrite',
          pre({
            permissionDecision: 'allow',
            updatedInput: { command: 'touch ran-rewritten', description: 'rewritten' },
          }),
        ),
      ),
      PostToolUse: onBash(hook('after')),
    },
    model: [[bash('toolu_e1', 'touch ran-e1')], [say('ok')]],
    expect: { files: ['ran-rewritten'], ran: ['after'] },
  },
  {
    name: 'PreToolUse additionalContext reaches the model',
    hooks: { PreToolUse: onBash(hook('context', pre({ additionalContext: 'remember the style guide' }))) },
    model: [[bash('toolu_e2', 'touch ran-e2')], [say('ok')]],
    expect: { files: ['ran-e2'], modelSees: ['remember the style guide'] },
  },
  {
    name: 'continue: false on PreToolUse: the tool still runs, then the turn ends',
    hooks: {
      PreToolUse: onBash(hook('halt', json({ continue: false, stopReason: 'halted by policy' }))),
      Stop: all(hook('stop')),
    },
    model: [[bash('toolu_e3', 'touch ran-e3')], [say('should not be asked')]],
    expect: {
      ran: ['halt'],
      notRan: ['stop'],
      files: ['ran-e3'],
      modelRequests: 1,
      result: { terminal_reason: 'hook_stopped' },
    },
  },
  {
    name: 'UserPromptSubmit plain stdout reaches the model as context',
    hooks: { UserPromptSubmit: all(hook('prompt', 'echo "the build is green"')) },
    model: [[say('ok')]],
    expect: { modelSees: ['the build is green'], modelRequests: 1 },
    mcpDifference: PLAIN_CONTEXT_OVER_MCP,
  },
  {
    name: 'UserPromptSubmit JSON additionalContext and a sibling plain stdout',
    hooks: {
      UserPromptSubmit: all(
        hook('json', specific('UserPromptSubmit', { additionalContext: 'json context' })),
        hook('plain', `${THEN} echo "plain context"`),
      ),
    },
    model: [[say('ok')]],
    expect: { modelSees: ['json context', 'plain context'] },
  },
  {
    name: 'UserPromptSubmit exit 2 blocks the prompt: no model request',
    hooks: { UserPromptSubmit: all(hook('block', 'echo "no secrets in prompts" >&2; exit 2')) },
    model: [[say('should not be asked')]],
    expect: { ran: ['block'], modelRequests: 0 },
  },
  {
    name: 'UserPromptSubmit decision block blocks the prompt',
    hooks: { UserPromptSubmit: all(hook('block', json({ decision: 'block', reason: 'prompt refused' }))) },
    model: [[say('should not be asked')]],
    expect: { ran: ['block'], modelRequests: 0 },
  },
  {
    name: 'SessionStart context: plain stdout and JSON additionalContext',
    hooks: {
      SessionStart: all(
        hook('plain', 'echo "on branch main"'),
        hook('json', specific('SessionStart', { additionalContext: 'ci is green' })),
      ),
    },
    model: [[say('ok')]],
    expect: { modelSees: ['on branch main', 'ci is green'] },
  },
  {
    name: 'two PreToolUse hooks with additionalContext',
    hooks: {
      PreToolUse: onBash(
        hook('first', pre({ additionalContext: 'first context' })),
        hook('second', `${THEN} ${pre({ additionalContext: 'second context' })}`),
      ),
    },
    model: [[bash('toolu_e4', 'touch ran-e4')], [say('ok')]],
    expect: { files: ['ran-e4'], modelSees: ['first context', 'second context'] },
  },
  {
    // Claude Code's tool result carries the reason of the hook that finished last; peri-hooks takes the last in configuration order.
    name: "two PreToolUse hooks block by exit 2: the last one's reason",
    hooks: {
      PreToolUse: onBash(
        hook('first', 'echo "first reason" >&2; exit 2'),
        hook('second', `${THEN} echo "second reason" >&2; exit 2`),
      ),
    },
    model: [[bash('toolu_e5', 'touch ran-e5')], [say('ok')]],
    expect: { files: [], modelSees: ['second reason'] },
  },
  {
    name: "a PreToolUse exit 2 and a JSON deny from a sibling: the last one's reason",
    hooks: {
      PreToolUse: onBash(
        hook('exit2', 'echo "exit reason" >&2; exit 2'),
        hook('json', `${THEN} ${pre({ permissionDecision: 'deny', permissionDecisionReason: 'json reason' })}`),
      ),
    },
    model: [[bash('toolu_e6', 'touch ran-e6')], [say('ok')]],
    expect: { files: [], modelSees: ['json reason'] },
  },
  {
    name: 'SessionStart exit 2: a notice for the user, a sibling context still arrives',
    knownDifference:
      'not reproducible by one hook: Claude Code reads plain stdout as context only on exit 0, and shows a notice only for a non-zero exit; peri-hooks keeps the exit-2 notice and sends the context as JSON, which Claude Code frames "SessionStart hook additional context: branch main" where the direct hook gets "SessionStart:startup hook success: branch main"',
    hooks: { SessionStart: all(hook('notice', 'echo "heads up" >&2; exit 2'), hook('context', 'echo "branch main"')) },
    model: [[say('ok')]],
    expect: { ran: ['notice', 'context'], modelSees: ['branch main'] },
  },
  {
    name: 'two PostToolUse hooks with additionalContext',
    hooks: {
      PostToolUse: onBash(
        hook('first', specific('PostToolUse', { additionalContext: 'first note' })),
        hook('second', `${THEN} ${specific('PostToolUse', { additionalContext: 'second note' })}`),
      ),
    },
    model: [[bash('toolu_g4', 'touch ran-g4')], [say('ok')]],
    expect: { files: ['ran-g4'], modelSees: ['first note', 'second note'] },
  },
  {
    name: 'two Stop hooks block once with their own reasons',
    knownDifference:
      'not reproducible by one hook: Claude Code sends one "Stop hook feedback" reminder (a text block of its own) per blocking hook, the exit-2 one as "[<hook>]: second: update the docs\n", a system message for the JSON block only, and counts 3 turns; one hook\'s block is one reminder, so peri-hooks sends one with both reasons, a system message with both, and 2 turns',
    hooks: {
      Stop: all(
        hook('first', blockStopOnce(json({ decision: 'block', reason: 'first: run the tests' }))),
        hook('second', blockStopOnce('echo "second: update the docs" >&2; exit 2')),
      ),
    },
    model: [[say('finished')], [say('both done')]],
    expect: { modelSees: ['first: run the tests', 'second: update the docs'], modelRequests: 2 },
  },
  {
    name: 'PostToolUse decision block: the reason reaches the model next to the result',
    hooks: { PostToolUse: onBash(hook('review', json({ decision: 'block', reason: 'lint failed on the new file' }))) },
    model: [[bash('toolu_g1', 'touch ran-g1')], [say('fixing')]],
    expect: { files: ['ran-g1'], modelSees: ['lint failed on the new file'] },
  },
  {
    name: 'PostToolUse exit 2: the stderr reaches the model',
    hooks: { PostToolUse: onBash(hook('review', 'echo "format the file" >&2; exit 2')) },
    model: [[bash('toolu_g2', 'touch ran-g2')], [say('fixing')]],
    expect: { files: ['ran-g2'], modelSees: ['format the file'] },
  },
  {
    name: 'PostToolUse additionalContext and continue: false',
    hooks: {
      PostToolUse: onBash(
        hook('context', specific('PostToolUse', { additionalContext: 'tests still pass' })),
        hook('halt', json({ continue: false, stopReason: 'enough' })),
      ),
    },
    model: [[bash('toolu_g3', 'touch ran-g3')], [say('should not be asked')]],
    expect: { files: ['ran-g3'], modelRequests: 1, result: { terminal_reason: 'hook_stopped' } },
  },
  {
    name: 'PostToolBatch fires once for parallel tool calls, with context',
    hooks: {
      PostToolBatch: all(hook('batch', specific('PostToolBatch', { additionalContext: 'batch reviewed' }))),
      PreToolUse: onBash(hook('pre')),
    },
    model: [[bash('toolu_h1', 'touch ran-h1'), bash('toolu_h2', 'touch ran-h2')], [say('ok')]],
    expect: { files: ['ran-h1', 'ran-h2'], runs: { batch: 1, pre: 2 }, modelSees: ['batch reviewed'] },
  },
  {
    name: 'PostToolBatch decision block stops the loop',
    hooks: { PostToolBatch: all(hook('batch', json({ decision: 'block', reason: 'stop after this batch' }))) },
    model: [[bash('toolu_h3', 'touch ran-h3')], [say('should not be asked')]],
    expect: { files: ['ran-h3'], modelRequests: 1, result: { terminal_reason: 'hook_stopped' } },
  },
  {
    name: 'Stop decision block once: one more turn with the reason',
    hooks: { Stop: all(hook('stop', blockStopOnce(json({ decision: 'block', reason: 'run the tests first' })))) },
    model: [[say('finished')], [say('tests run')]],
    expect: { modelSees: ['run the tests first'], modelRequests: 2, result: { result: 'tests run' } },
  },
  {
    name: 'Stop exit 2 once: one more turn with the stderr',
    hooks: { Stop: all(hook('stop', blockStopOnce('echo "tests are red" >&2; exit 2'))) },
    model: [[say('finished')], [say('fixed')]],
    expect: { modelSees: ['tests are red'], modelRequests: 2 },
    mcpDifference:
      'Stop exit 2: an mcp_tool answer blocks only by decision: block, and every such block adds the system message "Stop hook blocking error from command: …", which the exit-2 form has not',
  },
  {
    name: 'Stop additionalContext continues the conversation',
    hooks: {
      Stop: all(hook('stop', blockStopOnce(specific('Stop', { additionalContext: 'also update the changelog' })))),
    },
    model: [[say('finished')], [say('changelog updated')]],
    expect: { modelSees: ['also update the changelog'] },
  },
  {
    name: 'Stop continue: false ends the turn',
    hooks: { Stop: all(hook('stop', json({ continue: false, stopReason: 'session over' }))) },
    model: [[say('finished')]],
    expect: { ran: ['stop'], modelRequests: 1, result: { terminal_reason: 'stop_hook_prevented' } },
  },
  {
    name: 'Stop loop: a hook that always blocks, with the cap at 3',
    env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' },
    hooks: { Stop: all(hook('stop', json({ decision: 'block', reason: 'keep going' }))) },
    model: [[say('turn 1')], [say('turn 2')], [say('turn 3')], [say('turn 4')], [say('turn 5')], [say('turn 6')]],
    expect: { runs: { stop: 4 }, modelRequests: 4, result: { result: '', num_turns: 5 } },
  },
  {
    name: 'Stop loop: the count starts again after a tool call',
    env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '2' },
    hooks: {
      Stop: all(hook('stop', json({ decision: 'block', reason: 'keep going' }))),
      PreToolUse: onBash(hook('pre')),
    },
    model: [
      [say('turn 1')],
      [say('turn 2')],
      [bash('toolu_s1', 'touch ran-s1')],
      [say('turn 4')],
      [say('turn 5')],
      [say('turn 6')],
      [say('turn 7')],
    ],
    expect: { ran: ['stop', 'pre'], files: ['ran-s1'], modelRequests: 6, result: { result: '', num_turns: 7 } },
  },
  {
    name: 'matchers: exact names, lists, regexes, wildcards, and what does not match',
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [hook('exact')] },
        { matcher: 'Read|Bash', hooks: [hook('list')] },
        { matcher: 'Ba.*', hooks: [hook('regex')] },
        { matcher: '*', hooks: [hook('star')] },
        { hooks: [hook('missing')] },
        { matcher: 'bash', hooks: [hook('lowercase')] },
        { matcher: 'Bas', hooks: [hook('prefix')] },
        { matcher: 'Bash(touch *)', hooks: [hook('rule')] },
        { matcher: 'Write', hooks: [hook('other')] },
      ],
    },
    model: [[bash('toolu_m1', 'touch ran-m1')], [say('ok')]],
    expect: { ran: ['exact', 'list', 'regex', 'star', 'missing'], notRan: ['lowercase', 'prefix', 'rule', 'other'] },
  },
  {
    name: '`if` rules: each subcommand is checked',
    hooks: {
      PreToolUse: onBash(
        hook('touch', 'true', { if: 'Bash(touch *)' }),
        hook('rm', 'true', { if: 'Bash(rm *)' }),
        hook('echo', 'true', { if: 'Bash(echo *)' }),
        hook('write', 'true', { if: 'Write(*)' }),
      ),
    },
    model: [[bash('toolu_i1', 'echo a && touch ran-i1')], [say('ok')]],
    expect: { ran: ['touch', 'echo'], notRan: ['rm', 'write'], files: ['ran-i1'] },
  },
  {
    name: '`if` decides which of two guards blocks',
    hooks: {
      PreToolUse: onBash(
        hook('no-rm', 'echo "no rm" >&2; exit 2', { if: 'Bash(rm *)' }),
        hook('no-touch', 'echo "no touch" >&2; exit 2', { if: 'Bash(touch *)' }),
      ),
    },
    model: [[bash('toolu_i2', 'touch ran-i2')], [say('ok')]],
    expect: { ran: ['no-touch'], notRan: ['no-rm'], files: [], modelSees: ['no touch'] },
  },
  {
    name: 'duplicates run once, across groups, matchers, timeouts and settings files',
    userHooks: { PreToolUse: onBash(hook('twice', 'echo "from twice" >&2')) },
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [hook('twice', 'echo "from twice" >&2')] },
        { matcher: '*', hooks: [hook('twice', 'echo "from twice" >&2', { timeout: 30 })] },
      ],
    },
    model: [[bash('toolu_j1', 'touch ran-j1')], [say('ok')]],
    expect: { files: ['ran-j1'], runs: { twice: 1 } },
  },
  {
    name: 'a hook that times out is killed and the tool runs',
    hooks: {
      PreToolUse: onBash(
        hook('slow', `sleep 8; ${pre({ permissionDecision: 'deny', permissionDecisionReason: 'too late' })}`, {
          timeout: 1,
        }),
      ),
    },
    model: [[bash('toolu_k1', 'touch ran-k1')], [say('ok')]],
    expect: { ran: ['slow'], files: ['ran-k1'] },
  },
  {
    name: 'a slow hook inside its timeout still decides',
    hooks: {
      PreToolUse: onBash(
        hook('slow', `sleep 1; ${pre({ permissionDecision: 'deny', permissionDecisionReason: 'slow but sure' })}`, {
          timeout: 20,
        }),
      ),
    },
    model: [[bash('toolu_k2', 'touch ran-k2')], [say('ok')]],
    expect: { files: [], modelSees: ['slow but sure'] },
  },
  {
    name: 'SessionEnd hooks finish inside the shared 1.5 s budget',
    hooks: { SessionEnd: all(hook('end', 'sleep 0.5; touch "$HOOK_LOG/../project/ended"')) },
    model: [[say('ok')]],
    expect: { ran: ['end'], files: ['ended'] },
  },
  {
    name: 'onFailure "block": a failing guard blocks, with its stderr',
    hooks: {
      PreToolUse: onBash(hook('guard', 'echo "policy server unreachable" >&2; exit 1', { onFailure: 'block' })),
    },
    model: [[bash('toolu_l1', 'touch ran-l1')], [say('ok')]],
    expect: { files: [], modelSees: ['onFailure is "block"', 'policy server unreachable'] },
  },
  {
    name: 'onFailure "block" on a timeout',
    hooks: { PreToolUse: onBash(hook('guard', 'sleep 8', { onFailure: 'block', timeout: 1 })) },
    model: [[bash('toolu_l2', 'touch ran-l2')], [say('ok')]],
    expect: { files: [], modelSees: ['timed out; blocking because onFailure'] },
  },
  {
    // One tool call only: the async hook of a later one would still be running when the session ends.
    name: 'async hook: its context reaches the model on a later turn',
    hooks: {
      PreToolUse: onBash(
        hook(
          'background',
          `${waitFor('tool-started')}; ${specific('PreToolUse', { additionalContext: 'async says hello' }, { systemMessage: 'async system message' })}; ${mark('background')}`,
          { async: true },
        ),
      ),
      PostToolUse: onBash(hook('post')),
    },
    model: [
      [bash('toolu_n1', `${mark('tool-started')}; ${waitFor('background')}; ${SETTLE}; touch ran-n1`)],
      [say('ok')],
    ],
    expect: { runs: { background: 1 }, files: ['ran-n1'], modelSees: ['async system message\nasync says hello'] },
  },
  {
    // Headless, Claude Code runs an asyncRewake hook without `async` in the foreground, as a normal hook.
    name: 'asyncRewake headless: exit 2 blocks as from a normal hook',
    hooks: { PostToolUse: onBash(hook('rewake', 'echo "background check failed" >&2; exit 2', { asyncRewake: true })) },
    model: [[bash('toolu_n3', 'touch ran-n3')], [bash('toolu_n4', 'sleep 2; touch ran-n4')], [say('ok')]],
    expect: { ran: ['rewake'], modelSees: ['background check failed'] },
  },
  {
    // The hook ends while the next tool call runs; `if` keeps it off that call, whose own firing the session's end would cut short.
    name: 'async asyncRewake: exit 2 in the background wakes the model with the stderr',
    hooks: {
      PostToolUse: onBash(
        hook('rewake', `${waitFor('tool-started')}; echo "background check failed" >&2; ${mark('rewake')}; exit 2`, {
          async: true,
          asyncRewake: true,
          if: 'Bash(touch ran-n5)',
        }),
      ),
    },
    model: [
      [bash('toolu_n5', 'touch ran-n5')],
      [bash('toolu_n6', `${mark('tool-started')}; ${waitFor('rewake')}; ${SETTLE}; touch ran-n6`)],
      [say('ok')],
    ],
    expect: { runs: { rewake: 1 }, files: ['ran-n5', 'ran-n6'], modelSees: ['Stop hook blocking error from command'] },
  },
  {
    name: 'InstructionsLoaded fires for the project CLAUDE.md',
    files: { 'CLAUDE.md': '# Project rules\nBe brief.\n' },
    hooks: { InstructionsLoaded: all(hook('instructions', mark('instructions'))) },
    model: [[bash('toolu_o1', `${waitFor('instructions')}; touch ran-o1`)], [say('ok')]],
    expect: { ran: ['instructions'], modelSees: ['Be brief.'], files: ['ran-o1'] },
  },
  {
    name: 'PermissionRequest: a hook allows a tool that no rule allows',
    settings: NO_PERMISSIONS,
    hooks: {
      PermissionRequest: onBash(hook('permit', specific('PermissionRequest', { decision: { behavior: 'allow' } }))),
    },
    model: [[bash('toolu_p1', 'touch ran-p1')], [say('ok')]],
    expect: { ran: ['permit'], files: ['ran-p1'] },
  },
  {
    name: 'PermissionRequest: exit 2 does not deny, a sibling allow wins',
    settings: NO_PERMISSIONS,
    hooks: {
      PermissionRequest: onBash(
        hook('refuse', 'echo "refused" >&2; exit 2'),
        hook('permit', specific('PermissionRequest', { decision: { behavior: 'allow' } })),
      ),
    },
    model: [[bash('toolu_p2', 'touch ran-p2')], [say('ok')]],
    expect: { ran: ['refuse', 'permit'], files: ['ran-p2'] },
  },
  {
    name: 'PermissionDenied does not fire for a headless refusal (only for the auto-mode classifier)',
    settings: NO_PERMISSIONS,
    hooks: { PermissionDenied: all(hook('denied', specific('PermissionDenied', { retry: true }))) },
    model: [[bash('toolu_p3', 'touch ran-p3')], [say('ok')]],
    expect: {
      notRan: ['denied'],
      files: [],
      result: {
        permission_denials: [
          {
            tool_name: 'Bash',
            tool_use_id: 'toolu_p3',
            tool_input: { command: 'touch ran-p3', description: 'toolu_p3' },
          },
        ],
      },
    },
  },
  {
    name: 'SubagentStart and SubagentStop around an Agent tool call',
    hooks: {
      SubagentStart: all(hook('substart', specific('SubagentStart', { additionalContext: 'subagent context' }))),
      SubagentStop: all(hook('substop')),
      Stop: all(hook('stop')),
    },
    model: [
      [
        {
          type: 'tool_use',
          id: 'toolu_q1',
          name: 'Agent',
          input: { description: 'look around', prompt: 'list the files', subagent_type: 'general-purpose' },
        },
      ],
      [say('subagent report')],
      [say('main done')],
    ],
    expect: { ran: ['substart', 'substop', 'stop'], modelSees: ['subagent context'] },
  },
  {
    name: 'an API error ends the turn: no Stop, SessionEnd still runs',
    env: { CLAUDE_CODE_MAX_RETRIES: '0' },
    hooks: { Stop: all(hook('stop')), SessionEnd: all(hook('end')) },
    model: [{ status: 500, error: 'fake API: down' }],
    expect: {
      ran: ['end'],
      notRan: ['stop'],
      exitCode: 1,
      result: { is_error: true, terminal_reason: 'api_error', api_error_status: 500 },
    },
  },
  {
    name: 'MessageDisplay and Notification in a headless turn',
    hooks: { MessageDisplay: all(hook('display')), Notification: all(hook('notification')) },
    model: [[say('shown')]],
    expect: { ran: ['display'], notRan: ['notification'] },
  },
  {
    name: 'UserPromptExpansion for a project command',
    files: { '.claude/commands/greet.md': 'Say hello to $ARGUMENTS.\n' },
    prompt: '/greet world',
    hooks: {
      UserPromptExpansion: all(
        hook('expansion', specific('UserPromptExpansion', { additionalContext: 'expanded context' })),
      ),
      UserPromptSubmit: all(hook('submit')),
    },
    model: [[say('hello world')]],
    expect: { ran: ['expansion', 'submit'], modelSees: ['expanded context', 'Say hello to world'] },
  },
  {
    // The matcher is also the watch list (spec §2.1): a registration without it would watch nothing.
    name: 'FileChanged: the matcher names the file Claude Code watches, through the registration too',
    files: { 'watched.txt': 'a\n' },
    hooks: { FileChanged: [{ matcher: 'watched.txt|other.txt', hooks: [hook('changed', mark('changed'))] }] },
    model: [
      [bash('toolu_w1', 'echo b >> watched.txt')],
      [bash('toolu_w2', `${waitFor('changed')}; touch ran-w2`)],
      [say('ok')],
    ],
    expect: { ran: ['changed'], files: ['ran-w2'] },
  },
  {
    // Not the last call: headless, a CwdChanged after the last tool call races Claude Code's shutdown.
    name: 'CwdChanged when a Bash call changes directory',
    files: { 'sub/.keep': '' },
    hooks: { CwdChanged: all(hook('cwd', mark('cwd'))) },
    model: [[bash('toolu_r2', 'cd sub')], [bash('toolu_r3', `${waitFor('cwd')}; touch ran-r3`)], [say('ok')]],
    expect: { ran: ['cwd'] },
  },
  {
    name: 'http hooks: the allowedHttpHookUrls of the user and of the project are merged',
    hooks: { UserPromptSubmit: all(httpHook('/user-listed'), httpHook('/project-listed')) },
    policySettings: {
      user: { allowedHttpHookUrls: [`${HOOK_SERVER}/user-listed`] },
      project: { allowedHttpHookUrls: [`${HOOK_SERVER}/project-listed`] },
    },
    model: [[say('ok')]],
    expect: { hookRequests: ['/project-listed', '/user-listed'] },
  },
  {
    name: 'http hooks: a project allowedHttpHookUrls [] beside a user list refuses nothing the user list allows',
    hooks: { UserPromptSubmit: all(httpHook('/user-listed')) },
    policySettings: {
      user: { allowedHttpHookUrls: [`${HOOK_SERVER}/user-listed`] },
      project: { allowedHttpHookUrls: [] },
    },
    model: [[say('ok')]],
    expect: { hookRequests: ['/user-listed'] },
  },
  {
    name: "mcp_tool: the tool's deny JSON blocks the call",
    mcpServers: GUARD,
    hooks: { PreToolUse: onBash(guard('deny', 'PreToolUse')) },
    model: [[bash('toolu_m1', 'touch ran-m1')], [say('ok')]],
    expect: { files: [], modelSees: ['denied by guard'] },
  },
  {
    name: 'mcp_tool: plain text on UserPromptSubmit gives the fixed success paragraph',
    mcpServers: GUARD,
    hooks: { UserPromptSubmit: all(guard('plain', 'UserPromptSubmit')) },
    model: [[say('ok')]],
    expect: { modelSees: ['UserPromptSubmit hook success: UserPromptSubmit completed'] },
    mcpDifference: PLAIN_CONTEXT_OVER_MCP,
  },
  {
    name: 'mcp_tool: plain text on UserPromptExpansion gives the fixed success paragraph, beside a sibling context',
    mcpServers: GUARD,
    files: { '.claude/commands/greet.md': 'Say hello to $ARGUMENTS.\n' },
    prompt: '/greet world',
    hooks: { UserPromptExpansion: all(guard('plain', 'UserPromptExpansion'), guard('context', 'UserPromptExpansion')) },
    model: [[say('ok')]],
    expect: {
      modelSees: [
        'UserPromptExpansion hook success: UserPromptExpansion completed',
        'UserPromptExpansion hook additional context: context from guard',
        'Say hello to world',
      ],
      modelNeverSees: ['just some words'],
    },
    mcpDifference: PLAIN_CONTEXT_OVER_MCP,
  },
  {
    name: 'mcp_tool on SessionStart: refused (no MCP client context), its context never reaches the model',
    mcpServers: GUARD,
    hooks: { SessionStart: all(guard('context', 'SessionStart')) },
    model: [[say('ok')]],
    expect: { modelNeverSees: ['context from guard'] },
  },
  {
    name: 'mcp_tool: a deny in structuredContent alone is not honoured',
    mcpServers: GUARD,
    hooks: { PreToolUse: onBash(guard('structured-only', 'PreToolUse')) },
    model: [[bash('toolu_m3', 'touch ran-m3')], [say('ok')]],
    expect: { files: ['ran-m3'] },
  },
  {
    name: 'mcp_tool: onFailure "block" on JSON without a hook field',
    mcpServers: GUARD,
    hooks: { PreToolUse: onBash(guard('no-hook-fields', 'PreToolUse', { onFailure: 'block' })) },
    model: [[bash('toolu_m4', 'touch ran-m4')], [say('ok')]],
    expect: { files: [], modelSees: ["The MCP tool's answer is not a hook's JSON output"] },
  },
  {
    // Issue 29 item 2: peri-hooks used to print nothing and allow. The prompt's hook breaks the file that holds
    // the policy (through peri-hooks the policy file, directly the project's settings) with a comment.
    name: 'a policy that stops loading mid-session: the user is told',
    hooks: {
      UserPromptSubmit: all(
        hook(
          'breaker',
          'f="$CLAUDE_PROJECT_DIR/../policy.json"; [ -f "$f" ] || f="$CLAUDE_PROJECT_DIR/.claude/settings.json"; printf "// broken\\n" >> "$f"',
        ),
      ),
      PreToolUse: onBash(hook('guard', 'echo "no touching" >&2; exit 2')),
    },
    model: [[bash('toolu_p1', 'touch ran-p1')], [say('ok')]],
    expect: { ran: ['breaker'], files: [] },
    periHooksExpect: {
      userSees: ['peri-hooks: policy not enforced, it did not load:', 'policy.json is not valid JSON'],
    },
    knownDifference:
      "the broken file is Claude Code's own settings when the hooks are direct: depending on when its watcher sees the change, it keeps the hooks it read (its guard blocks) or drops the file with the Bash permission in it (the tool is refused); through peri-hooks only the policy file breaks, peri-hooks reads it at each firing, so the tool runs and Claude Code shows the user peri-hooks' systemMessage saying the policy is not enforced",
  },
];
