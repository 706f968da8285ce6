// Issue 29: event names such as __proto__ or constructor found Object.prototype's members in the hosts' event
// tables (`name in table`), and `fire --host` died with an internal error. They are unknown events, said as such:
// every name in process through fireHost (as `fire --host` calls it), and the exit code as a process per host.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PeriHooksError } from '../../src/errors.ts';
import { fireHost } from '../../src/hosts/fire.ts';
import type { HostName } from '../../src/hosts/types.ts';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const HOSTS: HostName[] = ['codex', 'gemini', 'cursor', 'copilot'];
const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
const UNKNOWN = /names no event peri-hooks maps|unknown/;
const payload = (name: string) =>
  JSON.stringify({ hook_event_name: name, hookEventName: name, session_id: 's', cwd: project.dir });

for (const host of HOSTS) {
  test(`${host}: each of ${NAMES.join(', ')}, named or in the payload, is an unknown event, never an internal error`, async () => {
    for (const name of NAMES) {
      for (const event of [name, undefined]) {
        const firing = fireHost({
          host,
          ...(event !== undefined ? { event } : {}),
          text: payload(name),
          source: 'stdin',
          options: { env: project.env(), home: project.home, managedDir: project.managed, noState: true },
        });
        await assert.rejects(
          firing,
          (error) => error instanceof PeriHooksError && UNKNOWN.test(error.message),
          `${name} ${event === undefined ? 'in the payload' : 'named'}`,
        );
      }
    }
  });

  test(`${host}: as a process, exit 1 and the message; --fail-closed changes nothing`, async () => {
    for (const args of [
      ['fire', '--host', host, '__proto__', '--fail-closed'],
      ['fire', '--host', host],
    ]) {
      const result = await runCli(args, { stdin: payload('constructor'), env: project.env() });
      assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
      assert.doesNotMatch(result.stderr, /internal error/);
      assert.match(result.stderr, UNKNOWN);
    }
  });
}
