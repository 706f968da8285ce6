// validate's CI forms: GitHub workflow annotations, and SARIF 2.1.0 (code scanning and other SARIF viewers).
// Paths are relative to `cwd` (the repository root in CI); an inline --settings value has no file to point at.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loaderCodeCost } from '../config/codes.ts';
import { VERSION } from '../platform/version.ts';
import { type AnnotationLevel, workflowCommand } from '../report/workflow-command.ts';
import { counted, displayPath, fixWithDoc } from '../text.ts';
import type { Severity } from '../types.ts';
import type { ValidateDiagnostic, ValidateReport } from './index.ts';
import { GROUP_RULES, HOOK_RULES, SET_RULES } from './rules.ts';

const ANNOTATION: Readonly<Record<Severity, AnnotationLevel>> = { error: 'error', warning: 'warning', note: 'notice' };
const SARIF_LEVEL: Readonly<Record<Severity, 'error' | 'warning' | 'note'>> = {
  error: 'error',
  warning: 'warning',
  note: 'note',
};
const SRCROOT = 'SRCROOT';

export function renderGithub(report: ValidateReport, cwd: string): string {
  const lines = report.diagnostics.map((d) => {
    const at =
      d.file !== undefined && path.isAbsolute(d.file)
        ? { file: displayPath(d.file, cwd), ...(d.line !== undefined ? { line: d.line, col: d.column ?? 1 } : {}) }
        : {};
    return workflowCommand(ANNOTATION[d.severity], { ...at, title: `peri-hooks validate: ${d.code}` }, textOf(d));
  });
  return `${[...lines, verdict(report)].join('\n')}\n`;
}

export function renderSarif(report: ValidateReport, cwd: string): string {
  const codes = [...new Set(report.diagnostics.map((d) => d.code))];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'peri-hooks',
            version: VERSION,
            rules: codes.map((code) => ({ id: code, shortDescription: { text: describe(code) } })),
          },
        },
        originalUriBaseIds: {
          [SRCROOT]: { uri: pathToFileURL(cwd.endsWith(path.sep) ? cwd : `${cwd}${path.sep}`).href },
        },
        results: report.diagnostics.map((d) => ({
          ruleId: d.code,
          ruleIndex: codes.indexOf(d.code),
          level: SARIF_LEVEL[d.severity],
          message: { text: textOf(d) },
          ...(d.file !== undefined && path.isAbsolute(d.file) ? { locations: [location(d, cwd)] } : {}),
          properties: {
            ...(d.pointer !== undefined ? { pointer: d.pointer } : {}),
            ...(d.makesSourceInapplicable ? { makesSourceInapplicable: true } : {}),
          },
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function location(d: ValidateDiagnostic, cwd: string) {
  const relative = path.relative(cwd, d.file!);
  const inside = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  const artifactLocation = inside
    ? { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: SRCROOT }
    : { uri: pathToFileURL(d.file!).href };
  const region = d.line !== undefined ? { region: { startLine: d.line, startColumn: d.column ?? 1 } } : {};
  return { physicalLocation: { artifactLocation, ...region } };
}

function textOf(d: ValidateDiagnostic): string {
  const voids = d.makesSourceInapplicable
    ? '\nmakes the file inapplicable: none of its hooks or settings apply until this is fixed'
    : '';
  const fix = fixWithDoc(d);
  return `${d.message}${fix ? `\nfix: ${fix}` : ''}${voids}`;
}

const SUMMARIES = new Map<string, string>(
  [...GROUP_RULES, ...HOOK_RULES, ...SET_RULES].flatMap((rule) =>
    [rule.code, ...(rule.also ?? [])].map((code) => [code, rule.summary] as const),
  ),
);

function describe(code: string): string {
  const summary = SUMMARIES.get(code);
  if (summary) return summary;
  const cost = loaderCodeCost(code);
  if (cost === 'file') return 'settings loader: the file cannot be read or parsed, so nothing of it loads';
  if (cost === 'hooks') return 'settings loader: configured hooks never run (an entry, a file or a source is dropped)';
  return 'settings loader: every hook still loads; advice, or a setting that is ignored';
}

export function verdict(report: ValidateReport): string {
  return `${report.ok ? 'ok' : 'failed'}: ${counted(report.errors, 'error')}, ${counted(report.warnings, 'warning')}, ${counted(report.notes, 'note')}`;
}
