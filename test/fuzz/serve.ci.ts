// Seeded fuzzing of serve's requests (issue 29): hostile paths, methods, project headers and query values, and
// mutated bodies, against a real `peri-hooks serve --fail-closed`. Every request is answered with a documented
// status and never an internal error, the server stays up, and the policy still denies afterwards.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { EVENT_NAMES } from '../../src/events.ts';
import { makeProject, ROOT } from '../helpers/cli.ts';
import { prng } from '../helpers/prng.ts';
import { call, startServe } from '../helpers/serve.ts';

const SEED = Number(process.env.PERI_HOOKS_FUZZ_SEED ?? 20261203);
const REQUESTS = 400;
const AT_ONCE = Number(process.env.AT_ONCE ?? 8);
const DOCUMENTED = [200, 400, 404, 405, 413, 500, 503];

const dir = path.join(ROOT, 'fixtures/claude-code-2.1.332/inputs');
const bodies = readdirSync(dir).map((name) => JSON.stringify(JSON.parse(readFileSync(path.join(dir, name), 'utf8'))));
const NAMES = [
  ...EVENT_NAMES,
  '__proto__',
  'constructor',
  'toString',
  'PreToolUse/x',
  '..',
  '%2e%2e',
  'pretooluse',
  '%00',
  'PreToolUse%00',
  'a'.repeat(5000),
];
const PROJECTS = [
  '',
  'relative',
  '/',
  '/nonexistent',
  '/etc/passwd',
  '__proto__',
  '/tmp/../tmp',
  '%00',
  '\u0001',
  'x'.repeat(4000),
];

test(`fuzzed requests (${REQUESTS}, seed ${SEED}) to serve --fail-closed: documented answers, never an internal error, the server stays up`, {
  timeout: 300_000,
}, async (t) => {
  const project = makeProject();
  project.write('.claude/settings.json', {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no Bash" >&2; exit 2' }] }] },
  });
  const served = await startServe(
    ['--listen', '127.0.0.1:0', '--fail-closed', '--project-root', project.dir, '--no-state'],
    project.env(),
  );
  t.after(async () => {
    await served.stop();
    project.cleanup();
  });
  const random = prng(SEED);
  const request = (i: number) => {
    const route = random.pick(['/hooks/', '/v1/fire/', '/healthz', '/', '/hooks', '/v1/fire/PreToolUse/extra']);
    const name = route.endsWith('/') && route !== '/' ? random.pick(NAMES) : '';
    const query = random.chance(0.2) ? `?project=${encodeURIComponent(random.pick(PROJECTS))}` : '';
    const method = random.pick(['POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE']);
    const headers: Record<string, string> = {};
    const project = random.pick(PROJECTS);
    // A header value cannot hold control characters or be empty; the client refuses those itself.
    if (random.chance(0.3) && project !== '' && !/[\u0000-\u001f]/.test(project))
      headers['x-peri-hooks-project-dir'] = project;
    let body = random
      .pick(bodies)
      .replace(/"cwd":"[^"]*"/, `"cwd":${JSON.stringify(project === '' ? '/tmp' : project)}`);
    const mutation = random.int(6);
    if (mutation === 1) body = body.slice(0, random.int(body.length));
    if (mutation === 2) body = body.replace(/"[a-z_]+":/, random.pick(['"__proto__":', '"constructor":']));
    if (mutation === 3) body = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    if (mutation === 4) body = body.replace(/"session_id":"/, '"session_id":"\\u0000');
    if (mutation === 5) body = '';
    return {
      i,
      url: `${served.url}${route}${encodeURIComponent(name).replace(/%2F/g, '/')}${query}`,
      method,
      body: method === 'GET' ? undefined : body,
      headers,
    };
  };
  const failures: string[] = [];
  for (let start = 0; start < REQUESTS; start += AT_ONCE) {
    const batch = Array.from({ length: Math.min(AT_ONCE, REQUESTS - start) }, (_, k) => request(start + k));
    await Promise.all(
      batch.map(async ({ i, url, method, body, headers }) => {
        const answer = await call(url, method, body, headers).catch((error: Error) => ({
          status: -1,
          text: error.message,
        }));
        if (!DOCUMENTED.includes(answer.status) || /internal error/.test(answer.text))
          failures.push(
            `seed ${SEED}, request ${i}: ${method} ${url.slice(0, 200)} -> ${answer.status} ${answer.text.slice(0, 300)}`,
          );
      }),
    );
  }
  assert.deepEqual(failures, [], served.stderr().slice(-3000));
  assert.equal(served.child.exitCode, null, 'the server is still running');
  assert.doesNotMatch(served.stderr(), /internal error/);
  const denied = await call(`${served.url}/hooks/PreToolUse`, 'POST', project.input('PreToolUse.tool_name-Bash'));
  assert.equal(denied.json().hookSpecificOutput.permissionDecision, 'deny');
});
