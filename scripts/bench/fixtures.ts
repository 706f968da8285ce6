// The bench's throw-away world: a project with its own HOME and managed folder, and the settings trees
// and case files the scenarios fire against.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildSync } from 'esbuild';

export interface World {
  base: string;
  project: string;
  env: Record<string, string>;
  /** A real Claude Code 2.1.332 PreToolUse(Bash) input with cwd in the project. */
  input: string;
  write(path: string, content: string | object): string;
}

export function makeWorld(root: string): World {
  const base = mkdtempSync(join(tmpdir(), 'peri-hooks-bench-'));
  const project = join(base, 'project');
  const write = (path: string, content: string | object) => {
    const file = join(base, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    if (file.endsWith('.sh')) chmodSync(file, 0o755);
    return file;
  };
  mkdirSync(project, { recursive: true });
  mkdirSync(join(base, 'home'), { recursive: true });
  mkdirSync(join(base, 'managed'), { recursive: true });
  const fixture = JSON.parse(
    readFileSync(join(root, 'fixtures/claude-code-2.1.332/inputs/PreToolUse.tool_name-Bash.json'), 'utf8'),
  );
  return {
    base,
    project,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: join(base, 'home'),
      PERI_HOOKS_MANAGED_DIR: join(base, 'managed'),
    },
    input: JSON.stringify({ ...fixture, cwd: project }),
    write,
  };
}

const command = (text: string) => ({ type: 'command', command: text });

/** One matcher group per event-tool pair; `matching` groups match Bash, the rest name other tools. */
export function settings(groups: number, hook: (index: number) => string, matching = false, prefix = ''): object {
  const PreToolUse = Array.from({ length: groups }, (_, index) => ({
    matcher: matching ? 'Bash' : `${prefix}Tool${index}|mcp__${prefix}server${index}__.*`,
    hooks: [command(hook(index))],
  }));
  return { hooks: { PreToolUse } };
}

/**
 * Scenario 4: 1,000 matcher groups across the five settings sources (user, project, local, managed, flag)
 * and ten plugins, none matching, so that the firing measures loading and planning only.
 * Returns the extra CLI arguments (the flag settings file and the plugin folders).
 */
export function largeTree(world: World): string[] {
  const perSource = 150;
  const perPlugin = 25;
  const hook = (name: string) => (index: number) => `echo ${name}-${index}`;
  world.write('home/.claude/settings.json', settings(perSource, hook('user'), false, 'User'));
  world.write('project/.claude/settings.json', settings(perSource, hook('project'), false, 'Project'));
  world.write('project/.claude/settings.local.json', settings(perSource, hook('local'), false, 'Local'));
  world.write('managed/managed-settings.json', settings(perSource, hook('managed'), false, 'Managed'));
  const flag = world.write('flag-settings.json', settings(perSource, hook('flag'), false, 'Flag'));
  const args = ['--settings', flag];
  for (let plugin = 0; plugin < 10; plugin++) {
    const folder = `plugins/p${plugin}`;
    world.write(`${folder}/.claude-plugin/plugin.json`, { name: `bench-plugin-${plugin}`, version: '1.0.0' });
    world.write(`${folder}/hooks/hooks.json`, settings(perPlugin, hook(`plugin${plugin}`), false, `P${plugin}`));
    args.push('--plugin-dir', join(world.base, folder));
  }
  return args;
}

/**
 * What any Node design pays to start a hook: one `node` process per core, each starting its share of the runs
 * of the script with three pipes (the input on stdin) and nothing else, in a new process group as hooks are.
 */
const NODE_SPAWNER =
  "const { spawn } = require('node:child_process'); const input = require('node:fs').readFileSync(process.argv[2]); let left = Number(process.argv[3]);" +
  " const next = () => { if (left-- <= 0) return; const child = spawn(process.argv[1], [], { detached: true, stdio: 'pipe' }); child.stdout.resume(); child.stderr.resume(); child.stdin.end(input); child.on('close', next); }; next();";

/**
 * Scenario 5: a hook script, 500 cases for `peri-hooks test`, the bash loop that runs the script 500 times, and
 * the same runs started by `processes` bare Node processes (the floor of a design that starts hooks from Node).
 */
export function testCases(
  world: World,
  count: number,
  node: string,
  processes: number,
): { caseFile: string; bashLoop: string; nodeSpawners: string; script: string; inputFile: string } {
  const script = world.write(
    'hooks/no-rm.sh',
    `#!/bin/sh\ninput=$(cat)\ncase "$input" in *'rm -rf'*) echo "no rm -rf" >&2; exit 2;; esac\nexit 0\n`,
  );
  const cases = Array.from({ length: count }, (_, index) =>
    index % 2
      ? { name: `ls ${index}`, tool: 'Bash', toolInput: { command: `ls ${index}` }, expect: { decision: 'none' } }
      : {
          name: `rm ${index}`,
          tool: 'Bash',
          toolInput: { command: `rm -rf /tmp/x${index}` },
          expect: { decision: 'deny' },
        },
  );
  const caseFile = world.write('project/bench.hooks.test.json', {
    settings: { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [command(script)] }] } },
    cases,
  });
  const inputFile = world.write('input.json', world.input);
  const share = Math.ceil(count / processes);
  const spawner = `${node} -e "${NODE_SPAWNER}" ${script} ${inputFile} ${share}`;
  return {
    caseFile,
    bashLoop: `for i in $(seq ${count}); do ${script} < ${inputFile} >/dev/null 2>&1; done`,
    nodeSpawners: `${Array.from({ length: processes }, () => `${spawner} &`).join(' ')} wait`,
    script,
    inputFile,
  };
}

/**
 * scripts/bench/relay.ts (the spawner helper's own floors) bundled into the world, once: run as the sources, Node
 * would strip its types at each start, which the products under test (the bundle, the SEA) do not pay.
 */
export function relayEntry(world: World): string {
  const outfile = join(world.base, 'relay.mjs');
  if (!existsSync(outfile)) {
    buildSync({
      entryPoints: [new URL('relay.ts', import.meta.url).pathname],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile,
      logLevel: 'warning',
    });
  }
  return outfile;
}
