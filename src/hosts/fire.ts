// One firing for another agent: its payload → Claude Code calls → the unchanged pipeline (src/fire.ts) → one
// verdict → the host's answer. What the host cannot take is said on stderr as unsupported, never pretended:
// an `ask` it cannot ask becomes a deny (the safe side), a stop it cannot make blocks what it can block.
import { PeriHooksError } from '../errors.ts';
import { type FireOptions, fire } from '../fire.ts';
import type { FireReport } from '../report/types.ts';
import { formatDiagnostic } from '../text.ts';
import type { HostModule } from './module.ts';
import { at, claudeInput, field, malformed, type Payload } from './normalise.ts';
import { MODULES } from './registry.ts';
import { HOSTS, type HostDef } from './table.ts';
import type { HostAnswer, HostEventDef, HostName, Verdict } from './types.ts';
import { verdictOf } from './verdict.ts';

export interface HostFiring {
  /** --host; without it, the payload's marker decides. */
  host?: HostName;
  /** The event given on the command line: the host's name for it, or the Claude Code event. */
  event?: string;
  text: string;
  source: string;
  options: FireOptions;
}

export interface HostFired extends HostAnswer {
  host: HostName;
  reports: FireReport[];
  /** peri-hooks' own lines kept off a stderr the host's model reads (HostDef.modelReadsStderr). */
  withheld?: string;
}

export async function fireHost(firing: HostFiring & { host: HostName }): Promise<HostFired> {
  const host = HOSTS[firing.host];
  const module = MODULES[firing.host];
  const named = firing.event;
  let payload: Payload | undefined;
  let hostEvent = named !== undefined && Object.hasOwn(host.events, named) ? named : undefined;
  try {
    payload = parsePayload(host, hostEvent ?? named ?? 'hook', firing.text, firing.source);
    hostEvent = eventOf(host, named, payload);
    const def = host.events[hostEvent]!;
    const calls = module.calls
      ? module.calls({ host, hostEvent, def, payload, ...(firing.options.env ? { env: firing.options.env } : {}) })
      : [{ event: def.event, input: claudeInput(host, hostEvent, def, payload) }];
    // No call: the payload is not one Claude Code fires on (Qwen's continuation prompts), so nothing is decided.
    if (calls.length === 0) return { host: firing.host, reports: [], stdout: '', stderr: '', exitCode: 0 };
    const reports: FireReport[] = [];
    // Where the host refuses the action when its hook fails, a failing policy hook refuses it too.
    const hostCause = def.failsClosed && !firing.options.failClosed ? hostFailsClosed(host, hostEvent) : undefined;
    const closedByHost = hostCause ? { failClosed: true, failClosedCause: hostCause } : {};
    for (const call of calls)
      reports.push(
        await fire(call.event, call.input, {
          ...firing.options,
          ...closedByHost,
          inputSource: `${firing.source} (${host.title} ${hostEvent})`,
        }),
      );
    const notes: string[] = [];
    const cause = hostCause ?? '--fail-closed';
    const reduced = verdictOf(reports);
    // What the host reads of the Claude Code event that fired (Gemini's AfterTool of a failed call is PostToolUseFailure).
    const served: HostEventDef =
      reduced.event === def.event ? def : { event: reduced.event, ...def.also?.[reduced.event] };
    const verdict = withoutFailureDetails(
      channelled(host, module, hostEvent, served, reduced, calls.length, notes),
      cause,
      notes,
    );
    const hostTool = field(host, payload, 'tool_name');
    const rendered = module.render({
      host,
      hostEvent,
      def,
      payload,
      verdict,
      ...(typeof hostTool === 'string' ? { hostTool } : {}),
    });
    const warnings = reports.flatMap((report) => report.warnings.map((warning) => `${formatDiagnostic(warning)}\n`));
    const errors = verdict.errors.map((error) => `${error}\n`);
    const closed = verdict.failClosed ? [`peri-hooks: blocked because of ${cause} (a hook failed)\n`] : [];
    const own = [...new Set(warnings)].join('') + errors.join('') + notes.map((note) => `${note}\n`).join('');
    return answered(
      host,
      firing,
      {
        host: firing.host,
        reports,
        stdout: rendered.stdout,
        stderr: own + rendered.stderr + closed.join(''),
        exitCode: rendered.exitCode,
      },
      own + closed.join(''),
      rendered.stderr,
    );
  } catch (error) {
    // Under --fail-closed a payload peri-hooks cannot read blocks, in the host's form, where the event can block.
    const def = hostEvent === undefined ? undefined : host.events[hostEvent];
    if (!firing.options.failClosed || !(error instanceof PeriHooksError) || !def?.blocks || hostEvent === undefined)
      throw error;
    const reason = `peri-hooks: ${error.message} (blocking because of --fail-closed)`;
    const verdict: Verdict = {
      event: def.event,
      permission: 'deny',
      blocked: true,
      reason,
      errors: [],
      failClosed: true,
    };
    const rendered = module.render({ host, hostEvent, def, payload: payload ?? {}, verdict });
    return answered(
      host,
      firing,
      {
        host: firing.host,
        reports: [],
        stdout: rendered.stdout,
        stderr: `${reason}\n${rendered.stderr}`,
        exitCode: rendered.exitCode,
      },
      `${reason}\n`,
      rendered.stderr,
    );
  }
}

/**
 * Where the host shows the model a blocking hook's stderr (`modelReadsStderr`), a block's stderr is its reason
 * alone: peri-hooks' own lines (`own`: warnings, hook errors, unsupported notes) go to the trace, which
 * --verbose shows and PERI_HOOKS_DEBUG=<file> keeps, and to `withheld`.
 */
function answered(host: HostDef, firing: HostFiring, fired: HostFired, own: string, reason: string): HostFired {
  if (!host.modelReadsStderr || fired.exitCode !== 2 || own === '') return fired;
  for (const line of own.trimEnd().split('\n')) firing.options.trace?.('host', `withheld from the model: ${line}`);
  return { ...fired, stderr: reason, withheld: own };
}

/**
 * A fail-closed block whose reason names what did not load (`peri-hooks: <file …> (blocking because of <cause>)`)
 * gives the agent only that the policy failed: the paths go to stderr with the notes (Copilot keeps that from
 * the model; modelReadsStderr hosts withhold it). Hook failures already read `a policy hook failed (…)` (reduce.ts).
 */
function withoutFailureDetails(verdict: Verdict, cause: string, notes: string[]): Verdict {
  if (!verdict.failClosed || verdict.reason === undefined) return verdict;
  const failure = new RegExp(`^peri-hooks: [\\s\\S]*?${regexpQuoted(`(blocking because of ${cause})`)}$\\n?`, 'gm');
  const failures = verdict.reason.match(failure) ?? [];
  if (failures.length === 0) return verdict;
  notes.push(...failures.map((text) => text.trimEnd()));
  const rest = verdict.reason.replace(failure, '').trim();
  return {
    ...verdict,
    reason: [...(rest === '' ? [] : [rest]), `peri-hooks: a policy hook failed (blocking because of ${cause})`].join(
      '\n',
    ),
  };
}

function regexpQuoted(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The cause named in a block that the host's own failure semantics make. */
function hostFailsClosed(host: HostDef, hostEvent: string): string {
  return `${host.title}, which refuses the action when a ${hostEvent} hook fails`;
}

function parsePayload(host: HostDef, hostEvent: string, text: string, source: string): Payload {
  if (text.trim() === '')
    throw new PeriHooksError(
      'empty-input',
      `no ${host.title} payload on ${source}`,
      `pipe the payload ${host.title} gives its hook in: peri-hooks fire --host ${host.name} ${hostEvent} < payload.json`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PeriHooksError(
      'invalid-json',
      `the ${host.title} payload on ${source} is not valid JSON: ${(error as Error).message}`,
      `send exactly one JSON object, as ${host.title} writes it to a hook`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw malformed(host, hostEvent, '$', 'is not a JSON object');
  return value as Payload;
}

/** The host event: the one named on the command line, else the payload's, else (a Claude Code event name) the host's own for it. */
function eventOf(host: HostDef, named: string | undefined, payload: Payload): string {
  const fromPayload = host.eventField ? at(payload, host.eventField) : undefined;
  for (const candidate of [typeof fromPayload === 'string' ? fromPayload : undefined, named]) {
    if (candidate !== undefined && Object.hasOwn(host.events, candidate)) return candidate;
  }
  const claude = Object.entries(host.events).find(([, def]) => def.install && def.event === named)?.[0];
  if (claude) return claude;
  const where = host.eventField ? `$.${host.eventField}` : 'the command line';
  const shown = typeof fromPayload === 'string' ? `"${fromPayload}"` : named !== undefined ? `"${named}"` : 'nothing';
  throw new PeriHooksError(
    'invalid-input',
    `the ${host.title} payload names no event peri-hooks maps (${where} is ${shown})`,
    `give the host event after fire --host ${host.name}, one of: ${Object.keys(host.events).join(', ')}`,
  );
}

/** Where the model reads the block's stderr, a --fail-closed block names no hook command line (only the report does). */
/** The verdict as the host event can take it; what it cannot take is a note on stderr. */
function channelled(
  host: HostDef,
  module: HostModule,
  hostEvent: string,
  def: HostEventDef,
  verdict: Verdict,
  calls: number,
  notes: string[],
): Verdict {
  const result: Verdict = { ...verdict };
  const unsupported = (what: string, outcome: string) =>
    notes.push(`peri-hooks: unsupported on ${host.title} ${hostEvent}: ${what}; ${outcome}`);
  if (result.stop && !(module.stops?.(def, hostEvent) ?? false)) {
    if (def.blocks) {
      Object.assign(result, {
        blocked: true,
        permission: def.event === 'PreToolUse' ? 'deny' : result.permission,
        reason: result.reason ?? result.stop.reason ?? 'the policy stops the agent',
      });
      unsupported('stopping the agent (continue: false)', 'this action is blocked instead');
    } else {
      unsupported('stopping the agent (continue: false)', 'the agent goes on');
    }
    delete result.stop;
  }
  const cannotAsk = !result.blocked && result.permission === 'ask' ? whyNoAsk(module, def, hostEvent) : undefined;
  if (cannotAsk !== undefined) {
    const reason = result.reason ?? 'the policy asks for confirmation';
    Object.assign(result, {
      blocked: def.blocks === true,
      permission: 'deny',
      reason: cannotAsk ? `${reason} (the policy asks for confirmation; denied because ${cannotAsk})` : reason,
    });
    unsupported(
      `asking the user (permissionDecision ask)${cannotAsk ? ` now: ${cannotAsk}` : ''}`,
      def.blocks ? 'denied instead, the safe side' : 'the action goes on',
    );
  }
  if (result.blocked && !def.blocks) {
    unsupported(`blocking (${result.reason ?? 'no reason given'})`, 'the action goes on');
    result.blocked = false;
    delete result.permission;
  }
  if (result.updatedInput && (!def.rewrites || calls > 1)) {
    // The original call is not what the policy let through: where the event can block, it is refused.
    const what =
      calls > 1
        ? 'rewriting one call of several (an apply_patch of several files, several edits)'
        : 'rewriting the tool input (updatedInput)';
    if (def.blocks && !result.blocked)
      Object.assign(result, {
        blocked: true,
        permission: 'deny',
        reason: `the policy rewrites this call, which ${host.title} cannot apply; it is refused rather than run unchanged${result.reason ? ` (${result.reason})` : ''}`,
      });
    unsupported(what, def.blocks ? 'the call is refused instead, the safe side' : 'the call goes on unchanged');
    delete result.updatedInput;
  }
  if (result.context !== undefined && !def.context) {
    unsupported('adding model context (additionalContext)', 'the model does not see it');
    delete result.context;
  }
  return result;
}

/** Why an ask cannot be asked: '' where the host never asks, the module's reason where it asks only interactively and cannot now; undefined where it can. */
function whyNoAsk(module: HostModule, def: HostEventDef, hostEvent: string): string | undefined {
  if (!def.asks) return '';
  return def.asks === 'interactive' ? module.cannotAsk?.(def, hostEvent) : undefined;
}
