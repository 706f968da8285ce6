// One audit entry: what a firing decided and which hook decided it, with each hook's provenance, and nothing
// secret (src/redact.ts). The log (log.ts) adds the chain fields.
import type { HookInput } from '../input/parse.ts';
import { VERSION } from '../platform/version.ts';
import { redactText, secretsOf } from '../redact.ts';
import type { FireReport } from '../report/types.ts';
import type { LoadedHook } from '../types.ts';

/** Longest text an entry keeps of one field: an entry must stay a line a reader (and verify) can take whole. */
const MAX_TEXT = 2000;
/** Longest text a trace line shows of the call or the reason. */
const TRACE_TEXT = 200;

export interface AuditHook {
  layer: string;
  file: string;
  pointer: string;
  matcher?: string;
  if?: string;
  type: string;
  label: string;
  status: 'ran' | 'skipped';
  skipReason?: string;
  outcome?: string;
  exitCode?: number | null;
  timedOut?: boolean;
  durationMs?: number;
  decided?: true;
}

export interface AuditEntry {
  v: 1;
  time: string;
  version: string;
  host: string;
  session: string;
  event: string;
  cwd: string;
  tool?: string;
  /** The call in a few words: the command, the file, the URL or the prompt, redacted. */
  summary?: string;
  decision: 'block' | 'deny' | 'ask' | 'allow' | 'none';
  reason?: string;
  failClosed?: true;
  durationMs: number;
  hooks: AuditHook[];
}

const cut = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

/** `loaded` are the firing's loaded hooks, for what the report does not carry (`if`). */
export function auditEntry(
  report: FireReport,
  input: HookInput,
  loaded: readonly LoadedHook[],
  env: Record<string, string | undefined>,
  durationMs: number,
  time: string,
): AuditEntry {
  const secrets = secretsOf(env);
  const clean = (text: string) => cut(redactText(text, secrets));
  const host = (input.peri_hooks_host as { name?: string } | undefined)?.name ?? 'claude';
  const tool = typeof input.tool_name === 'string' ? input.tool_name : undefined;
  const summary = summaryOf(input);
  const deciders = new Set(report.deciders);
  const conditions = new Map(
    loaded.flatMap((hook) => (hook.handler.if === undefined ? [] : [[hook.id, hook.handler.if] as const])),
  );
  return {
    v: 1,
    time,
    version: VERSION,
    host,
    session: input.session_id,
    event: report.event,
    cwd: input.cwd,
    ...(tool !== undefined ? { tool } : {}),
    ...(summary !== undefined ? { summary: clean(summary) } : {}),
    decision: decisionOf(report),
    ...(report.reason !== undefined ? { reason: clean(report.reason) } : {}),
    ...(report.failClosed ? { failClosed: true as const } : {}),
    durationMs: Math.round(durationMs),
    hooks: report.hooks.map((hook) => ({
      layer: hook.layer,
      file: hook.file,
      pointer: hook.pointer,
      ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
      ...(conditions.has(hook.id) ? { if: conditions.get(hook.id)! } : {}),
      type: hook.type,
      label: clean(hook.label),
      status: hook.status,
      ...(hook.skipReason !== undefined ? { skipReason: hook.skipReason } : {}),
      ...(hook.outcome !== undefined ? { outcome: hook.outcome } : {}),
      ...(hook.exitCode !== undefined ? { exitCode: hook.exitCode } : {}),
      ...(hook.timedOut ? { timedOut: true } : {}),
      ...(hook.durationMs !== undefined ? { durationMs: Math.round(hook.durationMs) } : {}),
      ...(deciders.has(hook.id) ? { decided: true as const } : {}),
    })),
  };
}

/** For the `--verbose` trace: the tool and the call, and a text, each redacted and cut to a line's length. */
export function traced(env: Record<string, string | undefined>): {
  call: (input: HookInput) => string;
  text: (text: string) => string;
  decision: typeof decisionOf;
} {
  const secrets = secretsOf(env);
  const text = (value: string) => {
    const clean = redactText(value, secrets).replace(/\s+/g, ' ');
    return JSON.stringify(clean.length > TRACE_TEXT ? `${clean.slice(0, TRACE_TEXT)}…` : clean);
  };
  return {
    call: (input) => {
      const summary = summaryOf(input);
      const tool = typeof input.tool_name === 'string' ? `tool ${input.tool_name}` : undefined;
      return [tool, summary === undefined ? undefined : text(summary)].filter(Boolean).join(' ');
    },
    text,
    decision: decisionOf,
  };
}

/** What the call was about, in the field the tool acts on. */
function summaryOf(input: HookInput): string | undefined {
  const toolInput = input.tool_input as Record<string, unknown> | undefined;
  for (const value of [
    toolInput?.command,
    toolInput?.file_path,
    toolInput?.url,
    toolInput?.pattern,
    toolInput?.path,
    input.prompt,
  ]) {
    if (typeof value === 'string' && value !== '') return value;
  }
  return toolInput === undefined ? undefined : JSON.stringify(toolInput);
}

export function decisionOf(report: Pick<FireReport, 'output' | 'blocked'>): AuditEntry['decision'] {
  const specific = report.output?.hookSpecificOutput as
    | { permissionDecision?: string; decision?: { behavior?: string } }
    | undefined;
  const permission = specific?.permissionDecision ?? specific?.decision?.behavior;
  if (permission === 'deny' || permission === 'ask' || permission === 'allow') return permission;
  if (report.blocked) return 'block';
  return 'none';
}
