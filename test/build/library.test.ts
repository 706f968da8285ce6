// The published library entry (dist/index.mjs, built by pretest) fires like the CLI, loads its lazy parts
// (execa for command hooks, undici for http hooks) from inside the ESM bundle, and exports the API.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, makeProject, type Project } from '../helpers/cli.ts';

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
  const library = await import(pathToFileURL(join(ROOT, 'dist/index.mjs')).href) as typeof import('../../src/index.ts');
  assert.equal(typeof library.loadSettings, 'function');
  assert.equal(library.EVENT_NAMES.length, 34);
  const settings = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo "tests first" >&2; exit 2' }, { type: 'http', url }] }] } });
  const report = await library.fire('Stop', JSON.parse(project.input('Stop')), { settings: [settings], settingSources: [], noState: true, env: project.env() });
  assert.equal(report.blocked, true);
  assert.equal(report.reason, 'tests first');
  assert.equal(report.output?.systemMessage, 'from http');
});
