// fireHost in process: what goes to the stderr an agent may show its model. Where the agent shows the model a
// blocking hook's whole stderr (HostDef.modelReadsStderr), a block's stderr is its reason alone and peri-hooks'
// own lines go to the trace; elsewhere they stay on stderr. Real command hooks in a temporary project.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fireHost } from '../../src/hosts/fire.ts';
import { HOSTS } from '../../src/hosts/table.ts';
import type { HostName } from '../../src/hosts/types.ts';
import { makeProject, type Project, ROOT } from '../helpers/cli.ts';

let project: Project;
before(() => {
  project = makeProject();
});
after(() => project.cleanup());

const payload = () =>
  readFileSync(join(ROOT, 'fixtures/hosts/codex/PreToolUse.Bash.json'), 'utf8').replaceAll(
    '/home/user/project',
    project.dir,
  );

async function fired(host: HostName, hook: { stdout?: object; stderr?: string; exit?: number }, failClosed = false) {
  const script = project.write(
    `hooks/${host}-${hook.exit ?? 0}.sh`,
    `#!/bin/sh\ncat > /dev/null\nprintf '%s' '${JSON.stringify(hook.stdout ?? '')}'\nprintf '%s' '${hook.stderr ?? ''}' >&2\nexit ${hook.exit ?? 0}\n`,
  );
  const traced: string[] = [];
  const result = await fireHost({
    host,
    event: 'PreToolUse',
    text: payload(),
    source: 'stdin',
    options: {
      projectDir: project.dir,
      home: project.home,
      env: project.env(),
      settings: [
        JSON.stringify({
          hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `${script} --token=s3cr3t` }] }] },
        }),
      ],
      settingSources: [],
      noState: true,
      ...(failClosed ? { failClosed: true } : {}),
      trace: (_stage, message) => traced.push(message),
    },
  });
  return { ...result, traced: traced.filter((line) => line.startsWith('withheld from the model: ')) };
}

const ASK = {
  stdout: {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'ask',
      permissionDecisionReason: 'confirm it',
    },
  },
};
const CRASH = { stderr: 'Traceback at /opt/policy.py', exit: 1 };

describe("peri-hooks' own lines and the model", () => {
  const rows = [
    {
      name: 'Codex, an ask turned deny: the reason alone on stderr, the note in the trace',
      host: 'codex',
      hook: ASK,
      failClosed: false,
      stderr: 'confirm it\n',
      traced: /unsupported on Codex CLI PreToolUse: asking the user/,
    },
    {
      name: 'Codex, --fail-closed on a crash: the fail-closed reason alone; the command line and output in the trace',
      host: 'codex',
      hook: CRASH,
      failClosed: true,
      stderr: 'a policy hook failed (blocking because of --fail-closed)\n',
      traced: /--token=s3cr3t\]: .*Traceback at \/opt\/policy\.py/,
    },
    {
      name: 'Codex, a crash without --fail-closed is no block: its error stays on stderr (Codex does not show it)',
      host: 'codex',
      hook: CRASH,
      failClosed: false,
      stderr: /PreToolUse hook error: .*Traceback/,
      traced: undefined,
    },
    {
      name: 'Antigravity (no modelReadsStderr): the note stays on stderr, before the reason',
      host: 'antigravity',
      hook: ASK,
      failClosed: false,
      stderr: /unsupported on Antigravity CLI PreToolUse: asking the user[\s\S]*confirm it\n$/,
      traced: undefined,
    },
  ] as const;
  for (const row of rows) {
    test(row.name, async () => {
      assert.equal(HOSTS[row.host].modelReadsStderr === true, row.host === 'codex');
      const result = await fired(row.host, row.hook, row.failClosed);
      if (typeof row.stderr === 'string') assert.equal(result.stderr, row.stderr);
      else assert.match(result.stderr, row.stderr);
      if (row.traced) {
        assert.match(result.traced.join('\n'), row.traced);
        assert.match(result.withheld ?? '', row.traced);
      } else {
        assert.deepEqual(result.traced, []);
        assert.equal(result.withheld, undefined);
      }
      // A --fail-closed reason never names the hook's command line, for any agent.
      assert.doesNotMatch(result.stdout + (result.exitCode === 2 ? result.stderr : ''), /s3cr3t/);
    });
  }
});
