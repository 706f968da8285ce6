// Entry point of the single executable (scripts/build-sea.ts builds it with a V8 startup snapshot): the fire
// path's modules (zod, the settings schemas, the runners' dispatch) are evaluated once, at build time, and
// each start deserialises them instead. Nothing here may read the environment, the clock or the terminal:
// those would be frozen into the snapshot.
import { startupSnapshot } from 'node:v8';
import { run } from './main.ts';
import { parseArgs } from './parse.ts';
import { fire } from '../fire.ts';
import { renderClaude } from '../report/claude.ts';
import { renderDecision } from '../report/decision.ts';
import { renderJson } from '../report/json.ts';

/**
 * One firing at build time, so that the snapshot holds the fire path's compiled functions and the PreToolUse
 * input schema: compiling them on each start cost a no-op firing ~25 M instructions (~9 ms). It touches no
 * state the snapshot could freeze: an empty environment, no settings files, no session state, and one hook
 * whose exact-name matcher needs no regex and matches nothing, so nothing runs.
 */
async function warmUp(): Promise<void> {
  const settings = JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'exit 2' }] }] } });
  parseArgs(['fire', 'PreToolUse', '--setting-sources', '', '--settings', settings]);
  const input = { session_id: 'warm-up', transcript_path: '/warm-up.jsonl', cwd: '/', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'true' }, tool_use_id: 'warm-up' };
  const report = await fire('PreToolUse', input, { env: {}, home: '/', projectDir: '/', settingSources: [], settings: [settings], noState: true });
  // A warm-up that loaded nothing would leave the fire path cold without a word: the build must fail instead.
  if (report.hooks.length !== 1 || report.warnings.length > 0) throw new Error(`the snapshot's warm-up firing went wrong: ${JSON.stringify(report)}`);
  for (const render of [renderDecision, renderJson, renderClaude]) render(report);
}

void warmUp();
startupSnapshot.setDeserializeMainFunction(() => run(process.argv.slice(2)));
