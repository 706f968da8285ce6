// Whether the Gemini CLI that runs this hook can ask its user. Gemini turns a hook's `decision: "ask"` into a
// confirmation prompt, which a headless run (`-p`, CI, no terminal) never answers: the run hangs for good. So an
// ask is kept only where Gemini's own test for headless (isHeadlessMode in gemini-cli's core) says a person is
// there, read from the Gemini process that runs the hook (/proc). Where that cannot be read, no one is assumed.
import { readFileSync, readlinkSync } from 'node:fs';

/** How far up the process tree the Gemini process may be (the shell that runs the hook, a wrapper or two). */
const MAX_DEPTH = 6;

export function geminiCanAsk(env: Record<string, string | undefined> = process.env): boolean {
  if (env.CI === 'true' || env.GITHUB_ACTIONS === 'true') return false;
  const gemini = geminiProcess();
  if (!gemini) return false;
  if (gemini.args.some((arg) => arg === '-p' || arg === '--prompt' || arg.startsWith('--prompt='))) return false;
  return [0, 1].every((fd) => isTerminal(gemini.pid, fd));
}

function geminiProcess(): { pid: number; args: string[] } | undefined {
  let pid = process.ppid;
  for (let depth = 0; depth < MAX_DEPTH && pid > 1; depth++) {
    const args = read(`/proc/${pid}/cmdline`)?.split('\0').filter(Boolean);
    if (!args) return undefined;
    // `node …/bin/gemini -p …` (Gemini relaunches itself as a child with the same arguments).
    const at = args.findIndex((arg) => /(^|\/)gemini(\.js)?$/.test(arg) || arg.includes('/@google/gemini-cli/'));
    if (at >= 0) return { pid, args: args.slice(at + 1) };
    // /proc/<pid>/stat: `pid (comm) state ppid …`, where comm may hold spaces and parentheses.
    const stat = read(`/proc/${pid}/stat`) ?? '';
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? 0);
  }
  return undefined;
}

function isTerminal(pid: number, fd: number): boolean {
  try {
    return /^\/dev\/(pts\/|tty)/.test(readlinkSync(`/proc/${pid}/fd/${fd}`));
  } catch {
    return false;
  }
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
