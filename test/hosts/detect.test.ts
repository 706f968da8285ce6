// Auto-detection must never take a Claude Code payload for another agent's: a wrong guess maps the event away.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hostOf } from '../../src/hosts/detect.ts';
import { ROOT } from '../helpers/cli.ts';

test('every real Claude Code 2.1.332 payload is detected as Claude Code (MessageDisplay carries turn_id, as Codex does)', () => {
  const folder = join(ROOT, 'fixtures/claude-code-2.1.332/inputs');
  const files = readdirSync(folder).filter((file) => file.endsWith('.json'));
  assert.ok(files.length > 90);
  for (const file of files) assert.equal(hostOf(undefined, readFileSync(join(folder, file), 'utf8')), undefined, file);
});

test('a Codex payload is still detected by its turn_id, and --host wins', () => {
  const codex = JSON.stringify({ session_id: 's', turn_id: 't', hook_event_name: 'PreToolUse', tool_name: 'shell', tool_input: {} });
  assert.equal(hostOf(undefined, codex), 'codex');
  assert.equal(hostOf('cursor', codex), 'cursor');
});
