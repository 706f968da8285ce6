// `peri-hooks fire <Event>`: read one hook input, run the matching hooks, print the reduced decision.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { otelConfigured } from '../../audit/otel-config.ts';
import { PeriHooksError } from '../../errors.ts';
import { checkEvent } from '../../events.ts';
import { type FireOptions, fire } from '../../fire.ts';
import { checkHost, hostOf } from '../../hosts/detect.ts';
import { ASYNC_KINDS, type AsyncSelection } from '../../plan.ts';
import { isoTime, nowMs } from '../../platform/clock.ts';
import { renderClaude } from '../../report/claude.ts';
import { renderDecision } from '../../report/decision.ts';
import { renderJson } from '../../report/json.ts';
import type { Rendered } from '../../report/rendered.ts';
import { closeStores } from '../../session/store.ts';
import { formatDiagnostic, printable } from '../../text.ts';
import {
  auditOption,
  type ColourChoice,
  interruptedFiring,
  interruptible,
  isTerminal,
  list,
  readInput,
  type SourceFlags,
  type StateFlags,
  sourceOptions,
  stateOptions,
  useColour,
  write,
} from '../io.ts';

export interface FireFlags extends SourceFlags, StateFlags {
  color?: ColourChoice;
  output?: string;
  host?: string;
  input?: string;
  failClosed?: boolean;
  requireTrust?: boolean;
  sequential?: boolean;
  /** `--only-async` alone is true; with a kind, the kind. */
  onlyAsync?: boolean | string;
  skipAsync?: boolean;
  mcpConfig?: unknown;
  verbose?: boolean;
  tool?: string;
  command?: string;
  file?: string;
  inputJson?: string;
}

const OUTPUTS = ['decision', 'claude', 'json'] as const;

export async function fireCommand(eventName: string | undefined, flags: FireFlags): Promise<number> {
  const output = flags.output ?? 'decision';
  if (!OUTPUTS.includes(output as (typeof OUTPUTS)[number])) {
    throw new PeriHooksError('usage', `unknown --output "${output}"`, `use one of: ${OUTPUTS.join(', ')}`);
  }
  const givenHost = flags.host === undefined ? undefined : checkHost(String(flags.host));
  if (givenHost === undefined && eventName !== undefined) checkEvent(eventName);
  const asyncHooks = asyncSelection(flags);
  if (flags.tool !== undefined) eventName ??= 'PreToolUse';
  const { text, source } =
    flags.tool !== undefined
      ? { text: JSON.stringify(await triedInput(checkEvent(eventName!), flags)), source: '--tool' }
      : await readInput(flags.input);
  // Colour and the progress lines are for a terminal only; a piped firing never creates the stderr stream before it writes.
  const onTerminal = isTerminal(2);
  // FORCE_COLOR and --color colour a piped stderr too (the trace); the terminal is asked without creating the stream.
  const colour = useColour({ isTTY: onTerminal }, flags.color);
  const options: FireOptions = {
    inputSource: source,
    ...(flags.failClosed ? { failClosed: true } : {}),
    ...(flags.requireTrust ? { requireTrust: true } : {}),
    ...(flags.sequential ? { sequential: true } : {}),
    // Claude Code caps Stop loops itself: a second cap would end the loop one block early.
    ...(output === 'claude' ? { stopGuard: false } : {}),
    ...stateOptions(flags),
    ...auditOption(flags.audit),
    oneShot: true,
    ...(asyncHooks ? { asyncHooks } : {}),
    selfCommand: selfCommand(),
    ...(flags.mcpConfig !== undefined ? { mcpConfigs: list(flags.mcpConfig)! } : {}),
    ...traceOption(flags.verbose === true, process.env, colour),
    ...sourceOptions(flags),
    ...(onTerminal && output !== 'claude'
      ? {
          onHookStart: (_hook, status) => {
            process.stderr.write(`${colour ? '\u001b[2m' : ''}> ${status}${colour ? '\u001b[22m' : ''}\n`);
          },
        }
      : {}),
  };
  // The one seam for other agents: their payload in, their answer out, the same pipeline between.
  const host = await hostOf(givenHost, text);
  if (host)
    return (await import('./fire-host.ts'))
      .fireHostCommand({
        host,
        ...(eventName !== undefined ? { event: eventName } : {}),
        text,
        source,
        output,
        options,
      })
      .finally(closeStores)
      .finally(flushSpans);
  if (eventName === undefined)
    throw new PeriHooksError(
      'usage',
      'fire needs the event to fire',
      'peri-hooks fire <Event> < input.json, or peri-hooks fire --host <agent> [<its event>] < payload.json',
    );
  const event = checkEvent(eventName);
  // On an interrupt every hook is killed with its process group (the command runner's exit hook covers normal exits).
  // A Redis store's connection would keep the process alive: it is closed once the firing is done.
  const {
    value: report,
    aborted,
    by,
  } = await interruptible((signal) => fire(event, text, { ...options, signal })).finally(closeStores);
  if (aborted) throw interruptedFiring(by);
  const rendered: Rendered =
    output === 'claude'
      ? renderClaude(report, { asyncAnswer: asyncHooks === 'async' })
      : output === 'json'
        ? renderJson(report)
        : renderDecision(report);
  // In claude mode stderr is the block message Claude Code reads; nothing else may go there.
  const notes = output === 'claude' ? '' : report.warnings.map((warning) => `${formatDiagnostic(warning)}\n`).join('');
  // Loaded only on a terminal: picocolors costs start-up that a piped firing never needs.
  const summary =
    onTerminal && output !== 'claude' ? (await import('../../report/human.ts')).humanSummary(report, colour) : '';
  // Nothing to say creates no stream: process.stdout and process.stderr cost a firing milliseconds to set up.
  // On a terminal, what hooks and servers wrote (a reason from an MCP answer, say) cannot drive it: no escape sequences.
  const errorText = (onTerminal ? printable(notes + rendered.stderr) : notes + rendered.stderr) + summary;
  if (rendered.stdout !== '') await write(process.stdout, rendered.stdout);
  if (errorText !== '') await write(process.stderr, errorText);
  await flushSpans();
  return rendered.exitCode;
}

/** The firing's OpenTelemetry spans go out after its decision is written (a server's, as it stops), waited for at most OTEL_FLUSH_MS. */
export async function flushSpans(): Promise<void> {
  if (otelConfigured(process.env)) await (await import('../../audit/otel.ts')).flushTelemetry();
}

/**
 * `--verbose` or PERI_HOOKS_DEBUG: a timestamped line per stage, on stderr, or appended to the file that
 * PERI_HOOKS_DEBUG names (inside Claude Code, whose model reads a blocking hook's stderr).
 */
function traceOption(verbose: boolean, env: NodeJS.ProcessEnv, colour: boolean): Pick<FireOptions, 'trace'> {
  const debug = env.PERI_HOOKS_DEBUG ?? '';
  const toFile = debug.includes('/') ? debug : undefined;
  if (!verbose && (debug === '' || debug === '0' || debug === 'false')) return {};
  const started = nowMs();
  return {
    trace: (stage, message) => {
      const head = `peri-hooks: trace ${isoTime()} +${(nowMs() - started).toFixed(1)} ms`;
      if (toFile) appendFileSync(toFile, `${head} ${stage}: ${message}\n`);
      // Plain escapes (dim head, bold stage): picocolors is not worth its start-up for two styles.
      else
        process.stderr.write(
          colour
            ? `\u001b[2m${head}\u001b[22m \u001b[1m${stage}\u001b[22m: ${message}\n`
            : `${head} ${stage}: ${message}\n`,
        );
    },
  };
}

/** `--skip-async` or `--only-async [kind]`: which of Claude Code's entries for peri-hooks this firing is. */
function asyncSelection(flags: FireFlags): AsyncSelection | undefined {
  if (flags.skipAsync && flags.onlyAsync !== undefined) {
    throw new PeriHooksError(
      'usage',
      '--only-async and --skip-async leave each other nothing to run',
      'give the async entry --only-async and the synchronous entry --skip-async',
    );
  }
  if (flags.skipAsync) return 'skip';
  if (flags.onlyAsync === undefined) return undefined;
  const kind = flags.onlyAsync === true ? 'async' : String(flags.onlyAsync);
  const known = ASYNC_KINDS.find((candidate) => candidate === kind);
  if (!known)
    throw new PeriHooksError(
      'usage',
      `unknown --only-async kind "${kind}"`,
      `use one of: ${ASYNC_KINDS.join(', ')}, after the event (fire <Event> --only-async asyncRewake)`,
    );
  return known;
}

/** How to start this peri-hooks again, for the supervisor of async hooks: the single executable, or node and the script. */
export function selfCommand(): string[] {
  // Synchronous, and loads nothing: process.getBuiltinModule answers undefined where there is no node:sea (Deno).
  const sea = process.getBuiltinModule?.('node:sea')?.isSea() ?? false;
  return sea ? [process.execPath] : [process.execPath, ...process.execArgv, process.argv[1]!];
}

/** `--tool <Name> [--command … | --file … | --input-json …]`: a hook input built for a try by hand, in the current folder. */
async function triedInput(event: ReturnType<typeof checkEvent>, flags: FireFlags): Promise<Record<string, unknown>> {
  const given = [
    flags.command !== undefined && '--command',
    flags.file !== undefined && '--file',
    flags.inputJson !== undefined && '--input-json',
  ].filter((flag) => flag !== false);
  if (given.length > 1)
    throw new PeriHooksError(
      'usage',
      `${given.join(' and ')} each give the whole tool input`,
      'give one of --command, --file, --input-json',
    );
  if (flags.input !== undefined || flags.host !== undefined)
    throw new PeriHooksError(
      'usage',
      '--tool builds the input; --input and --host read one',
      'leave out --input and --host, or --tool',
    );
  const { toolInput } = await import('./explain.ts');
  const input =
    flags.command !== undefined
      ? { command: String(flags.command) }
      : flags.file !== undefined
        ? { file_path: path.resolve(String(flags.file)) }
        : toolInput(flags.inputJson === undefined ? undefined : String(flags.inputJson), '--input-json');
  return (await import('../../explain.ts')).syntheticInput(event, process.cwd(), { name: String(flags.tool), input });
}
