// The planning stage on its own (spec §9.2 dedup, §10.1 timeouts): which hooks run, with which time limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HookHandler } from '../src/config/schema.ts';
import type { EventName } from '../src/events.ts';
import { type AsyncSelection, plan, SKIP_REASONS, type SkipReason, skipLostOnce } from '../src/plan.ts';
import type { Layer, LoadedHook } from '../src/types.ts';

let next = 0;
function hook(
  event: EventName,
  handler: HookHandler,
  extra: { layer?: Layer; pluginRoot?: string; matcher?: string; disabledReason?: string } = {},
): LoadedHook {
  const layer = extra.layer ?? 'project';
  const pointer = `/hooks/${event}/0/hooks/${next++}`;
  return {
    id: `${layer}:${layer}.json#${pointer}`,
    event,
    handler,
    provenance: {
      layer,
      file: `${layer}.json`,
      pointer,
      ...(extra.pluginRoot ? { pluginRoot: extra.pluginRoot, pluginName: 'p' } : {}),
    },
    ...(extra.matcher === undefined ? {} : { matcher: extra.matcher }),
    ...(extra.disabledReason === undefined ? {} : { disabledReason: extra.disabledReason }),
  };
}

const options = (env: Record<string, string> = {}) => ({ home: '/home/u', env });
const cmd = (command: string, extra: object = {}): HookHandler => ({ type: 'command', command, ...extra });
const limits = (
  event: EventName,
  hooks: LoadedHook[],
  env: Record<string, string> = {},
  input: Record<string, unknown> = {},
) =>
  plan(event, { hook_event_name: event, ...input }, hooks, options(env)).run.map((r) => [
    r.hook.handler.type === 'command' ? r.hook.handler.command : r.hook.handler.type,
    r.timeoutMs,
  ]);

test("SessionEnd: a hook's own timeout below the shared budget still limits that hook", () => {
  const hooks = [
    hook('SessionEnd', cmd('quick', { timeout: 2 })),
    hook('SessionEnd', cmd('slow', { timeout: 20 })),
    hook('SessionEnd', cmd('plain')),
  ];
  assert.deepEqual(limits('SessionEnd', hooks, {}, { reason: 'other' }), [
    ['quick', 2000],
    ['slow', 20_000],
    ['plain', 20_000],
  ]);
});

test('SessionEnd: hooks turned off by a kill switch do not raise the shared budget', () => {
  const hooks = [
    hook('SessionEnd', cmd('off', { timeout: 50 }), {
      layer: 'user',
      disabledReason: 'disableAllHooks: true in user settings',
    }),
    hook('SessionEnd', cmd('managed'), { layer: 'managed' }),
  ];
  assert.deepEqual(limits('SessionEnd', hooks, {}, { reason: 'other' }), [['managed', 1500]]);
});

test('SessionEnd: plugin timeouts do not raise the budget; the budget is capped at 60 s; the env override wins', () => {
  const plugin = hook('SessionEnd', cmd('plugin', { timeout: 40 }), { layer: 'plugin', pluginRoot: '/p' });
  assert.deepEqual(limits('SessionEnd', [plugin, hook('SessionEnd', cmd('a'))], {}, { reason: 'other' }), [
    ['plugin', 1500],
    ['a', 1500],
  ]);
  const big = hook('SessionEnd', cmd('big', { timeout: 300 }));
  assert.deepEqual(limits('SessionEnd', [big, hook('SessionEnd', cmd('b'))], {}, { reason: 'other' }), [
    ['big', 60_000],
    ['b', 60_000],
  ]);
  assert.deepEqual(
    limits(
      'SessionEnd',
      [hook('SessionEnd', cmd('c'))],
      { CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '5000' },
      { reason: 'other' },
    ),
    [['c', 5000]],
  );
});

test('prompt and agent hooks: min() with the event default when no timeout is set, max(timeout, 1) when set', () => {
  const prompt = (extra: object = {}): HookHandler => ({ type: 'prompt', prompt: 'p', ...extra });
  const agent = (extra: object = {}): HookHandler => ({ type: 'agent', prompt: 'a', ...extra });
  assert.deepEqual(
    limits('UserPromptSubmit', [hook('UserPromptSubmit', prompt()), hook('UserPromptSubmit', agent())]),
    [
      ['prompt', 30_000],
      ['agent', 30_000],
    ],
  );
  assert.deepEqual(limits('Stop', [hook('Stop', prompt()), hook('Stop', agent())]), [
    ['prompt', 30_000],
    ['agent', 60_000],
  ]);
  assert.deepEqual(
    limits('UserPromptSubmit', [
      hook('UserPromptSubmit', agent({ timeout: 0.25 })),
      hook('UserPromptSubmit', prompt({ timeout: 90 })),
    ]),
    [
      ['agent', 1000],
      ['prompt', 90_000],
    ],
  );
});

test("dedup: one run across settings files, groups and timeouts, with the later copy's fields; plugin copies and other `if`s stay apart", () => {
  const bash = { tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/w' };
  const hooks = [
    hook('PreToolUse', cmd('guard', { timeout: 5 }), { layer: 'user', matcher: 'Bash' }),
    hook('PreToolUse', cmd('guard', { timeout: 9, shell: 'bash' }), { layer: 'local', matcher: '*' }),
    hook('PreToolUse', cmd('guard'), { layer: 'plugin', pluginRoot: '/plugins/p' }),
    hook('PreToolUse', cmd('guard', { if: 'Bash(ls*)' }), { layer: 'project' }),
  ];
  const result = plan('PreToolUse', bash, hooks, options());
  assert.deepEqual(
    result.run.map((r) => [r.hook.provenance.layer, r.timeoutMs]),
    [
      ['local', 9000],
      ['plugin', 600_000],
      ['project', 600_000],
    ],
  );
  assert.deepEqual(
    result.skipped.map((s) => [s.hook.provenance.layer, s.reason]),
    [['user', 'deduplicated']],
  );
});

// The plan table: one row per (event, input, configured hooks) case -> what runs with which time limit, what is
// skipped and why, and the warnings. Hooks are named by their command (or type); `hooks` of other events never show.
interface PlanRow {
  name: string;
  event: EventName;
  input?: Record<string, unknown>;
  hooks: LoadedHook[];
  env?: Record<string, string>;
  alreadyRanOnce?: string[];
  asyncHooks?: AsyncSelection;
  run: Array<[hook: string, timeoutMs: number]>;
  skipped?: Array<[hook: string, reason: SkipReason]>;
  warnings?: string[];
  matcherValue?: string | undefined;
}

const nameOf = (hook: LoadedHook) => (hook.handler.type === 'command' ? hook.handler.command : hook.handler.type);
const on = (
  event: EventName,
  command: string,
  extra: {
    matcher?: string;
    if?: string;
    timeout?: number;
    once?: boolean;
    async?: boolean;
    asyncRewake?: boolean;
  } = {},
) => {
  const { matcher, ...fields } = extra;
  return hook(event, cmd(command, fields), matcher === undefined ? {} : { matcher });
};
const bash = { tool_name: 'Bash', tool_input: { command: 'git push' }, cwd: '/w' };
const onceHook = on('Stop', 'once-only', { once: true });
const M = 600_000;
const asyncKinds = [
  on('Stop', 'now'),
  on('Stop', 'bg', { async: true }),
  on('Stop', 'wake', { asyncRewake: true }),
  on('Stop', 'bg-wake', { async: true, asyncRewake: true, timeout: 5 }),
];

const planRows: PlanRow[] = [
  // Matchers (§8.1, §20.2)
  {
    name: 'no matcher, "" and "*" match everything',
    event: 'PreToolUse',
    input: bash,
    hooks: [
      on('PreToolUse', 'none'),
      on('PreToolUse', 'empty', { matcher: '' }),
      on('PreToolUse', 'star', { matcher: '*' }),
    ],
    run: [
      ['none', M],
      ['empty', M],
      ['star', M],
    ],
    matcherValue: 'Bash',
  },
  {
    name: 'exact names, | and , lists, trimmed',
    event: 'PreToolUse',
    input: bash,
    hooks: [
      on('PreToolUse', 'exact', { matcher: 'Bash' }),
      on('PreToolUse', 'pipes', { matcher: 'Edit|Bash' }),
      on('PreToolUse', 'commas', { matcher: 'Edit , Bash' }),
      on('PreToolUse', 'other', { matcher: 'Edit' }),
    ],
    run: [
      ['exact', M],
      ['pipes', M],
      ['commas', M],
    ],
    skipped: [['other', 'matcher']],
  },
  {
    name: 'a list is case-sensitive and whole-name',
    event: 'PreToolUse',
    input: bash,
    hooks: [on('PreToolUse', 'lower', { matcher: 'bash' }), on('PreToolUse', 'prefix', { matcher: 'Bas' })],
    run: [],
    skipped: [
      ['lower', 'matcher'],
      ['prefix', 'matcher'],
    ],
  },
  {
    name: 'anything else is an unanchored regex',
    event: 'PreToolUse',
    input: bash,
    hooks: [on('PreToolUse', 'regex', { matcher: 'B.sh' }), on('PreToolUse', 'anchored', { matcher: '^Edit$' })],
    run: [['regex', M]],
    skipped: [['anchored', 'matcher']],
  },
  {
    name: 'an invalid regex matches nothing and warns once per matcher',
    event: 'PreToolUse',
    input: bash,
    hooks: [on('PreToolUse', 'bad-1', { matcher: '(' }), on('PreToolUse', 'bad-2', { matcher: '(' })],
    run: [],
    skipped: [
      ['bad-1', 'matcher'],
      ['bad-2', 'matcher'],
    ],
    warnings: ['invalid-matcher'],
  },
  {
    name: 'a legacy tool name matches its canonical tool',
    event: 'PreToolUse',
    input: { ...bash, tool_name: 'Agent', tool_input: {} },
    hooks: [on('PreToolUse', 'task', { matcher: 'Task' }), on('PreToolUse', 'task-regex', { matcher: '^Task$' })],
    run: [
      ['task', M],
      ['task-regex', M],
    ],
  },
  {
    name: 'an event without a matcher field ignores the matcher',
    event: 'Stop',
    hooks: [on('Stop', 'any', { matcher: 'Nothing' })],
    run: [['any', M]],
    matcherValue: undefined,
  },
  {
    name: 'an input without the matcher field matches everything',
    event: 'SessionStart',
    input: {},
    hooks: [on('SessionStart', 'any', { matcher: 'startup' })],
    run: [['any', M]],
    matcherValue: undefined,
  },
  {
    name: 'FileChanged matches the basename',
    event: 'FileChanged',
    input: { file_path: '/w/config/.env' },
    hooks: [on('FileChanged', 'env', { matcher: '.env' }), on('FileChanged', 'path', { matcher: '^/w/' })],
    run: [['env', M]],
    skipped: [['path', 'matcher']],
    matcherValue: '.env',
  },
  {
    name: 'FileChanged lists split on | only: a comma makes a regex',
    event: 'FileChanged',
    input: { file_path: '/w/b' },
    hooks: [on('FileChanged', 'pipes', { matcher: 'a|b' }), on('FileChanged', 'commas', { matcher: 'a, b' })],
    run: [['pipes', M]],
    skipped: [['commas', 'matcher']],
  },
  {
    name: 'StopFailure lists split on | only',
    event: 'StopFailure',
    input: { error: 'rate_limit' },
    hooks: [
      on('StopFailure', 'commas', { matcher: 'overloaded, rate_limit' }),
      on('StopFailure', 'pipes', { matcher: 'overloaded|rate_limit' }),
    ],
    run: [['pipes', M]],
    skipped: [['commas', 'matcher']],
  },
  {
    name: 'other events take , lists with spaces',
    event: 'Notification',
    input: { notification_type: 'idle_prompt' },
    hooks: [on('Notification', 'commas', { matcher: 'auth_success, idle_prompt' })],
    run: [['commas', M]],
  },
  {
    name: 'model switches drop a [1m] suffix from the matcher',
    event: 'PreModelSwitch',
    input: { to_model: 'claude-opus-4-7' },
    hooks: [
      on('PreModelSwitch', 'suffixed', { matcher: 'claude-opus-4-7[1m]' }),
      on('PreModelSwitch', 'other', { matcher: 'claude-haiku-4-5' }),
    ],
    run: [['suffixed', 30_000]],
    skipped: [['other', 'matcher']],
  },

  // Types, kill switches, dedup
  {
    name: 'a hook type the event cannot run is skipped',
    event: 'SessionStart',
    input: { source: 'startup' },
    hooks: [
      hook('SessionStart', { type: 'prompt', prompt: 'p' }),
      hook('SessionStart', { type: 'http', url: 'http://127.0.0.1:1/' }),
      on('SessionStart', 'cmd'),
    ],
    run: [['cmd', M]],
    skipped: [
      ['prompt', 'unsupported-type'],
      ['http', 'unsupported-type'],
    ],
  },
  {
    name: 'agent hooks are not run on PermissionRequest',
    event: 'PermissionRequest',
    input: bash,
    hooks: [
      hook('PermissionRequest', { type: 'agent', prompt: 'a' }),
      hook('PermissionRequest', { type: 'prompt', prompt: 'p' }),
    ],
    run: [['prompt', 30_000]],
    skipped: [['agent', 'unsupported-type']],
  },
  {
    name: 'a hook turned off by a kill switch is skipped as disabled',
    event: 'Stop',
    hooks: [hook('Stop', cmd('off'), { disabledReason: 'disableAllHooks: true in user settings' }), on('Stop', 'on')],
    run: [['on', M]],
    skipped: [['off', 'disabled']],
  },
  {
    name: 'the same command twice runs once; a plugin copy runs apart',
    event: 'Stop',
    hooks: [
      on('Stop', 'same'),
      on('Stop', 'same', { timeout: 5 }),
      hook('Stop', cmd('same'), { layer: 'plugin', pluginRoot: '/p' }),
    ],
    run: [
      ['same', 5000],
      ['same', M],
    ],
    skipped: [['same', 'deduplicated']],
  },
  {
    name: 'hooks of other events are not part of the plan',
    event: 'Stop',
    hooks: [on('PreToolUse', 'pre'), on('Stop', 'stop')],
    run: [['stop', M]],
  },

  // if (§8.3) and once
  {
    name: 'if on a tool event: the matching hook runs, the other is skipped',
    event: 'PreToolUse',
    input: bash,
    hooks: [
      on('PreToolUse', 'push', { if: 'Bash(git push*)' }),
      on('PreToolUse', 'rm', { if: 'Bash(rm *)' }),
      on('PreToolUse', 'empty-if', { if: '' }),
    ],
    run: [
      ['push', M],
      ['empty-if', M],
    ],
    skipped: [['rm', 'if']],
  },
  {
    name: 'if on PermissionRequest applies',
    event: 'PermissionRequest',
    input: bash,
    hooks: [on('PermissionRequest', 'push', { if: 'Bash(git push*)' })],
    run: [['push', M]],
  },
  {
    name: 'if on an event that is not a tool event: never runs',
    event: 'Stop',
    hooks: [on('Stop', 'guarded', { if: 'Bash' })],
    run: [],
    skipped: [['guarded', 'if']],
  },
  {
    name: 'a malformed if warns and never runs',
    event: 'PreToolUse',
    input: bash,
    hooks: [on('PreToolUse', 'malformed', { if: 'Bash(ls) || Bash(echo *)' })],
    run: [],
    skipped: [['malformed', 'if']],
    warnings: ['malformed-if'],
  },
  // Inside Claude Code async hooks have entries of their own: the synchronous one skips them, each async one runs its kind.
  {
    name: '--skip-async leaves async hooks out',
    event: 'Stop',
    hooks: asyncKinds,
    asyncHooks: 'skip',
    run: [['now', M]],
    skipped: [
      ['bg', 'skip-async'],
      ['wake', 'skip-async'],
      ['bg-wake', 'skip-async'],
    ],
  },
  {
    name: '--only-async async keeps the async hooks only',
    event: 'Stop',
    hooks: asyncKinds,
    asyncHooks: 'async',
    run: [['bg', 600_000]],
    skipped: [
      ['now', 'only-async'],
      ['wake', 'only-async'],
      ['bg-wake', 'only-async'],
    ],
  },
  {
    name: '--only-async asyncRewake keeps the asyncRewake hooks, with or without async',
    event: 'Stop',
    hooks: asyncKinds,
    asyncHooks: 'asyncRewake',
    run: [
      ['wake', 600_000],
      ['bg-wake', 5000],
    ],
    skipped: [
      ['now', 'only-async'],
      ['bg', 'only-async'],
    ],
  },
  {
    name: 'a once hook that already ran is skipped',
    event: 'Stop',
    hooks: [onceHook, on('Stop', 'always', { once: true })],
    alreadyRanOnce: [onceHook.id],
    run: [['always', M]],
    skipped: [['once-only', 'once']],
  },
  {
    name: 'a project hook the trust stage marked is skipped as untrusted, with why',
    event: 'Stop',
    hooks: [{ ...on('Stop', 'unapproved'), untrusted: 'it is not approved' }, on('Stop', 'approved')],
    run: [['approved', M]],
    skipped: [['unapproved', 'untrusted']],
  },
  {
    name: 'an unapproved copy never displaces an approved one: the user copy runs, the project copy is the duplicate',
    event: 'Stop',
    hooks: [hook('Stop', cmd('same'), { layer: 'user' }), { ...on('Stop', 'same'), untrusted: 'it is not approved' }],
    run: [['same', M]],
    skipped: [['same', 'deduplicated']],
  },

  // Time limits (§10.1)
  {
    name: 'event defaults for command hooks',
    event: 'UserPromptSubmit',
    input: {},
    hooks: [on('UserPromptSubmit', 'default'), on('UserPromptSubmit', 'own', { timeout: 45 })],
    run: [
      ['default', 30_000],
      ['own', 45_000],
    ],
  },
  {
    name: 'MessageDisplay defaults to 10 s',
    event: 'MessageDisplay',
    hooks: [on('MessageDisplay', 'show')],
    run: [['show', 10_000]],
  },
  {
    name: 'async command hooks get 600 s, or their timeout, on any event',
    event: 'UserPromptSubmit',
    input: {},
    hooks: [
      on('UserPromptSubmit', 'bg', { async: true }),
      on('UserPromptSubmit', 'bg-own', { async: true, timeout: 5 }),
    ],
    run: [
      ['bg', 600_000],
      ['bg-own', 5000],
    ],
  },
  {
    name: 'prompt 30 s and agent 60 s on a 600 s event',
    event: 'PreToolUse',
    input: bash,
    hooks: [hook('PreToolUse', { type: 'prompt', prompt: 'p' }), hook('PreToolUse', { type: 'agent', prompt: 'a' })],
    run: [
      ['prompt', 30_000],
      ['agent', 60_000],
    ],
  },
  {
    name: 'http and mcp_tool hooks take the event default',
    event: 'PreModelSwitch',
    input: { to_model: 'm' },
    hooks: [
      hook('PreModelSwitch', { type: 'http', url: 'http://127.0.0.1:1/' }),
      hook('PreModelSwitch', { type: 'mcp_tool', server: 's', tool: 't' }),
    ],
    run: [
      ['http', 30_000],
      ['mcp_tool', 30_000],
    ],
  },
  {
    name: 'SessionEnd: no timeout anywhere gives the 1.5 s floor',
    event: 'SessionEnd',
    input: { reason: 'other' },
    hooks: [on('SessionEnd', 'a'), on('SessionEnd', 'b')],
    run: [
      ['a', 1500],
      ['b', 1500],
    ],
  },
  {
    name: 'SessionEnd: the largest settings timeout is the shared budget',
    event: 'SessionEnd',
    input: { reason: 'other' },
    hooks: [on('SessionEnd', 'a', { timeout: 3 }), on('SessionEnd', 'b', { timeout: 10 }), on('SessionEnd', 'c')],
    run: [
      ['a', 3000],
      ['b', 10_000],
      ['c', 10_000],
    ],
  },
  {
    name: 'SessionEnd: plugin hooks do not raise the budget',
    event: 'SessionEnd',
    input: { reason: 'other' },
    hooks: [hook('SessionEnd', cmd('plugin', { timeout: 30 }), { layer: 'plugin', pluginRoot: '/p' })],
    run: [['plugin', 1500]],
  },
  {
    name: 'SessionEnd: the environment override wins',
    event: 'SessionEnd',
    input: { reason: 'other' },
    env: { CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '2500' },
    hooks: [on('SessionEnd', 'a', { timeout: 30 })],
    run: [['a', 2500]],
  },
  {
    name: 'SessionEnd: an unusable override is ignored',
    event: 'SessionEnd',
    input: { reason: 'other' },
    env: { CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: 'soon' },
    hooks: [on('SessionEnd', 'a', { timeout: 4 })],
    run: [['a', 4000]],
  },
];

for (const row of planRows) {
  test(`plan ${row.event}: ${row.name}`, () => {
    const result = plan(row.event, { hook_event_name: row.event, ...(row.input ?? {}) }, row.hooks, {
      home: '/home/u',
      env: row.env ?? {},
      ...(row.alreadyRanOnce ? { alreadyRanOnce: new Set(row.alreadyRanOnce) } : {}),
      ...(row.asyncHooks ? { asyncHooks: row.asyncHooks } : {}),
    });
    assert.deepEqual(
      result.run.map((entry) => [nameOf(entry.hook), entry.timeoutMs]),
      row.run,
      'run',
    );
    assert.deepEqual(
      result.skipped.map((entry) => [nameOf(entry.hook), entry.reason]),
      row.skipped ?? [],
      'skipped',
    );
    assert.ok(
      result.skipped.every((entry) => entry.detail !== ''),
      'every skip says why',
    );
    assert.deepEqual(
      result.warnings.map((warning) => warning.code),
      row.warnings ?? [],
      'warnings',
    );
    if ('matcherValue' in row) assert.equal(result.matcherValue, row.matcherValue, 'matcherValue');
  });
}

test('the plan table gives every reason the plan can skip for', () => {
  const planReasons = SKIP_REASONS.filter((reason) => reason !== 'background' && reason !== 'short-circuit');
  assert.deepEqual(
    new Set(planRows.flatMap((row) => (row.skipped ?? []).map(([, reason]) => reason))),
    new Set(planReasons),
  );
});

test('chains: a sequential group is one chain in order, every other hook a chain of its own; --sequential makes one', () => {
  const grouped = (command: string, groupIndex: number, sequential: boolean): LoadedHook => ({
    ...hook('Stop', cmd(command)),
    groupIndex,
    sequential,
  });
  const hooks = [
    grouped('a', 0, false),
    grouped('b', 1, true),
    grouped('c', 0, false),
    grouped('d', 1, true),
    grouped('e', 2, true),
  ];
  const names = (sequential: boolean) =>
    plan('Stop', { hook_event_name: 'Stop' }, hooks, { ...options(), sequential }).chains.map((chain) =>
      chain.map(({ hook: planned }) => (planned.handler.type === 'command' ? planned.handler.command : '?')),
    );
  assert.deepEqual(names(false), [['a'], ['b', 'd'], ['c'], ['e']]);
  assert.deepEqual(names(true), [['a', 'b', 'c', 'd', 'e']]);
  assert.deepEqual(plan('Stop', { hook_event_name: 'Stop' }, [], { ...options(), sequential: true }).chains, []);
});

test('skipLostOnce: once hooks another firing claimed leave the run and its chains and are skipped as once', () => {
  const first = hook('Stop', cmd('first', { once: true }));
  const second = { ...hook('Stop', cmd('second')), groupIndex: 0, sequential: true };
  const third = { ...hook('Stop', cmd('third', { once: true })), groupIndex: 0, sequential: true };
  const planned = plan('Stop', { hook_event_name: 'Stop' }, [first, second, third], options());
  const rows: Array<[lost: LoadedHook[], run: LoadedHook[], chains: LoadedHook[][], skipped: LoadedHook[]]> = [
    [[], [first, second, third], [[first], [second, third]], []],
    [[first], [second, third], [[second, third]], [first]],
    [[third], [first, second], [[first], [second]], [third]],
    [[first, third], [second], [[second]], [first, third]],
  ];
  for (const [lost, run, chains, skipped] of rows) {
    const after = skipLostOnce(planned, new Set(lost.map(({ id }) => id)));
    const row = lost.map(({ id }) => id).join(', ');
    assert.deepEqual(
      after.run.map(({ hook: h }) => h.id),
      run.map(({ id }) => id),
      row,
    );
    assert.deepEqual(
      after.chains.map((chain) => chain.map(({ hook: h }) => h.id)),
      chains.map((chain) => chain.map(({ id }) => id)),
      row,
    );
    assert.deepEqual(
      after.skipped.map(({ hook: h, reason, detail }) => [h.id, reason, detail]),
      skipped.map(({ id }) => [id, 'once', 'once: already ran successfully in this session']),
      row,
    );
  }
});

test('dedupe keeps the approved copy of a handler, whichever comes later', () => {
  const user = hook('Stop', cmd('same'), { layer: 'user' });
  const project = { ...hook('Stop', cmd('same')), untrusted: 'it is not approved' };
  const result = plan('Stop', { hook_event_name: 'Stop' }, [user, project], options());
  assert.deepEqual(
    result.run.map(({ hook: planned }) => planned.id),
    [user.id],
  );
  assert.deepEqual(
    result.skipped.map(({ hook: skipped, reason }) => [skipped.id, reason]),
    [[project.id, 'deduplicated']],
  );
});
