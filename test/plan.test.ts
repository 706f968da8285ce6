// The planning stage on its own (spec §9.2 dedup, §10.1 timeouts): which hooks run, with which time limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { HookHandler } from '../src/config/schema.ts';
import type { EventName } from '../src/events.ts';
import { plan, skipLostOnce } from '../src/plan.ts';
import type { Layer, LoadedHook } from '../src/types.ts';

let next = 0;
function hook(event: EventName, handler: HookHandler, extra: { layer?: Layer; pluginRoot?: string; matcher?: string; disabledReason?: string } = {}): LoadedHook {
  const layer = extra.layer ?? 'project';
  const pointer = `/hooks/${event}/0/hooks/${next++}`;
  return {
    id: `${layer}:${layer}.json#${pointer}`, event, handler,
    provenance: { layer, file: `${layer}.json`, pointer, ...(extra.pluginRoot ? { pluginRoot: extra.pluginRoot, pluginName: 'p' } : {}) },
    ...(extra.matcher === undefined ? {} : { matcher: extra.matcher }),
    ...(extra.disabledReason === undefined ? {} : { disabledReason: extra.disabledReason }),
  };
}

const options = (env: Record<string, string> = {}) => ({ home: '/home/u', env });
const cmd = (command: string, extra: object = {}): HookHandler => ({ type: 'command', command, ...extra });
const limits = (event: EventName, hooks: LoadedHook[], env: Record<string, string> = {}, input: Record<string, unknown> = {}) =>
  plan(event, { hook_event_name: event, ...input }, hooks, options(env)).run.map((r) => [r.hook.handler.type === 'command' ? r.hook.handler.command : r.hook.handler.type, r.timeoutMs]);

test('SessionEnd: a hook\'s own timeout below the shared budget still limits that hook', () => {
  const hooks = [hook('SessionEnd', cmd('quick', { timeout: 2 })), hook('SessionEnd', cmd('slow', { timeout: 20 })), hook('SessionEnd', cmd('plain'))];
  assert.deepEqual(limits('SessionEnd', hooks, {}, { reason: 'other' }), [['quick', 2000], ['slow', 20_000], ['plain', 20_000]]);
});

test('SessionEnd: hooks turned off by a kill switch do not raise the shared budget', () => {
  const hooks = [hook('SessionEnd', cmd('off', { timeout: 50 }), { layer: 'user', disabledReason: 'disableAllHooks: true in user settings' }), hook('SessionEnd', cmd('managed'), { layer: 'managed' })];
  assert.deepEqual(limits('SessionEnd', hooks, {}, { reason: 'other' }), [['managed', 1500]]);
});

test('SessionEnd: plugin timeouts do not raise the budget; the budget is capped at 60 s; the env override wins', () => {
  const plugin = hook('SessionEnd', cmd('plugin', { timeout: 40 }), { layer: 'plugin', pluginRoot: '/p' });
  assert.deepEqual(limits('SessionEnd', [plugin, hook('SessionEnd', cmd('a'))], {}, { reason: 'other' }), [['plugin', 1500], ['a', 1500]]);
  const big = hook('SessionEnd', cmd('big', { timeout: 300 }));
  assert.deepEqual(limits('SessionEnd', [big, hook('SessionEnd', cmd('b'))], {}, { reason: 'other' }), [['big', 60_000], ['b', 60_000]]);
  assert.deepEqual(limits('SessionEnd', [hook('SessionEnd', cmd('c'))], { CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '5000' }, { reason: 'other' }), [['c', 5000]]);
});

test('prompt and agent hooks: min() with the event default when no timeout is set, max(timeout, 1) when set', () => {
  const prompt = (extra: object = {}): HookHandler => ({ type: 'prompt', prompt: 'p', ...extra });
  const agent = (extra: object = {}): HookHandler => ({ type: 'agent', prompt: 'a', ...extra });
  assert.deepEqual(limits('UserPromptSubmit', [hook('UserPromptSubmit', prompt()), hook('UserPromptSubmit', agent())]), [['prompt', 30_000], ['agent', 30_000]]);
  assert.deepEqual(limits('Stop', [hook('Stop', prompt()), hook('Stop', agent())]), [['prompt', 30_000], ['agent', 60_000]]);
  assert.deepEqual(limits('UserPromptSubmit', [hook('UserPromptSubmit', agent({ timeout: 0.25 })), hook('UserPromptSubmit', prompt({ timeout: 90 }))]), [['agent', 1000], ['prompt', 90_000]]);
});

test('dedup: one run across settings files, groups and timeouts, with the later copy\'s fields; plugin copies and other `if`s stay apart', () => {
  const bash = { tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/w' };
  const hooks = [
    hook('PreToolUse', cmd('guard', { timeout: 5 }), { layer: 'user', matcher: 'Bash' }),
    hook('PreToolUse', cmd('guard', { timeout: 9, shell: 'bash' }), { layer: 'local', matcher: '*' }),
    hook('PreToolUse', cmd('guard'), { layer: 'plugin', pluginRoot: '/plugins/p' }),
    hook('PreToolUse', cmd('guard', { if: 'Bash(ls*)' }), { layer: 'project' }),
  ];
  const result = plan('PreToolUse', bash, hooks, options());
  assert.deepEqual(result.run.map((r) => [r.hook.provenance.layer, r.timeoutMs]), [['local', 9000], ['plugin', 600_000], ['project', 600_000]]);
  assert.deepEqual(result.skipped.map((s) => [s.hook.provenance.layer, s.reason]), [['user', 'deduplicated']]);
});

test('chains: a sequential group is one chain in order, every other hook a chain of its own; --sequential makes one', () => {
  const grouped = (command: string, groupIndex: number, sequential: boolean): LoadedHook => ({ ...hook('Stop', cmd(command)), groupIndex, sequential });
  const hooks = [grouped('a', 0, false), grouped('b', 1, true), grouped('c', 0, false), grouped('d', 1, true), grouped('e', 2, true)];
  const names = (sequential: boolean) => plan('Stop', { hook_event_name: 'Stop' }, hooks, { ...options(), sequential }).chains
    .map((chain) => chain.map(({ hook: planned }) => (planned.handler.type === 'command' ? planned.handler.command : '?')));
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
    assert.deepEqual(after.run.map(({ hook: h }) => h.id), run.map(({ id }) => id), row);
    assert.deepEqual(after.chains.map((chain) => chain.map(({ hook: h }) => h.id)), chains.map((chain) => chain.map(({ id }) => id)), row);
    assert.deepEqual(after.skipped.map(({ hook: h, reason, detail }) => [h.id, reason, detail]), skipped.map(({ id }) => [id, 'once', 'once: already ran successfully in this session']), row);
  }
});
