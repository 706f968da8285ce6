// The run stage in process, as a row table: a plan in, what ran as data out, with a scripted runner in place of
// the hook processes (runners and process groups have their own tests; the e2e tests run real hooks).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HookHandler } from '../../src/config/schema.ts';
import { PeriHooksError } from '../../src/errors.ts';
import type { EventName } from '../../src/events.ts';
import type { HookInput } from '../../src/input/parse.ts';
import { loadOutputSchemas } from '../../src/outcome.ts';
import { plan } from '../../src/plan.ts';
import { type Executed, execute } from '../../src/run/execute.ts';
import type { LoadedHook, RawOutcome, RunContext } from '../../src/types.ts';

await loadOutputSchemas();

/** What a scripted hook does: its answer, and (optionally) what it waits for first and what it says on the side. */
interface Script {
  answer?: Partial<RawOutcome>;
  /** Answers only once the hook of this label has answered (an order of finishing the plan did not choose). */
  after?: string;
  warn?: string;
}

interface Row {
  name: string;
  event?: EventName;
  sequential?: boolean;
  hooks: Array<[command: string, script: Script, extra?: { once?: boolean; async?: boolean }]>;
  /** Labels of the once hooks this firing claimed. */
  claimedOnce?: string[];
  /** The hooks that ran, in the order reported, with their outcome. */
  ran: Array<[string, string]>;
  /** The tool_input.command each hook saw, by label. */
  saw?: Record<string, string>;
  shortCircuited?: Array<[string, RegExp]>;
  warnings?: string[];
  once?: Array<[string, boolean]>;
  /** The error of the hook's raw outcome, by label. */
  errors?: Record<string, RegExp>;
}

const json = (specific: object) => JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific } });

const ROWS: Row[] = [
  {
    name: 'results come back in configuration order, whatever order the hooks finished in',
    hooks: [
      ['first', { after: 'second' }],
      ['second', {}],
    ],
    ran: [
      ['first', 'success'],
      ['second', 'success'],
    ],
  },
  {
    name: 'hooks outside a sequential group run side by side: a block stops none of its siblings',
    hooks: [
      ['deny', { answer: { exitCode: 2, stderr: 'no' } }],
      ['other', { after: 'deny' }],
    ],
    ran: [
      ['deny', 'blocking'],
      ['other', 'success'],
    ],
    shortCircuited: [],
  },
  {
    name: 'a sequential group: each hook sees the input as the hook before rewrote it',
    sequential: true,
    hooks: [
      [
        'rewrite',
        { answer: { stdout: json({ permissionDecision: 'allow', updatedInput: { command: 'echo safe' } }) } },
      ],
      ['check', {}],
    ],
    ran: [
      ['rewrite', 'success'],
      ['check', 'success'],
    ],
    saw: { rewrite: 'touch MARKER && echo hi', check: 'echo safe' },
  },
  {
    name: 'a rewrite with a deny is not honoured: the block ends the group and the rest is short-circuited',
    sequential: true,
    hooks: [
      [
        'deny-rewrite',
        { answer: { stdout: json({ permissionDecision: 'deny', updatedInput: { command: 'echo other' } }) } },
      ],
      ['later', {}],
      ['last', {}],
    ],
    ran: [['deny-rewrite', 'blocking']],
    shortCircuited: [
      ['later', /^short-circuit: deny-rewrite blocked earlier in the sequential group$/],
      ['last', /^short-circuit: deny-rewrite blocked earlier in the sequential group$/],
    ],
  },
  {
    name: 'an exit 2 ends a sequential group too',
    sequential: true,
    hooks: [
      ['exit2', { answer: { exitCode: 2, stderr: 'stop' } }],
      ['never', {}],
    ],
    ran: [['exit2', 'blocking']],
    shortCircuited: [['never', /exit2 blocked earlier/]],
  },
  {
    name: 'a non-blocking error does not end a sequential group',
    sequential: true,
    hooks: [
      ['fails', { answer: { exitCode: 1, stderr: 'oops' } }],
      ['goes-on', {}],
    ],
    ran: [
      ['fails', 'non_blocking_error'],
      ['goes-on', 'success'],
    ],
    shortCircuited: [],
  },
  {
    name: "a runner's notes become warnings located at the hook, in configuration order",
    hooks: [
      ['late', { warn: 'the cwd is gone', after: 'early' }],
      ['early', { warn: 'stdin was not read' }],
    ],
    ran: [
      ['late', 'success'],
      ['early', 'success'],
    ],
    warnings: ['[late]: the cwd is gone', '[early]: stdin was not read'],
  },
  {
    name: 'claimed once hooks settle: a success as a success, a short-circuited one as not run',
    sequential: true,
    hooks: [
      ['once-ok', {}, { once: true }],
      ['blocker', { answer: { exitCode: 2 } }],
      ['once-cut', {}, { once: true }],
    ],
    claimedOnce: ['once-ok', 'once-cut'],
    ran: [
      ['once-ok', 'success'],
      ['blocker', 'blocking'],
    ],
    shortCircuited: [['once-cut', /blocker blocked earlier/]],
    once: [
      ['once-ok', true],
      ['once-cut', false],
    ],
  },
  {
    name: 'a claimed once hook that failed settles as a failure (it runs again next time)',
    hooks: [['once-fails', { answer: { exitCode: 1 } }, { once: true }]],
    claimedOnce: ['once-fails'],
    ran: [['once-fails', 'non_blocking_error']],
    once: [['once-fails', false]],
  },
  {
    name: 'an async hook with no way to start peri-hooks fails saying so, and the firing goes on',
    hooks: [
      ['background', {}, { async: true }],
      ['foreground', {}],
    ],
    ran: [
      ['background', 'non_blocking_error'],
      ['foreground', 'success'],
    ],
    errors: { background: /async hooks need FireOptions\.selfCommand/ },
  },
];

const input = (event: EventName): HookInput =>
  ({
    hook_event_name: event,
    session_id: 's',
    transcript_path: '/tmp/t.jsonl',
    cwd: '/tmp',
    tool_name: 'Bash',
    tool_input: { command: 'touch MARKER && echo hi' },
    tool_use_id: 'toolu_1',
  }) as unknown as HookInput;

function loaded(event: EventName, rows: Row['hooks']): LoadedHook[] {
  return rows.map(([command, , extra], index) => {
    const pointer = `/hooks/${event}/0/hooks/${index}`;
    return {
      id: `project:settings.json#${pointer}`,
      event,
      handler: { type: 'command', command, ...extra } as HookHandler,
      provenance: { layer: 'project', file: 'settings.json', pointer },
    };
  });
}

async function run(row: Row): Promise<{ executed: Executed; saw: Record<string, string>; called: string[] }> {
  const event = row.event ?? 'PreToolUse';
  const hooks = loaded(event, row.hooks);
  const scripts = new Map(row.hooks.map(([command, script]) => [command, script]));
  const answered = new Map<string, () => void>();
  const answers = new Map(
    row.hooks.map(([command]) => [command, new Promise<void>((resolve) => answered.set(command, resolve))]),
  );
  const saw: Record<string, string> = {};
  const called: string[] = [];
  const runner = async (hook: LoadedHook, ctx: RunContext): Promise<RawOutcome> => {
    const label = (hook.handler as { command: string }).command;
    const script = scripts.get(label)!;
    called.push(label);
    saw[label] = (JSON.parse(ctx.inputJson) as { tool_input: { command: string } }).tool_input.command;
    if (script.warn) ctx.warn(script.warn);
    if (script.after) await answers.get(script.after);
    answered.get(label)!();
    return { exitCode: 0, stdout: '', stderr: '', timedOut: false, durationMs: 1, ...script.answer };
  };
  const planned = plan(event, input(event), hooks, {
    home: '/home/u',
    env: {},
    ...(row.sequential ? { sequential: true } : {}),
  });
  const byLabel = new Map(hooks.map((hook) => [(hook.handler as { command: string }).command, hook.id]));
  const executed = await execute(planned, {
    input: input(event),
    projectDir: '/tmp',
    settings: { disableAllHooks: false, allowManagedHooksOnly: false },
    env: {},
    runner,
    ...(row.claimedOnce ? { claimedOnce: new Set(row.claimedOnce.map((label) => byLabel.get(label)!)) } : {}),
  });
  return { executed, saw, called };
}

const labelOf = (hook: LoadedHook) => (hook.handler as { command: string }).command;

describe('execute: a plan in, what ran out', () => {
  for (const row of ROWS)
    test(row.name, async () => {
      const { executed, saw, called } = await run(row);
      assert.deepEqual(
        executed.ran.map(({ hook, result }) => [labelOf(hook), result.outcome]),
        row.ran,
      );
      // A short-circuited hook never reached the runner, nor did an async one (it goes to a supervisor).
      const handedOff = new Set(row.hooks.filter(([, , extra]) => extra?.async).map(([label]) => label));
      assert.deepEqual(
        called.sort(),
        row.ran
          .map(([label]) => label)
          .filter((label) => !handedOff.has(label))
          .sort(),
      );
      if (row.saw) assert.deepEqual(saw, row.saw);
      if (row.shortCircuited) {
        assert.deepEqual(
          executed.shortCircuited.map(({ hook }) => labelOf(hook)),
          row.shortCircuited.map(([label]) => label),
        );
        for (const [index, { detail }] of executed.shortCircuited.entries())
          assert.match(detail, row.shortCircuited[index]![1]);
      }
      if (row.warnings) {
        assert.deepEqual(
          executed.warnings.map(({ message }) => message),
          row.warnings,
        );
        for (const warning of executed.warnings) {
          assert.equal(warning.code, 'hook-runtime');
          assert.equal(warning.file, 'settings.json');
          assert.match(warning.pointer ?? '', /^\/hooks\/PreToolUse\/0\/hooks\/\d$/);
        }
      }
      assert.deepEqual(
        executed.once.map((settled) => [labelOf(settled.hook), 'success' in settled ? settled.success : 'background']),
        row.once ?? [],
      );
      for (const [label, error] of Object.entries(row.errors ?? {}))
        assert.match(executed.ran.find(({ hook }) => labelOf(hook) === label)?.raw.error ?? '', error);
    });
});

test('a runtime that refused to run a hook (Deno without --allow-run) is a permission error, never an allow', async () => {
  const event = 'PreToolUse';
  const hooks = loaded(event, [['guard', {}]]);
  const refused = execute(plan(event, input(event), hooks, { home: '/home/u', env: {} }), {
    input: input(event),
    projectDir: '/tmp',
    settings: { disableAllHooks: false, allowManagedHooksOnly: false },
    env: {},
    runner: async () => ({
      exitCode: null,
      stdout: '',
      stderr: '',
      timedOut: false,
      durationMs: 0,
      error: 'Requires run access to "sh", run again with the --allow-run flag',
    }),
  });
  await assert.rejects(refused, (error: unknown) => {
    assert.ok(error instanceof PeriHooksError);
    assert.match(error.message, /the runtime refused to run the hook guard/);
    assert.match(error.fix ?? '', /--allow-run/);
    return true;
  });
});
