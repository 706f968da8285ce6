// `peri-hooks fire` without its process: the same fire() and renderers as src/cli/commands/fire.ts, in this
// process, for the tests of the stages behind the CLI (what a firing decides and how it is rendered). Argv, stdin,
// exit codes as a process sees them, signals and start-up are the e2e tests' (test/e2e/, on the bundle).
import { type FireOptions, fire } from '../../src/fire.ts';
import { renderClaude } from '../../src/report/claude.ts';
import { renderDecision } from '../../src/report/decision.ts';
import { renderJson } from '../../src/report/json.ts';
import { closeStores } from '../../src/session/store.ts';
import { formatDiagnostic } from '../../src/text.ts';
import type { Project } from './cli.ts';

export interface Answer {
  code: number;
  stdout: string;
  stderr: string;
}

export type Output = 'claude' | 'json' | 'decision';

/** What `fire <event> --output <output>` prints and exits with on a pipe, given the input text. */
export async function fireAnswer(
  event: string,
  input: string,
  output: Output,
  options: FireOptions & { asyncAnswer?: boolean } = {},
): Promise<Answer> {
  const { asyncAnswer, ...fireOptions } = options;
  const report = await fire(event, input, {
    // Claude Code caps Stop loops itself (as the CLI under --output claude).
    ...(output === 'claude' ? { stopGuard: false } : {}),
    ...fireOptions,
  }).finally(closeStores);
  const rendered =
    output === 'claude'
      ? renderClaude(report, { asyncAnswer: asyncAnswer === true })
      : output === 'json'
        ? renderJson(report)
        : renderDecision(report);
  const notes = output === 'claude' ? '' : report.warnings.map((warning) => `${formatDiagnostic(warning)}\n`).join('');
  return { code: rendered.exitCode, stdout: rendered.stdout, stderr: notes + rendered.stderr };
}

/** The options the CLI gets in a test project: its HOME, managed folder and environment, `--setting-sources ''`. */
export function projectOptions(project: Project, settings?: object | string): FireOptions {
  return {
    env: project.env(),
    home: project.home,
    managedDir: project.managed,
    ...(settings !== undefined
      ? { settingSources: [], settings: [typeof settings === 'string' ? settings : JSON.stringify(settings)] }
      : {}),
  };
}
