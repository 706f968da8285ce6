// One firing for another agent: its payload → Claude Code calls → the unchanged pipeline (src/fire.ts) → one
// verdict → the host's answer. What the host cannot take is said on stderr as unsupported, never pretended:
// an `ask` it cannot ask becomes a deny (the safe side), a stop it cannot make blocks what it can block.
import { PeriHooksError } from '../errors.ts';
import { fire, type FireOptions } from '../fire.ts';
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
    const calls = module.calls ? module.calls({ host, hostEvent, def, payload }) : [{ event: def.event, input: claudeInput(host, hostEvent, def, payload) }];
    const reports: FireReport[] = [];
    for (const call of calls) reports.push(await fire(call.event, call.input, { ...firing.options, inputSource: `${firing.source} (${host.title} ${hostEvent})` }));
    const notes: string[] = [];
    const verdict = channelled(host, module, hostEvent, def, verdictOf(reports), calls.length, notes);
    const hostTool = field(host, payload, 'tool_name');
    const rendered = module.render({ host, hostEvent, def, payload, verdict, ...(typeof hostTool === 'string' ? { hostTool } : {}) });
    const warnings = reports.flatMap((report) => report.warnings.map((warning) => `${formatDiagnostic(warning)}\n`));
    const errors = verdict.errors.map((error) => `${error}\n`);
    const closed = verdict.failClosed ? ['peri-hooks: blocked because of --fail-closed (a hook failed)\n'] : [];
    return { host: firing.host, reports, stdout: rendered.stdout, stderr: [...new Set(warnings)].join('') + errors.join('') + notes.map((note) => `${note}\n`).join('') + rendered.stderr + closed.join(''), exitCode: rendered.exitCode };
  } catch (error) {
    // Under --fail-closed a payload peri-hooks cannot read blocks, in the host's form, where the event can block.
    const def = hostEvent === undefined ? undefined : host.events[hostEvent];
    if (!firing.options.failClosed || !(error instanceof PeriHooksError) || !def?.blocks || hostEvent === undefined) throw error;
    const reason = `peri-hooks: ${error.message} (blocking because of --fail-closed)`;
    const verdict: Verdict = { event: def.event, permission: 'deny', blocked: true, reason, errors: [], failClosed: true };
    const rendered = module.render({ host, hostEvent, def, payload: payload ?? {}, verdict });
    return { host: firing.host, reports: [], stdout: rendered.stdout, stderr: `${reason}\n${rendered.stderr}`, exitCode: rendered.exitCode };
  }
}

function parsePayload(host: HostDef, hostEvent: string, text: string, source: string): Payload {
  if (text.trim() === '') throw new PeriHooksError('empty-input', `no ${host.title} payload on ${source}`, `pipe the payload ${host.title} gives its hook in: peri-hooks fire --host ${host.name} ${hostEvent} < payload.json`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PeriHooksError('invalid-json', `the ${host.title} payload on ${source} is not valid JSON: ${(error as Error).message}`, `send exactly one JSON object, as ${host.title} writes it to a hook`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(host, hostEvent, '$', 'is not a JSON object');
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
  throw new PeriHooksError('invalid-input', `the ${host.title} payload names no event peri-hooks maps (${where} is ${shown})`, `give the host event after fire --host ${host.name}, one of: ${Object.keys(host.events).join(', ')}`);
}

/** The verdict as the host event can take it; what it cannot take is a note on stderr. */
function channelled(host: HostDef, module: HostModule, hostEvent: string, def: HostEventDef, verdict: Verdict, calls: number, notes: string[]): Verdict {
  const result: Verdict = { ...verdict };
  const unsupported = (what: string, outcome: string) => notes.push(`peri-hooks: unsupported on ${host.title} ${hostEvent}: ${what}; ${outcome}`);
  if (result.stop && !(module.stops?.(def, hostEvent) ?? false)) {
    if (def.blocks) {
      Object.assign(result, { blocked: true, permission: def.event === 'PreToolUse' ? 'deny' : result.permission, reason: result.reason ?? result.stop.reason ?? 'the policy stops the agent' });
      unsupported('stopping the agent (continue: false)', 'this action is blocked instead');
    } else {
      unsupported('stopping the agent (continue: false)', 'the agent goes on');
    }
    delete result.stop;
  }
  if (!result.blocked && result.permission === 'ask' && !def.asks) {
    Object.assign(result, { blocked: def.blocks === true, permission: 'deny', reason: result.reason ?? 'the policy asks for confirmation' });
    unsupported('asking the user (permissionDecision ask)', def.blocks ? 'denied instead, the safe side' : 'the action goes on');
  }
  if (result.blocked && !def.blocks) {
    unsupported(`blocking (${result.reason ?? 'no reason given'})`, 'the action goes on');
    result.blocked = false;
    delete result.permission;
  }
  if (result.updatedInput && (!def.rewrites || calls > 1)) {
    unsupported(calls > 1 ? 'rewriting one call of several (an apply_patch of several files, several edits)' : 'rewriting the tool input (updatedInput)', 'the call goes on unchanged');
    delete result.updatedInput;
  }
  if (result.context !== undefined && !def.context) {
    unsupported('adding model context (additionalContext)', 'the model does not see it');
    delete result.context;
  }
  return result;
}
