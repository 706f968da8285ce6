// The published library entry (dist/index.mjs, built by pretest) fires like the CLI, loads its lazy parts
// (execa for command hooks, undici for http hooks) from inside the ESM bundle, and exports the API: whole
// firings, and the stages for an embedder that loads settings once and fires many times.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { makeProject, type Project, ROOT } from '../helpers/cli.ts';

let project: Project;
let server: Server;
let url: string;
before(async () => {
  project = makeProject();
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end(JSON.stringify({ systemMessage: 'from http' })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
after(() => {
  server.close();
  project.cleanup();
});

test('import { fire } from the built library runs command and http hooks', async () => {
  const library = (await import(
    pathToFileURL(join(ROOT, 'dist/index.mjs')).href
  )) as typeof import('../../src/index.ts');
  assert.equal(typeof library.loadSettings, 'function');
  assert.equal(library.EVENT_NAMES.length, 34);
  const settings = JSON.stringify({
    hooks: {
      Stop: [
        {
          hooks: [
            { type: 'command', command: 'echo "tests first" >&2; exit 2' },
            { type: 'http', url },
          ],
        },
      ],
    },
  });
  const report = await library.fire('Stop', JSON.parse(project.input('Stop')), {
    settings: [settings],
    settingSources: [],
    noState: true,
    env: project.env(),
  });
  assert.equal(report.blocked, true);
  assert.equal(report.reason, 'tests first');
  assert.equal(report.output?.systemMessage, 'from http');
});

test('an embedder loads settings once and fires twice through the exported stages', async () => {
  const library = (await import(
    pathToFileURL(join(ROOT, 'dist/index.mjs')).href
  )) as typeof import('../../src/index.ts');
  const log = join(project.dir, 'stages.log');
  const file = project.write('stages-settings.json', {
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: `echo fired >> ${log}; echo "no rm" >&2; exit 2` }] },
      ],
    },
  });
  const env = project.env();
  const sources = library.sourcesToLoad({ settings: [file], settingSources: [], env }, project.dir);
  const loaded = await library.loadSettings(sources);
  // What the embedder loaded is what it fires with: the file is not read again.
  project.write('stages-settings.json', { hooks: {} });

  const reports = [];
  for (const command of ['rm -rf build', 'rm -rf dist']) {
    const input = library.parseInput(
      'PreToolUse',
      project.input('PreToolUse.tool_name-Bash', { tool_input: { command } }),
    );
    const thePlan = library.plan('PreToolUse', input, loaded.hooks, { home: sources.home, env });
    const executed = await library.execute(thePlan, {
      input,
      projectDir: sources.projectDir,
      settings: loaded.settings,
      env,
    });
    const reduced = library.reduce('PreToolUse', library.reduceItems(executed.ran), { input });
    const settled = await library.settle(undefined, 'PreToolUse', input, reduced, executed.once, env);
    reports.push(
      library.buildReport({
        event: 'PreToolUse',
        projectDir: sources.projectDir,
        hooks: loaded.hooks,
        plan: thePlan,
        executed,
        settled,
        loadDiagnostics: loaded.diagnostics,
        sessionWarnings: [],
      }),
    );
  }
  assert.deepEqual(
    reports.map((report) => [report.exitCode, report.reason, report.hooks.map((hook) => hook.status)]),
    [
      [2, 'no rm', ['ran']],
      [2, 'no rm', ['ran']],
    ],
  );
  assert.equal(readFileSync(log, 'utf8'), 'fired\nfired\n');
});
