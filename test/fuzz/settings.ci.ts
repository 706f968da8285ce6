// Seeded settings-file fuzzer (issue 13, "Tests and figures"). A repository's .claude/settings.json is written
// by whoever wrote the repository, so every fuzzed file sits beside a managed policy that denies Bash, and
// whatever the file holds: the loader returns diagnostics instead of throwing, nothing is an internal error, the
// managed deny still loads and is planned, and (for the CLI sample) it still blocks.
// PERI_HOOKS_FUZZ_SEED replays or varies a run; a failure names its seed, file number and family.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type LoadOptions, loadSettings } from '../../src/config/index.ts';
import { isUrlAllowed } from '../../src/net/url-allowlist.ts';
import { plan } from '../../src/plan.ts';
import { validate } from '../../src/validate/index.ts';
import { makeProject, type Project, runCli } from '../helpers/cli.ts';
import { HOSTILE_FILES, MANAGED_DENY } from '../helpers/hostile-settings.ts';
import { prng, type Random } from '../helpers/prng.ts';

const SEED = Number(process.env.PERI_HOOKS_FUZZ_SEED ?? 20_260_513);
const FILES = 1000;
/** Files of each family that also go through the built CLI. */
const CLI_PER_FAMILY = 1;
/** Generous: a file costs milliseconds; only a matcher that needs V8's backtracking engine may take its 1 s budget. */
const FILE_TIME_BOUND_MS = 15_000;

const EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PreSkillShellCommand',
  'PostToolUse',
  'Stop',
  'SessionStart',
  'preToolUse',
  'NoSuchEvent',
  '__proto__',
  'constructor',
  '',
];
const TOOLS = [
  'Bash',
  'Read',
  'Edit',
  'Write',
  'Glob',
  'Grep',
  'PowerShell',
  'Monitor',
  'WebFetch',
  'Agent',
  'Task',
  'mcp__s__t',
  'Bash ',
  'B*sh',
  '',
];
// Harmless on purpose: the CLI sample runs the fuzzed hooks.
const COMMANDS = ['true', 'echo fuzz', 'exit 1', 'sleep 0', ''];
const URLS = ['http://127.0.0.1:9/hook', 'https://127.0.0.1:9/', 'not a url', 'http://user:pass@127.0.0.1:9/'];
const REGEX_TOKENS = [
  '(',
  ')',
  '|',
  '*',
  '+',
  '?',
  '\\',
  '[',
  ']',
  '{2,}',
  '{99999}',
  '(?=',
  '(?!',
  '(?<=',
  '\\1',
  '\\k<n>',
  '(?<n>',
  '.',
  '.*',
  'a',
  'Bash',
  '^',
  '$',
  '\\w',
  '\\b',
  'Edit',
  ',',
];
const RULE_TOKENS = [
  '*',
  '*',
  '\\*',
  '\\',
  '(',
  ')',
  ' ',
  ':*',
  'git',
  'push',
  '--force',
  '/',
  '~/',
  '//',
  '**',
  '.',
  'a',
  'é',
  '\n',
];
const JSON_NOISE = [
  '[',
  ']',
  '{',
  '}',
  '"',
  ',',
  ':',
  '\\',
  '\u0000',
  '\ud800',
  '\ufeff',
  '/*',
  '//',
  '\n',
  'null',
  '1e999',
  '-',
  'tru',
];

const text = (random: Random, tokens: readonly string[], max: number) =>
  Array.from({ length: random.int(max) + 1 }, () => random.pick(tokens)).join('');
const depth = (random: Random) => random.pick([2, 50, 127, 128, 129, 300, 5000, 20_000, 60_000]);
const nested = (random: Random, levels: number, inner = '1') => {
  const openers = Array.from({ length: levels }, () => (random.chance(0.5) ? '[' : '{"k":'));
  return `${openers.join('')}${inner}${openers
    .reverse()
    .map((opener) => (opener === '[' ? ']' : '}'))
    .join('')}`;
};

/** A JSON value of any shape, small. */
function anyValue(random: Random, budget = 4): unknown {
  const kind = random.int(budget <= 0 ? 5 : 8);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.pick([0, -1, 1.5, 1e21, 30_000, Number.MAX_SAFE_INTEGER]);
    case 3:
      return random.pick(['', 'x', ...COMMANDS, ...TOOLS, ...EVENTS]);
    case 4:
      return text(random, JSON_NOISE, 8);
    case 5:
      return Array.from({ length: random.int(4) }, () => anyValue(random, budget - 1));
    default:
      return Object.fromEntries(
        Array.from({ length: random.int(4) }, () => [
          random.pick([...EVENTS, 'hooks', 'type', 'matcher', 'if', 'command']),
          anyValue(random, budget - 1),
        ]),
      );
  }
}

function handler(random: Random): Record<string, unknown> {
  const type = random.pick(['command', 'command', 'command', 'http', 'mcp_tool', 'prompt', 'agent', 'comand', '']);
  const base: Record<string, unknown> = { type };
  if (type === 'command' || random.chance(0.1)) base.command = random.pick(COMMANDS);
  if (type === 'http') base.url = random.pick(URLS);
  if (type === 'mcp_tool')
    Object.assign(base, {
      server: 's',
      tool: 't',
      input: random.chance(0.5) ? { a: anyValue(random) } : anyValue(random),
    });
  if (type === 'prompt' || type === 'agent') base.prompt = 'check $ARGUMENTS';
  if (random.chance(0.3)) base.if = `${random.pick(TOOLS)}(${text(random, RULE_TOKENS, 12)})`;
  if (random.chance(0.2)) base.timeout = anyValue(random, 0);
  if (random.chance(0.1)) base.onFailure = random.pick(['block', 'continue', 7]);
  if (random.chance(0.1)) base.async = anyValue(random, 0);
  if (random.chance(0.1))
    base[random.pick(['once', 'statusMessage', 'status_message', 'shell', 'args', 'headers'])] = anyValue(random, 1);
  return base;
}

function settings(random: Random): Record<string, unknown> {
  const groups = () =>
    Array.from({ length: random.int(3) + 1 }, () => ({
      ...(random.chance(0.7)
        ? { matcher: random.chance(0.5) ? random.pick(TOOLS) : text(random, REGEX_TOKENS, 10) }
        : {}),
      hooks: Array.from({ length: random.int(3) + 1 }, () => handler(random)),
      ...(random.chance(0.1) ? { sequential: anyValue(random, 0) } : {}),
    }));
  return {
    hooks: Object.fromEntries(Array.from({ length: random.int(3) + 1 }, () => [random.pick(EVENTS), groups()])),
  };
}

/** Each family of issue 13 item 5, with the sizes varied, and the broader shapes around them. */
const FAMILIES: Readonly<Record<string, (random: Random) => string>> = {
  'deep valid JSON': (random) =>
    `{"x":${nested(random, depth(random))},"hooks":${JSON.stringify(settings(random).hooks)}}`,
  'deep unclosed JSON': (random) =>
    `{"hooks":{"PreToolUse":${'[{"hooks":'.repeat(depth(random))}${text(random, JSON_NOISE, 4)}`,
  'huge or odd matcher regex': (random) => {
    const n = random.pick([10, 1000, 30_000]);
    const matcher = random.pick([
      `${'('.repeat(n)}${')'.repeat(n)}`,
      `${'(?:a|a)*'.repeat(random.int(50) + 1)}$`,
      `(?=B)${'.*'.repeat(random.int(20))}Z`,
      text(random, REGEX_TOKENS, 40),
    ]);
    return JSON.stringify({ hooks: { PreToolUse: [{ matcher, hooks: [handler(random)] }] } });
  },
  'if rule with many stars': (random) => {
    const stars = '*'.repeat(random.pick([1, 100, 100_000]));
    const rule = `${random.pick(TOOLS)}(${random.pick([stars, `${stars}a${stars}`, `${'*a'.repeat(random.int(5000))}*b`, text(random, RULE_TOKENS, 200)])})`;
    return JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', if: rule }] }] },
    });
  },
  'deep mcp_tool input': (random) =>
    `{"hooks":{"PreToolUse":[{"hooks":[{"type":"mcp_tool","server":"s","tool":"t","input":{"a":${nested(random, depth(random))}}}]}]}}`,
  'any structure': (random) =>
    JSON.stringify(
      random.chance(0.5)
        ? anyValue(random, 6)
        : {
            hooks: anyValue(random, 6),
            [random.pick(['disableAllHooks', 'allowManagedHooksOnly', 'enabledPlugins'])]: anyValue(random, 2),
          },
    ),
  'mutated text': (random) => {
    let mutated = JSON.stringify(settings(random), null, random.pick([0, 2]));
    for (let i = random.int(4) + 1; i > 0; i--) {
      const at = random.int(mutated.length + 1);
      mutated = random.chance(0.3)
        ? mutated.slice(0, at)
        : `${mutated.slice(0, at)}${text(random, JSON_NOISE, 3)}${mutated.slice(at)}`;
    }
    return mutated;
  },
  'url allowlist globs': (random) =>
    JSON.stringify({
      ...settings(random),
      allowedHttpHookUrls: Array.from({ length: random.int(4) }, () =>
        random.pick([
          '*',
          `https://*${'a*'.repeat(random.int(3000))}b`,
          `${'*'.repeat(random.int(100_000))}x`,
          text(random, ['*', 'a', ':', '/', '[', '.', 'http', '@'], 30),
        ]),
      ),
    }),
  'huge keys and strings': (random) => {
    const huge = (char: string) => char.repeat(random.chance(0.05) ? 1_000_000 : random.pick([1000, 50_000]));
    const at = random.int(4);
    return JSON.stringify({
      hooks: {
        [at === 0 ? huge('X') : 'PreToolUse']: [
          {
            matcher: at === 1 ? huge('M') : 'Bash',
            hooks: [
              {
                type: 'command',
                command: at === 2 ? huge('c') : 'true',
                ...(at === 3 ? { if: `Bash(${huge('a*')})` } : {}),
              },
            ],
          },
        ],
      },
    });
  },
  'item 5 files': (random) => random.pick(Object.values(HOSTILE_FILES)),
};

const CALL = (random: Random) => ({
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  cwd: '/w',
  session_id: 's',
  transcript_path: '/t',
  tool_input: {
    command: random.pick(['rm -rf /', `git commit -m "${'git push --force; '.repeat(800)}"`, 'a'.repeat(2000)]),
  },
});

let root: string;
let projects: Project[];
before(() => {
  root = mkdtempSync(path.join(tmpdir(), 'peri-fuzz-'));
  for (const folder of ['home', 'project/.claude', 'managed']) mkdirSync(path.join(root, folder), { recursive: true });
  writeFileSync(path.join(root, 'managed/managed-settings.json'), JSON.stringify(MANAGED_DENY));
  projects = [makeProject(), makeProject()];
  for (const project of projects) project.writeManaged('managed-settings.json', MANAGED_DENY);
});
after(() => {
  rmSync(root, { recursive: true, force: true });
  for (const project of projects) project.cleanup();
});

test(`${FILES} fuzzed project files (seed ${SEED}): diagnostics, never a throw; the managed deny always loads, plans and blocks`, {
  timeout: 300_000,
}, async () => {
  const random = prng(SEED);
  const families = Object.keys(FAMILIES);
  const options: LoadOptions = {
    projectDir: path.join(root, 'project'),
    home: path.join(root, 'home'),
    managedDir: path.join(root, 'managed'),
    env: {},
  };
  const sample: Array<{ index: number; family: string; text: string }> = [];
  const started = performance.now();
  for (let index = 0; index < FILES; index++) {
    const family = families[index % families.length]!;
    const file = FAMILIES[family]!(random);
    const where = `seed ${SEED}, file ${index} (${family}): replay with PERI_HOOKS_FUZZ_SEED=${SEED}; file starts ${JSON.stringify(file.slice(0, 200))}`;
    writeFileSync(path.join(root, 'project/.claude/settings.json'), file);
    const fileStarted = performance.now();
    try {
      const loaded = await loadSettings(options);
      assert.ok(
        loaded.diagnostics.every((d) => typeof d.code === 'string' && typeof d.message === 'string'),
        'every diagnostic has a code and a message',
      );
      assert.equal(
        loaded.sources.find((source) => source.layer === 'managed')?.status,
        'loaded',
        'the managed file loads',
      );
      const planned = plan('PreToolUse', CALL(random), loaded.hooks, { home: options.home, env: {} });
      assert.ok(
        planned.run.some((run) => run.hook.provenance.layer === 'managed'),
        'the managed deny is planned',
      );
      // Run for its time and for exceptions; its answers are the allowlist table's business.
      isUrlAllowed(
        new URL(`https://${'a'.repeat(random.int(3000))}.example/${'a'.repeat(random.int(3000))}`),
        loaded.settings.allowedHttpHookUrls,
      );
      if (index % 10 === 0) await validate(options);
    } catch (error) {
      assert.fail(`${where}\n${(error as Error).stack}`);
    }
    const took = performance.now() - fileStarted;
    assert.ok(took < FILE_TIME_BOUND_MS, `${where}: took ${Math.round(took)} ms`);
    if (sample.filter((s) => s.family === family).length < CLI_PER_FAMILY) sample.push({ index, family, text: file });
  }
  const inProcessMs = Math.round(performance.now() - started);

  // Two firings at a time, each in its own project (one per core).
  for (let at = 0; at < sample.length; at += 2) {
    await Promise.all(
      sample.slice(at, at + 2).map(async ({ index, family, text: file }, lane) => {
        const project = projects[lane]!;
        project.write('.claude/settings.json', file);
        const fired = await runCli(['fire', 'PreToolUse'], {
          stdin: project.input('PreToolUse.tool_name-Bash'),
          env: project.env(),
        });
        const where = `seed ${SEED}, file ${index} (${family}) through the CLI: exit ${fired.code}\n${fired.stderr.slice(0, 1000)}`;
        assert.equal(fired.code, 2, where);
        assert.match(fired.stderr, /managed policy: no Bash/, where);
        assert.doesNotMatch(fired.stderr, /internal error/, where);
      }),
    );
  }
  console.log(
    `fuzz: ${FILES} settings files in process in ${inProcessMs} ms, ${sample.length} through the CLI in ${Math.round(performance.now() - started) - inProcessMs} ms, seed ${SEED}`,
  );
});
