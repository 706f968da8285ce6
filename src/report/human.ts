// On a terminal: a short coloured summary on stderr. stdout carries only the machine-readable result.
import pc from 'picocolors';
import type { FireReport } from './types.ts';

export function humanSummary(report: FireReport, colour: boolean): string {
  const c = pc.createColors(colour);
  const ran = report.hooks.filter((hook) => hook.status === 'ran');
  const target = report.matcherValue !== undefined ? `${report.event}(${report.matcherValue})` : report.event;
  const verdict = report.blocked ? c.red(c.bold('blocked')) : c.green('go on');
  const lines = [
    `${c.bold('peri-hooks')} ${target}: ${ran.length} ran, ${report.hooks.length - ran.length} skipped -> ${verdict}`,
  ];
  for (const hook of ran) {
    const mark = hook.outcome === 'blocking' ? c.red('x') : hook.outcome === 'success' ? c.green('+') : c.yellow('!');
    const exit = hook.timedOut ? 'timed out' : `exit ${hook.exitCode ?? '-'}`;
    lines.push(`  ${mark} ${hook.label} ${c.dim(`(${exit}, ${hook.durationMs ?? 0} ms, ${hook.layer})`)}`);
  }
  for (const warning of report.warnings) lines.push(`  ${c.yellow('warning')} ${warning.message}`);
  return `${lines.join('\n')}\n`;
}
