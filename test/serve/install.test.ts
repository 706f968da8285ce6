// `install --serve <url>`: http hooks that post to a running server, the allowedHttpHookUrls entry they need,
// a server that never posts to itself through them, and doctor's check that the server answers.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { loadSettings } from '../../src/config/index.ts';
import { runHttpHook } from '../../src/runners/http.ts';
import type { LoadedHook, RawOutcome } from '../../src/types.ts';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';
import { call, startServe } from '../helpers/serve.ts';

function settingsOf(project: Project): any {
  return JSON.parse(readFileSync(join(project.dir, '.claude/settings.json'), 'utf8'));
}

const cli = (project: Project, args: string[]) => runCli(args, { env: project.env(), cwd: project.dir });

test('install --serve writes one http hook per event and allows the server where the file restricts http hooks; again changes nothing; uninstall removes it', async (t) => {
  const project = makeProject();
  t.after(() => project.cleanup());
  project.write('.claude/settings.json', { allowedHttpHookUrls: ['https://audit.example.com/*'] });
  const installed = await cli(project, ['install', '--serve', 'http://127.0.0.1:7387/', '--events', 'PreToolUse,Stop']);
  assert.equal(installed.code, 0, installed.stderr);
  const settings = settingsOf(project);
  assert.deepEqual(settings.allowedHttpHookUrls, ['https://audit.example.com/*', 'http://127.0.0.1:7387/hooks/*']);
  assert.deepEqual(settings.hooks.PreToolUse, [
    {
      hooks: [
        {
          type: 'http',
          url: 'http://127.0.0.1:7387/hooks/PreToolUse',
          headers: { 'X-Peri-Hooks': 'registration', 'X-Peri-Hooks-Project-Dir': project.dir },
          timeout: 602,
        },
      ],
    },
  ]);
  assert.equal(settings.hooks.Stop[0].hooks[0].url, 'http://127.0.0.1:7387/hooks/Stop');

  const again = await cli(project, ['install', '--serve', 'http://127.0.0.1:7387', '--events', 'PreToolUse,Stop']);
  assert.match(again.stdout, /already registered/);
  const removed = await cli(project, ['uninstall']);
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(settingsOf(project).hooks, undefined);
});

test('install --serve refuses what the server decides or cannot read, and a URL that is not a plain address', async (t) => {
  const project = makeProject();
  t.after(() => project.cleanup());
  const refused = [
    [['--fail-closed'], /--fail-closed belongs on the server/],
    [['--move-hooks'], /--move-hooks and --serve do not go together/],
    [[], /needs the events to register/],
  ] as const;
  for (const [flags, message] of refused) {
    const result = await cli(project, [
      'install',
      '--serve',
      'http://127.0.0.1:7387',
      ...flags,
      ...(flags.length > 0 ? ['--events', 'Stop'] : []),
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, message);
  }
  const credentials = await cli(project, ['install', '--serve', 'http://me:pw@127.0.0.1:7387', '--events', 'Stop']);
  assert.match(credentials.stderr, /must be a plain http:\/\/ or https:\/\/ address/);
  const tokenless = await cli(project, ['install', '--serve', 'https://hooks.example.com', '--events', 'Stop']);
  assert.equal(tokenless.code, 1);
  assert.match(tokenless.stderr, /not a loopback address, so the server needs a bearer token/);
  assert.match(tokenless.stderr, /--token-env PERI_HOOKS_TOKEN/);
  assert.match(
    (await cli(project, ['install', '--serve', 'http://127.0.0.1:7387', '--events', 'Stop', '--token-env', 'my_token']))
      .stderr,
    /not a variable name Claude Code fills in/,
  );
  assert.match(
    (await cli(project, ['install', '--policy', 'p.json', '--token-env', 'TOKEN'])).stderr,
    /give it with --serve/,
  );
});

/** The registered http hook run as Claude Code runs it: headers filled from `env` through both allow lists (spec §11.1). */
/** The registered PreToolUse hook, run as Claude Code runs it: with the lists its settings files hold, merged. */
async function asClaudeCode(project: Project, env: Record<string, string>): Promise<RawOutcome> {
  const settings = settingsOf(project);
  const { settings: inForce } = await loadSettings({ projectDir: project.dir, home: project.home, env: project.env() });
  const hook: LoadedHook = {
    id: 'project:.claude/settings.json#/hooks/PreToolUse/0/hooks/0',
    event: 'PreToolUse',
    handler: settings.hooks.PreToolUse[0].hooks[0],
    provenance: {
      layer: 'project',
      file: join(project.dir, '.claude/settings.json'),
      pointer: '/hooks/PreToolUse/0/hooks/0',
    },
  };
  const input = project.input('PreToolUse');
  return runHttpHook(hook, {
    event: 'PreToolUse',
    input: JSON.parse(input),
    inputJson: input,
    projectDir: project.dir,
    cwd: project.dir,
    env,
    timeoutMs: 30_000,
    settings: inForce,
    signal: new AbortController().signal,
    warn: () => {},
  });
}

/** A project and a serve that needs the token tok-secret-4242, both gone after the test. */
async function projectWithTokenServer(
  t: TestContext,
): Promise<{ project: Project; served: Awaited<ReturnType<typeof startServe>> }> {
  const project = makeProject();
  const tokenFile = project.writeHome('token', 'tok-secret-4242\n');
  const served = await startServe(
    ['--listen', '127.0.0.1:0', '--token-file', tokenFile, '--state-dir', join(project.home, 'state')],
    project.env(),
  );
  t.after(async () => {
    await served.stop();
    project.cleanup();
  });
  return { project, served };
}

test("install --serve --token-env: the hooks send the token from Claude Code's environment, never written; doctor says which variable to set", async (t) => {
  const { project, served } = await projectWithTokenServer(t);
  project.write('.claude/settings.json', { allowedHttpHookUrls: [] });
  const installed = await cli(project, [
    'install',
    '--serve',
    served.url,
    '--events',
    'PreToolUse',
    '--token-env',
    'PERI_HOOKS_TOKEN',
  ]);
  assert.equal(installed.code, 0, installed.stderr);
  assert.match(installed.stdout, /token from \$PERI_HOOKS_TOKEN/);
  const settings = settingsOf(project);
  const handler = settings.hooks.PreToolUse[0].hooks[0];
  assert.equal(handler.headers.Authorization, 'Bearer $PERI_HOOKS_TOKEN');
  assert.deepEqual(handler.allowedEnvVars, ['PERI_HOOKS_TOKEN']);
  // No settings file lists header variables, and a new list would restrict every other http hook: none is made.
  assert.equal(settings.httpHookAllowedEnvVars, undefined);
  assert.deepEqual(settings.allowedHttpHookUrls, [`${served.url}/hooks/*`]);
  assert.ok(!readFileSync(join(project.dir, '.claude/settings.json'), 'utf8').includes('tok-secret'));

  const answered = await asClaudeCode(project, { PERI_HOOKS_TOKEN: 'tok-secret-4242' });
  assert.equal(answered.exitCode, 0, answered.error);
  const refused = await asClaudeCode(project, {});
  assert.match(refused.error ?? '', /HTTP 401 from/);

  const serverCheck = async (env: Record<string, string>) =>
    JSON.parse(
      (await runCli(['doctor', '--output', 'json'], { env: project.env(env), cwd: project.dir })).stdout,
    ).checks.find((entry: { id: string }) => entry.id === 'server');
  assert.equal((await serverCheck({ PERI_HOOKS_TOKEN: 'tok-secret-4242' })).status, 'pass');
  const unset = await serverCheck({});
  assert.equal(unset.status, 'fail');
  assert.match(unset.detail, /refuses the bearer token the registration sends \(\$PERI_HOOKS_TOKEN is not set here\)/);
  assert.match(unset.fix, /set \$PERI_HOOKS_TOKEN to the token in the server's --token-file/);
  const wrong = await serverCheck({ PERI_HOOKS_TOKEN: 'tok-wrong' });
  assert.match(wrong.detail, /the token in \$PERI_HOOKS_TOKEN is not the server's/);
  assert.ok(!JSON.stringify([unset, wrong]).includes('tok-secret'));

  // A list in force elsewhere that leaves the variable out: Claude Code sends an empty token, and doctor says so.
  project.writeHome('.claude/settings.json', { httpHookAllowedEnvVars: ['OTHER_VARIABLE'] });
  const leftOut = await serverCheck({ PERI_HOOKS_TOKEN: 'tok-secret-4242' });
  assert.equal(leftOut.status, 'fail');
  assert.match(
    leftOut.detail,
    /Claude Code leaves \$PERI_HOOKS_TOKEN out, since the settings' httpHookAllowedEnvVars do not name it/,
  );
  assert.match(leftOut.fix, /add PERI_HOOKS_TOKEN to httpHookAllowedEnvVars/);
  assert.match((await asClaudeCode(project, { PERI_HOOKS_TOKEN: 'tok-secret-4242' })).error ?? '', /HTTP 401 from/);

  // A registration that sends no token, at a server that needs one.
  assert.equal((await cli(project, ['install', '--serve', served.url, '--events', 'PreToolUse'])).code, 0);
  const none = await serverCheck({ PERI_HOOKS_TOKEN: 'tok-secret-4242' });
  assert.equal(none.status, 'fail');
  assert.match(none.detail, /needs a bearer token, and the registration sends none/);
});

test('install --serve adds its URL pattern and token variable where a list in force elsewhere would refuse them, and makes no list where none is', async (t) => {
  const { project, served } = await projectWithTokenServer(t);
  const user = { allowedHttpHookUrls: ['https://hooks.example.com/*'], httpHookAllowedEnvVars: ['OTHER_VARIABLE'] };
  project.writeHome('.claude/settings.json', user);
  const installed = await cli(project, [
    'install',
    '--serve',
    served.url,
    '--events',
    'PreToolUse',
    '--token-env',
    'PERI_HOOKS_TOKEN',
  ]);
  assert.equal(installed.code, 0, installed.stderr);
  const settings = settingsOf(project);
  assert.deepEqual(settings.allowedHttpHookUrls, [`${served.url}/hooks/*`]);
  assert.deepEqual(settings.httpHookAllowedEnvVars, ['PERI_HOOKS_TOKEN']);
  assert.deepEqual(
    JSON.parse(readFileSync(join(project.home, '.claude/settings.json'), 'utf8')),
    user,
    "the user's file is not touched",
  );
  assert.equal((await asClaudeCode(project, { PERI_HOOKS_TOKEN: 'tok-secret-4242' })).exitCode, 0);

  // A user list that lets only the first event's hook through: the pattern is still added.
  const partly = makeProject();
  t.after(() => partly.cleanup());
  partly.writeHome('.claude/settings.json', { allowedHttpHookUrls: [`${served.url}/hooks/PreToolUse`] });
  assert.equal((await cli(partly, ['install', '--serve', served.url, '--events', 'PreToolUse,Stop'])).code, 0);
  assert.deepEqual(settingsOf(partly).allowedHttpHookUrls, [`${served.url}/hooks/*`]);

  // A user list that already lets the hooks through: nothing is added.
  const other = makeProject();
  t.after(() => other.cleanup());
  other.writeHome('.claude/settings.json', {
    allowedHttpHookUrls: ['http://127.0.0.1:*'],
    httpHookAllowedEnvVars: ['PERI_HOOKS_TOKEN'],
  });
  assert.equal(
    (await cli(other, ['install', '--serve', served.url, '--events', 'PreToolUse', '--token-env', 'PERI_HOOKS_TOKEN']))
      .code,
    0,
  );
  const untouched = settingsOf(other);
  assert.equal(untouched.allowedHttpHookUrls, undefined);
  assert.equal(untouched.httpHookAllowedEnvVars, undefined);
});

test('a server loading the settings that register it does not post to itself; doctor sees it answer, and not once it is gone', async (t) => {
  const project = makeProject();
  t.after(() => project.cleanup());
  const served = await startServe(
    ['--listen', '127.0.0.1:0', '--project-root', project.dir, '--state-dir', join(project.home, 'state')],
    project.env(),
  );
  let stopped = false;
  t.after(async () => {
    if (!stopped) await served.stop();
  });
  assert.equal((await cli(project, ['install', '--serve', served.url, '--events', 'PreToolUse'])).code, 0);

  const report = await call(`${served.url}/v1/fire/PreToolUse`, 'POST', project.input('PreToolUse'), {
    'x-peri-hooks-project-dir': project.dir,
  });
  assert.equal(report.json().hooks.length, 0);
  assert.ok(report.json().warnings.some((warning: { code: string }) => warning.code === 'own-registration'));
  assert.equal(
    (served.stderr().match(/POST \/hooks\/PreToolUse/g) ?? []).length,
    0,
    'the server never called its own registration',
  );

  const serverCheck = async () =>
    JSON.parse((await cli(project, ['doctor', '--output', 'json'])).stdout).checks.find(
      (entry: { id: string }) => entry.id === 'server',
    );
  assert.equal((await serverCheck()).status, 'pass');
  await served.stop();
  stopped = true;
  const down = await serverCheck();
  assert.equal(down.status, 'fail');
  assert.match(down.detail, /does not answer \/healthz/);
});
