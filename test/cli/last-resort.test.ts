// Issue 29 item 1: an exception outside every handler (thrown from an event callback) ended `fire` with a stack
// trace and exit 1, also under --fail-closed. A preloaded module throws one while a hook runs, at a mark.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { isAlive } from '../../src/session/lock.ts';
import { cliCommand, cliTarget, makeProject, type Project, runCli } from '../helpers/cli.ts';
import { until } from '../helpers/wait.ts';

let project: Project;
let preload: string;
before(() => {
  project = makeProject();
  preload = join(project.dir, '..', 'throw-later.mjs');
  // Throws from a timer once the hook has left its mark: no handler of peri-hooks is on that stack.
  writeFileSync(
    preload,
    `import { existsSync } from 'node:fs';\nconst mark = process.env.THROW_AT;\nconst timer = setInterval(() => { if (existsSync(mark)) { clearInterval(timer); throw new Error('thrown outside any handler'); } }, 20);\ntimer.unref();\n`,
  );
});
after(() => project.cleanup());

const skip = cliTarget() === 'source' || cliTarget() === 'bundle' ? false : 'needs Node to preload a module';

for (const failClosed of [false, true]) {
  test(`an exception outside every handler: the message, exit ${failClosed ? '2 under --fail-closed' : 1}, and the hook is killed`, {
    skip,
  }, async () => {
    const mark = join(project.dir, '..', `started-${failClosed}`);
    const pidFile = join(project.dir, '..', `pid-${failClosed}`);
    project.write('.claude/settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `echo $$ > ${pidFile}; touch ${mark}; exec sleep 60` }],
          },
        ],
      },
    });
    const [command, prefix] = cliCommand('fire');
    const result = await runCli(['fire', 'PreToolUse', '--no-state', ...(failClosed ? ['--fail-closed'] : [])], {
      stdin: project.input('PreToolUse.tool_name-Bash'),
      env: project.env({ THROW_AT: mark }),
      cli: [command, ['--import', preload, ...prefix]],
    });
    assert.equal(result.code, failClosed ? 2 : 1, result.stderr);
    assert.match(
      result.stderr,
      /^peri-hooks: internal error: thrown outside any handler\n {2}This is a bug in peri-hooks/,
    );
    assert.doesNotMatch(result.stderr, /\n\s+at /);
    if (failClosed) assert.match(result.stderr, /peri-hooks: blocking because of --fail-closed\n$/);
    assert.ok(existsSync(pidFile));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await until('the hook to be killed', () => !isAlive(pid), 15_000);
  });
}
