// Auto-detection must never take a Claude Code payload for another agent's: a wrong guess maps the event away.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hostOf } from '../../src/hosts/detect.ts';
import { ROOT } from '../helpers/cli.ts';

test('every real Claude Code 2.1.332 payload is detected as Claude Code (MessageDisplay carries turn_id, as Codex does)', async () => {
  const folder = join(ROOT, 'fixtures/claude-code-2.1.332/inputs');
  const files = readdirSync(folder).filter((file) => file.endsWith('.json'));
  assert.ok(files.length > 90);
  for (const file of files)
    assert.equal(await hostOf(undefined, readFileSync(join(folder, file), 'utf8')), undefined, file);
});

test('a Codex payload is still detected by its turn_id, and --host wins', async () => {
  const codex = JSON.stringify({
    session_id: 's',
    turn_id: 't',
    hook_event_name: 'PreToolUse',
    tool_name: 'shell',
    tool_input: {},
  });
  assert.equal(await hostOf(undefined, codex), 'codex');
  assert.equal(await hostOf('cursor', codex), 'cursor');
});

test('every host that has a marker is detected by it, from a payload of one of its own events', async () => {
  const { HOSTS } = await import('../../src/hosts/table.ts');
  const { HOST_MARKERS } = await import('../../src/hosts/types.ts');
  const marked = Object.entries(HOST_MARKERS);
  assert.ok(marked.length >= 5);
  for (const [host, marker] of marked) {
    const { eventField, events } = HOSTS[host as keyof typeof HOSTS];
    const payload: Record<string, unknown> = { session_id: 's', [marker!]: 'x' };
    if (eventField !== undefined) payload[eventField] = Object.keys(events)[0];
    assert.equal(await hostOf(undefined, JSON.stringify(payload)), host, host);
  }
});
