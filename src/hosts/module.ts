// What a host module provides beyond its table row: the payload's calls, when one default call is not right,
// and the answer in the host's own form.

import type { Payload } from './normalise.ts';
import type { HostDef } from './table.ts';
import type { ClaudeCall, HostAnswer, HostEventDef, Verdict } from './types.ts';

export interface HostContext {
  host: HostDef;
  hostEvent: string;
  def: HostEventDef;
  payload: Payload;
  /** The firing's environment (an agent's config locations: opencode's XDG_CONFIG_HOME, HOME, …). */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface RenderContext extends HostContext {
  verdict: Verdict;
  /** The host's own name of the tool, on tool events. */
  hostTool?: string;
}

export interface HostModule {
  /** The Claude Code calls of the payload; without it, one call built by the table. */
  calls?(context: HostContext): ClaudeCall[];
  render(context: RenderContext): HostAnswer;
  /** Where the host can stop the agent (`continue: false`); elsewhere a stop becomes a block, or unsupported. */
  stops?(def: HostEventDef, hostEvent: string): boolean;
  /** Where the host asks only interactively (`asks: 'interactive'`): why it cannot ask now (the ask is then a deny), else undefined. */
  cannotAsk?(def: HostEventDef, hostEvent: string): string | undefined;
}

/** An answer: JSON on stdout (none when undefined), a message on stderr, an exit code. */
export function answer(json: Record<string, unknown> | undefined, exitCode = 0, stderr?: string): HostAnswer {
  return {
    stdout: json === undefined ? '' : `${JSON.stringify(json)}\n`,
    stderr: stderr ? `${stderr}\n` : '',
    exitCode,
  };
}

/** The block message, or the words for a block without one. */
export function reasonOf(verdict: Verdict): string {
  return verdict.reason ?? verdict.stop?.reason ?? 'Blocked by a peri-hooks policy hook';
}
