// `peri-hooks fire <Event>`: read one hook input, run the matching hooks, print the reduced decision.
import { EXIT, PeriHooksError, formatError } from '../../errors.ts';
import { checkEvent, fire, type FireOptions } from '../../fire.ts';
import { renderClaude } from '../../report/claude.ts';
import { renderDecision } from '../../report/decision.ts';
import { humanSummary } from '../../report/human.ts';
import { renderJson } from '../../report/json.ts';
import type { Rendered } from '../../report/rendered.ts';
import { formatDiagnostic, list, readInput, useColour, write } from '../io.ts';

export interface FireFlags {
  output?: string;
  input?: string;
  settings?: unknown;
  pluginDir?: unknown;
  settingSources?: unknown;
  projectDir?: string;
  managedDir?: string;
  failClosed?: boolean;
  sequential?: boolean;
  stateDir?: string;
  /** cac turns `--no-state` into `state: false`. */
  state?: boolean;
}

const OUTPUTS = ['decision', 'claude', 'json'] as const;
const INTERRUPTS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SOURCES = ['managed', 'user', 'project', 'local'] as const;
type Source = (typeof SOURCES)[number];

export async function fireCommand(eventName: string, flags: FireFlags): Promise<number> {
  const output = flags.output ?? 'decision';
  try {
    if (!OUTPUTS.includes(output as (typeof OUTPUTS)[number])) {
      throw new PeriHooksError('usage', `unknown --output "${output}"`, `use one of: ${OUTPUTS.join(', ')}`);
    }
    const event = checkEvent(eventName);
    const { text } = await readInput(flags.input);
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    // Hooks are killed with their process group on these (the command runner's exit hook covers normal exits).
    for (const signal of INTERRUPTS) process.once(signal, interrupt);
    const colour = useColour(process.stderr);
    const options: FireOptions = {
      signal: controller.signal,
      ...(flags.failClosed ? { failClosed: true } : {}),
      ...(flags.sequential ? { sequential: true } : {}),
      ...(flags.state === false ? { noState: true } : {}),
      ...(flags.stateDir ? { stateDir: String(flags.stateDir) } : {}),
      selfCommand: await selfCommand(),
      ...(flags.projectDir ? { projectDir: flags.projectDir } : {}),
      ...(flags.managedDir ? { managedDir: flags.managedDir } : {}),
      ...optional('settings', list(flags.settings)),
      ...optional('pluginDirs', list(flags.pluginDir)),
      ...optional('settingSources', parseSources(flags.settingSources)),
      ...(process.stderr.isTTY && output !== 'claude' ? { onHookStart: (_hook, status) => { process.stderr.write(`${colour ? '\u001b[2m' : ''}> ${status}${colour ? '\u001b[22m' : ''}\n`); } } : {}),
    };
    const report = await fire(event, text, options);
    for (const signal of INTERRUPTS) process.off(signal, interrupt);
    if (controller.signal.aborted) return EXIT.runnerError;
    const rendered: Rendered = output === 'claude' ? renderClaude(report) : output === 'json' ? renderJson(report) : renderDecision(report);
    // In claude mode stderr is the block message Claude Code reads; nothing else may go there.
    const notes = output === 'claude' ? '' : report.warnings.map((warning) => `${formatDiagnostic(warning)}\n`).join('');
    const summary = process.stderr.isTTY && output !== 'claude' ? humanSummary(report, colour) : '';
    await write(process.stdout, rendered.stdout);
    await write(process.stderr, notes + rendered.stderr + summary);
    return rendered.exitCode;
  } catch (error) {
    const failClosed = flags.failClosed === true;
    await write(process.stderr, `${formatError(error)}\n${failClosed ? 'peri-hooks: blocking because of --fail-closed\n' : ''}`);
    return failClosed ? EXIT.block : EXIT.runnerError;
  }
}

/** How to start this peri-hooks again, for the supervisor of async hooks: the single executable, or node and the script. */
async function selfCommand(): Promise<string[]> {
  const sea = await import('node:sea').then((module) => module.isSea(), () => false);
  return sea ? [process.execPath] : [process.execPath, ...process.execArgv, process.argv[1]!];
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

/** `--setting-sources managed,user,project,local`; an empty value (or `none`) loads only --settings and plugins. */
function parseSources(value: unknown): Source[] | undefined {
  const values = list(value);
  if (values === undefined) return undefined;
  const names = values.flatMap((item) => item.split(',')).map((item) => item.trim()).filter((item) => item !== '' && item !== 'none');
  for (const name of names) {
    if (!SOURCES.includes(name as Source)) {
      throw new PeriHooksError('usage', `unknown setting source "${name}" in --setting-sources`, `use a comma-separated subset of ${SOURCES.join(',')}, or '' for none`);
    }
  }
  return names as Source[];
}
