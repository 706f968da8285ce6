// Host tests: a temporary project with a policy of real command hooks, fired as the host would fire it, with the
// host's own payload samples (fixtures/hosts/<host>/, their paths moved into the project). `fire` runs the CLI's
// host firing in process (fireHost, as `fire --host` calls it); `fireCli` runs the CLI as a process, for what only
// a process shows.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { EXIT, formatError } from '../../src/errors.ts';
import { checkHost, hostOf } from '../../src/hosts/detect.ts';
import { fireHost } from '../../src/hosts/fire.ts';
import { makeProject, type Project, ROOT, runCli } from '../helpers/cli.ts';
import { type Answer, fireAnswer } from '../helpers/fire.ts';

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
  /**
   * `fire [--host <host>] [<event>] --settings <policy> --setting-sources none --no-state`, in process, with
   * `--fail-closed`, `--verbose` (the trace goes first on stderr) or `--output claude` (the host's form all the same).
   */
  fire(
    host: string,
    event: string | undefined,
    stdin: string,
    args?: string[],
    env?: Record<string, string>,
  ): Promise<Answer>;
  /** The same as a process, with any other flag. */
  fireCli(
    host: string,
    event: string | undefined,
    stdin: string,
    args?: string[],
    env?: Record<string, string>,
  ): Promise<Answer>;
  cleanup(): void;
}

const IN_PROCESS_FLAGS = ['--fail-closed', '--verbose', '--output', 'claude'];

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
    async fire(host, event, stdin, args = [], env = {}) {
      const unknown = args.filter((arg) => !IN_PROCESS_FLAGS.includes(arg));
      if (unknown.length > 0)
        throw new Error(`bench.fire takes ${IN_PROCESS_FLAGS.join(' ')}; use fireCli for ${unknown}`);
      // The trace file is the CLI's (src/cli/commands/fire.ts).
      if (env.PERI_HOOKS_DEBUG !== undefined) throw new Error('bench.fire has no PERI_HOOKS_DEBUG: use fireCli');
      const failClosed = args.includes('--fail-closed');
      let trace = '';
      const options = {
        ...(args.includes('--verbose')
          ? {
              trace: (stage: string, message: string) => {
                trace += `peri-hooks: trace ${stage}: ${message}\n`;
              },
            }
          : {}),
        settings: [policyFile],
        settingSources: [],
        noState: true,
        env: { ...project.env(), ...env },
        home: project.home,
        managedDir: project.managed,
        ...(failClosed ? { failClosed } : {}),
      };
      // As the CLI's action wrapper answers a failure (src/cli/action.ts).
      const failed = (error: unknown): Answer => ({
        code: failClosed ? EXIT.block : EXIT.runnerError,
        stdout: '',
        stderr: `${trace}${formatError(error)}\n${failClosed ? 'peri-hooks: blocking because of --fail-closed\n' : ''}`,
      });
      try {
        const name = await hostOf(host === '' ? undefined : checkHost(host), stdin);
        if (!name) {
          const answer = await fireAnswer(event!, stdin, args.includes('claude') ? 'claude' : 'decision', options);
          return { ...answer, stderr: trace + answer.stderr };
        }
        const fired = await fireHost({
          host: name,
          ...(event !== undefined ? { event } : {}),
          text: stdin,
          source: 'stdin',
          options,
        });
        return { code: fired.exitCode, stdout: fired.stdout, stderr: trace + fired.stderr };
      } catch (error) {
        return failed(error);
      }
    },
    async fireCli(host, event, stdin, args = [], env = {}) {
      const { code, stdout, stderr } = await runCli(
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
      return { code: code ?? -1, stdout, stderr };
    },
    cleanup: () => project.cleanup(),
  };
}

/** stdout as JSON, or undefined when empty. */
export function json(result: Answer): unknown {
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
