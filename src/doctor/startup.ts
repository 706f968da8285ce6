// The start-up a registered firing pays before any hook runs, measured: no-op firings of the registered
// artefact (no hooks, no state), against the tightest budget a firing must fit, SessionEnd's 1.5 s.
import { spawnSync } from 'node:child_process';
import { shellCommand } from '../config/registration.ts';
import { EVENTS, type EventName } from '../events.ts';
import { nowMs } from '../platform/clock.ts';
import { type Check, check } from './check.ts';

const RUNS = 5;
const BUDGET_MS = EVENTS.SessionEnd.timeoutS * 1000;
/** The events one tool call can fire, each a start of peri-hooks when registered. */
const TOOL_CALL_EVENTS: readonly EventName[] = ['PreToolUse', 'PermissionRequest', 'PostToolUse'];
const RUN_TIMEOUT_MS = 30_000;

export function startupCheck(
  runner: readonly string[],
  registered: readonly EventName[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Check {
  const input = JSON.stringify({
    session_id: 'peri-hooks-doctor',
    transcript_path: '',
    cwd,
    hook_event_name: 'SessionEnd',
    reason: 'other',
  });
  const args = [
    ...runner.slice(1),
    'fire',
    'SessionEnd',
    '--output',
    'claude',
    '--setting-sources',
    'none',
    '--no-state',
  ];
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = nowMs();
    const result = spawnSync(runner[0]!, args, { input, cwd, env, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
    if (result.error || result.status !== 0) {
      const why = result.error
        ? ((result.error as NodeJS.ErrnoException).code ?? result.error.message)
        : `exit ${result.status ?? result.signal}: ${result.stderr.trim()}`;
      return check(
        'startup',
        'fail',
        'start-up',
        `a no-op firing of ${shellCommand(runner)} failed (${why})`,
        'run peri-hooks install again, so that the registration starts a peri-hooks that is there',
      );
    }
    times.push(nowMs() - started);
  }
  const median = Math.round(times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!);
  const tools = TOOL_CALL_EVENTS.filter((event) => registered.includes(event));
  const perCall =
    tools.length === 0
      ? 'no tool-call event is registered'
      : `a tool call starts ${tools.length} (${tools.join(', ')}): about ${median * tools.length} ms`;
  const detail = `median ${median} ms over ${RUNS} no-op firings of ${shellCommand(runner)}: ${Math.round((median / BUDGET_MS) * 100)} % of SessionEnd's ${BUDGET_MS / 1000} s budget; ${perCall}`;
  if (median >= BUDGET_MS)
    return check(
      'startup',
      'fail',
      'start-up',
      `${detail}; nothing would be left for the SessionEnd hooks`,
      'use the single binary (npm run build:sea, then peri-hooks install from it)',
    );
  if (median * 2 >= BUDGET_MS)
    return check(
      'startup',
      'warn',
      'start-up',
      `${detail}; less than half of it is left for the SessionEnd hooks`,
      'use the single binary (npm run build:sea, then peri-hooks install from it)',
    );
  return check('startup', 'pass', 'start-up', detail);
}
