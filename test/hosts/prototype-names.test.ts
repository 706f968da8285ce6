// Issue 29: event names such as __proto__ or constructor found Object.prototype's members in the hosts' event
// tables (`name in table`), and `fire --host` died with an internal error. They are unknown events, said as such.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

for (const host of ['codex', 'gemini', 'cursor', 'copilot']) {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    test(`${host}: the event "${name}", named or in the payload, is an unknown event (exit 1), never an internal error; --fail-closed changes nothing`, async () => {
      const payload = JSON.stringify({ hook_event_name: name, hookEventName: name, session_id: 's', cwd: project.dir });
      for (const args of [
        ['fire', '--host', host, name],
        ['fire', '--host', host],
        ['fire', '--host', host, name, '--fail-closed'],
      ]) {
        const result = await runCli(args, { stdin: payload, env: project.env() });
        assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
        assert.doesNotMatch(result.stderr, /internal error/);
        assert.match(result.stderr, /names no event peri-hooks maps|unknown/);
      }
    });
  }
}
