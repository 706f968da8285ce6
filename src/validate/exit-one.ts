// A hook that exits 1 where it evidently means to block. Claude Code reads exit 1 as a non-blocking error:
// the user sees a notice and the action goes through (§6.1). Found by shape in shell, Python and JavaScript:
// an `exit 1` on or just after a line that says deny/block/forbid, or that writes to stderr in a guard hook.

type Language = 'shell' | 'python' | 'javascript';

const EXITS: Readonly<Record<Language, RegExp>> = {
  shell: /(?:^|[\s;&|{(])exit\s+1(?=\s*(?:$|[;&|)}#]))/,
  python: /\b(?:sys\.exit|os\._exit|exit)\(\s*1\s*\)/,
  javascript: /\bprocess\.exit\(\s*1\s*\)|\bprocess\.exitCode\s*=\s*1\b/,
};

const STDERR: Readonly<Record<Language, RegExp>> = {
  shell: /(?:^|[^\w])1?>&2/,
  python: /\bsys\.stderr\b/,
  javascript: /\bconsole\.error\(|\bprocess\.stderr\.write\(/,
};

const REFUSAL =
  /\b(?:den(?:y|ied|ies)|block(?:ed|s|ing)?|forbid(?:den)?|refus(?:e|ed|ing)|disallow(?:ed)?|not allowed|reject(?:ed)?)\b/i;

/** Lines before the exit that count as its context. */
const CONTEXT_LINES = 3;

export interface BlockingExitOne {
  /** 1-based line of the `exit 1` in the text. */
  line: number;
  /** Why it reads as meant to block, e.g. `says "blocked"`. */
  evidence: string;
}

/** The language of a script, from its interpreter word, its name or its first line; undefined when unknown. */
export function languageOf(file: string, text: string, interpreter?: string): Language | undefined {
  const shebang =
    /^#!\s*(\S+)(?:\s+(\S+))?/
      .exec(text)
      ?.slice(1)
      .filter(Boolean)
      .map((part) => part.split('/').pop()!) ?? [];
  const names = [interpreter, ...shebang.filter((name) => name !== 'env')].filter(
    (name): name is string => name !== undefined,
  );
  for (const name of names) {
    if (/^(?:ba|da|z|k)?sh$/.test(name)) return 'shell';
    if (/^python[\d.]*$/.test(name)) return 'python';
    if (/^(?:node|bun|deno)$/.test(name)) return 'javascript';
  }
  if (/\.(?:ba|z)?sh$/.test(file)) return 'shell';
  if (/\.py$/.test(file)) return 'python';
  if (/\.[cm]?[jt]s$/.test(file)) return 'javascript';
  return undefined;
}

/** The first `exit 1` that evidently means to block; `guard`: stderr alone is evidence too. */
export function blockingExitOne(text: string, language: Language, guard: boolean): BlockingExitOne | undefined {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(?:#|\/\/)/.test(line) || !EXITS[language].test(line)) continue;
    const context = [...lines.slice(Math.max(0, i - CONTEXT_LINES), i), line].filter((l) => !/^\s*(?:#|\/\/)/.test(l));
    const word = context.map((l) => REFUSAL.exec(l)?.[0]).find(Boolean);
    if (word) return { line: i + 1, evidence: `says "${word}"` };
    if (guard && context.some((l) => STDERR[language].test(l))) return { line: i + 1, evidence: 'writes to stderr' };
  }
  return undefined;
}
