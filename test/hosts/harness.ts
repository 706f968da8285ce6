// Host tests: a temporary project with a policy of real command hooks, and the CLI fired as the host would
// fire it, with the host's own payload samples (fixtures/hosts/<host>/, their paths moved into the project).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { type CliResult, makeProject, type Project, ROOT, runCli } from '../helpers/cli.ts';

/** The project folder every fixture names; the tests move it into their temporary project. */
const FIXTURE_PROJECT = '/home/user/project';

export interface HookAnswer {
  stdout?: string | object;
  stderr?: string;
  exit?: number;
}

export interface HostBench {
  project: Project;
  /** A command hook that records the input it saw (one JSON line per call) and answers as told. */
  hook(name: string, answer?: HookAnswer): string;
  /** What a hook saw, one input per call. */
  seen(name: string): Array<Record<string, unknown>>;
  /** The policy file with these groups per Claude Code event. */
  policy(groups: Record<string, Array<{ matcher?: string; hooks: Array<string | object> }>>): string;
  payload(host: string, fixture: string, overrides?: Record<string, unknown>): string;
  fire(
    host: string,
    event: string | undefined,
    stdin: string,
    args?: string[],
    env?: Record<string, string>,
  ): Promise<CliResult>;
  cleanup(): void;
}

export function hostBench(): HostBench {
  const project = makeProject();
  let policyFile = '';
  return {
    project,
    hook(name, answer = {}) {
      const stdout = typeof answer.stdout === 'object' ? JSON.stringify(answer.stdout) : (answer.stdout ?? '');
      return project.write(
        `hooks/${name}.sh`,
        `#!/bin/sh\ncat >> ${project.dir}/seen-${name}.jsonl\necho >> ${project.dir}/seen-${name}.jsonl\nprintf '%s' '${stdout.replace(/'/g, `'\\''`)}'\nprintf '%s' '${(answer.stderr ?? '').replace(/'/g, `'\\''`)}' >&2\nexit ${answer.exit ?? 0}\n`,
      );
    },
    seen(name) {
      const file = join(project.dir, `seen-${name}.jsonl`);
      if (!existsSync(file)) return [];
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    policy(groups) {
      policyFile = project.write('policy.json', {
        hooks: Object.fromEntries(
          Object.entries(groups).map(([event, list]) => [
            event,
            list.map(({ matcher, hooks }) => ({
              ...(matcher !== undefined ? { matcher } : {}),
              hooks: hooks.map((command) => (typeof command === 'string' ? { type: 'command', command } : command)),
            })),
          ]),
        ),
      });
      return policyFile;
    },
    payload(host, fixture, overrides = {}) {
      const text = readFileSync(join(ROOT, 'fixtures/hosts', host, `${fixture}.json`), 'utf8').replaceAll(
        FIXTURE_PROJECT,
        project.dir,
      );
      return JSON.stringify({ ...JSON.parse(text), ...overrides });
    },
    fire(host, event, stdin, args = [], env = {}) {
      return runCli(
        [
          'fire',
          ...(host === '' ? [] : ['--host', host]),
          ...(event === undefined ? [] : [event]),
          '--settings',
          policyFile,
          '--setting-sources',
          'none',
          '--no-state',
          ...args,
        ],
        { stdin, env: { ...project.env(), ...env }, cwd: project.dir },
      );
    },
    cleanup: () => project.cleanup(),
  };
}

/** stdout as JSON, or undefined when empty. */
export function json(result: CliResult): unknown {
  return result.stdout.trim() === '' ? undefined : JSON.parse(result.stdout);
}

/** A bench for the test file: made before its tests, removed after them. */
export function useBench(): () => HostBench {
  let bench: HostBench | undefined;
  before(() => {
    bench = hostBench();
  });
  after(() => bench?.cleanup());
  return () => bench!;
}

/** A hook answer with PreToolUse's hookSpecificOutput. */
export function preToolUse(fields: Record<string, unknown>): HookAnswer {
  return { stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } } };
}
