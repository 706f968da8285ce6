// `--output claude`: peri-hooks registered as Claude Code's one hook must act exactly as the hooks it ran
// would have acted if registered directly. Claude Code renders a JSON answer and an exit-code answer
// differently, so the form follows the hook that decided: JSON and exit 0 when it answered in JSON, exit 2
// and stderr when it blocked by exit code, plain text where the event reads plain text.
import { EVENTS } from '../events.ts';
import type { FireReport } from './types.ts';
import { line, type Rendered } from './rendered.ts';

const BLOCK_FIELDS = ['decision', 'reason'];
const SPECIFIC_BLOCK_FIELDS = ['permissionDecision', 'permissionDecisionReason', 'action', 'content'];

export function renderClaude(report: FireReport): Rendered {
  const family = EVENTS[report.event].family;
  const json = (output: Record<string, unknown> | undefined) => (output ? line(JSON.stringify(output)) : '');

  if (family === 'worktree') {
    // Command hooks answer WorktreeCreate with the path as plain text; any non-zero exit fails the creation.
    return report.blocked
      ? { stdout: '', stderr: line(report.reason), exitCode: 1 }
      : { stdout: line(report.plainText), stderr: '', exitCode: 0 };
  }

  if (report.blocked && family !== 'permissionRequest') {
    const decider = report.hooks.find((hook) => hook.id === report.deciders[0]);
    // A JSON answer stops the action without a block of its own too (a PreSkillShellCommand ask).
    if (decider?.answeredInJson) return { stdout: json(report.output), stderr: '', exitCode: 0 };
    // Exit 2: Claude Code still applies the JSON on stdout, so everything but the block itself rides along.
    return { stdout: json(withoutBlock(report.output)), stderr: line(report.reason), exitCode: 2 };
  }

  const exit2Stderr = family === 'observe'
    ? report.hooks.filter((hook) => hook.blockedBy === 'exit2').map((hook) => hook.stderr?.trim() || 'No stderr output')
    : [];
  if (exit2Stderr.length > 0) return { stdout: json(report.output), stderr: exit2Stderr.map(line).join(''), exitCode: 2 };
  const plainContext = plainOnlyContext(report);
  if (plainContext !== undefined) return { stdout: line(plainContext), stderr: '', exitCode: 0 };
  if (report.output) return { stdout: json(report.output), stderr: '', exitCode: 0 };
  if (report.plainText) return { stdout: line(report.plainText), stderr: '', exitCode: 0 };
  // Nothing to say but errors: a non-blocking exit code makes Claude Code show them as a hook error notice.
  if (report.errors.length > 0) return { stdout: '', stderr: report.errors.map(line).join(''), exitCode: 1 };
  return { stdout: '', stderr: '', exitCode: 0 };
}

function withoutBlock(output: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!output) return undefined;
  const rest = Object.fromEntries(Object.entries(output).filter(([key]) => !BLOCK_FIELDS.includes(key)));
  const specific = rest.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific) {
    const kept = Object.fromEntries(Object.entries(specific).filter(([key]) => !SPECIFIC_BLOCK_FIELDS.includes(key)));
    if (Object.keys(kept).length > 1) rest.hookSpecificOutput = kept;
    else delete rest.hookSpecificOutput;
  }
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/**
 * Where every contributing hook printed plain text as context, pass the text on as plain text: Claude Code
 * frames plain stdout ("<Event> hook success: ...") differently from a JSON additionalContext.
 */
function plainOnlyContext(report: FireReport): string | undefined {
  const plainKind = EVENTS[report.event].plainStdout;
  if ((plainKind !== 'context' && plainKind !== 'modelContext') || report.hooks.some((hook) => hook.answeredInJson)) return undefined;
  const output = report.output;
  const specific = output?.hookSpecificOutput as Record<string, unknown> | undefined;
  if (!output || Object.keys(output).length !== 1 || !specific || Object.keys(specific).length !== 2) return undefined;
  return typeof specific.additionalContext === 'string' ? specific.additionalContext : undefined;
}
