// `peri-hooks explain <Event>`: which hooks would run for this input, and why the others would not.
import path from 'node:path';
import pc from 'picocolors';
import { PROJECT_DIR_RULES, sourcesToLoad } from '../../config/sources.ts';
import { EXIT, PeriHooksError } from '../../errors.ts';
import { checkEvent } from '../../events.ts';
import { type ExplainReport, explain, syntheticInput } from '../../explain.ts';
import { parseInput } from '../../input/parse.ts';
import { explainDocumentSchema } from '../../report/documents.ts';
import { documentText } from '../../report/shape.ts';
import { closeStores } from '../../session/store.ts';
import { formatDiagnostic, sourceCell, table, terminalWidth } from '../../text.ts';
import { trustWords } from '../../trust/check.ts';
import { pointerLocator } from '../../validate/locate.ts';
import {
  type ColourChoice,
  list,
  outputForm,
  readInput,
  type SourceFlags,
  type StateFlags,
  sourceOptions,
  stateOptions,
  useColour,
  write,
} from '../io.ts';

export interface ExplainFlags extends SourceFlags, StateFlags {
  color?: ColourChoice;
  input?: string;
  tool?: string;
  toolInput?: string;
  output?: string;
  mcpConfig?: unknown;
  requireTrust?: boolean;
}

export async function explainCommand(eventName: string, flags: ExplainFlags): Promise<number> {
  const output = outputForm(flags.output, process.stdout.isTTY ? 'human' : 'json');
  const event = checkEvent(eventName);
  const sources = sourceOptions(flags);
  const cwd = path.resolve(sources.projectDir ?? process.env.CLAUDE_PROJECT_DIR ?? process.cwd());
  let input: Record<string, unknown>;
  if (flags.tool !== undefined) {
    input = syntheticInput(event, cwd, { name: String(flags.tool), input: toolInput(flags.toolInput) });
  } else {
    const { text, source } = await readInput(flags.input);
    input = text.trim() === '' ? syntheticInput(event, cwd) : parseInput(event, text, source);
  }
  const mcpConfigs = list(flags.mcpConfig);
  const report = await explain(event, input, {
    ...sources,
    ...stateOptions(flags),
    ...(mcpConfigs ? { mcpConfigs } : {}),
    ...(flags.requireTrust ? { requireTrust: true } : {}),
  }).finally(closeStores);
  if (output === 'json') {
    const { trustInUse: _humanOnly, ...document } = report;
    await write(process.stdout, documentText(explainDocumentSchema(), document));
  } else {
    const locate = await pointerLocator(sourcesToLoad(sources, String(input.cwd)));
    const lines = await Promise.all(report.hooks.map(async (hook) => (await locate(hook.file, hook.pointer))?.line));
    const servers = report.mcpServers ? (await import('../../config/mcp/origins.ts')).originLine : undefined;
    await write(
      process.stdout,
      human(report, lines, useColour(process.stdout, flags.color), terminalWidth(process.stdout), servers),
    );
  }
  return EXIT.ok;
}

export function toolInput(text: string | undefined, flag = '--tool-input'): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PeriHooksError(
      'invalid-json',
      `${flag} is not valid JSON: ${(error as Error).message}`,
      `give the tool input as one JSON object, e.g. ${flag} '{"command":"ls"}'`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new PeriHooksError('invalid-input', `${flag} must be a JSON object`, `e.g. ${flag} '{"command":"ls"}'`);
  }
  return value as Record<string, unknown>;
}

function human(
  report: ExplainReport,
  lines: Array<number | undefined>,
  colour: boolean,
  width: number | undefined,
  originLine?: (origin: NonNullable<ExplainReport['mcpServers']>[number]) => string,
): string {
  const c = pc.createColors(colour);
  const target = report.matcherValue !== undefined ? `${report.event}(${report.matcherValue})` : report.event;
  const running = report.hooks.filter((hook) => hook.status === 'would-run').length;
  const head = `${c.bold('peri-hooks explain')} ${target}: ${running} of ${report.hooks.length} configured hooks would run`;
  const rows = report.hooks.map((hook, i) => [
    hook.status === 'would-run' ? c.green('run ') : c.dim('skip'),
    hook.type,
    hook.matcher ?? '(all)',
    sourceCell(hook, lines[i]),
    clip(hook.label),
    (hook.status === 'would-run' ? `timeout ${hook.timeoutMs! / 1000} s` : `${hook.skipReason}: ${hook.skipDetail}`) +
      (report.trustInUse && hook.trust && hook.skipReason !== 'untrusted' ? `; trust: ${trustWords(hook.trust)}` : ''),
  ]);
  const project = `project: ${report.projectDir} (${PROJECT_DIR_RULES[report.projectDirFrom]})`;
  const body =
    rows.length > 0
      ? table([['', 'type', 'matcher', 'source', 'hook', 'why'].map((h) => c.dim(h)), ...rows], { width })
      : `no ${report.event} hooks are configured in any source; nothing is enforced. Searched:\n${(report.noHooksFound?.searched ?? []).map((place) => `  ${place}`).join('\n')}`;
  const warnings = report.warnings.map((w) => formatDiagnostic(w, '')).join('\n');
  const servers = originLine ? (report.mcpServers ?? []).map((origin) => `${originLine(origin)}\n`).join('') : '';
  return `${head}\n${body}\n${servers}${c.dim(project)}\n${warnings ? `\n${warnings}\n` : ''}`;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 50 ? `${flat.slice(0, 47)}...` : flat;
}
