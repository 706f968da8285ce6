// Every host's module by name.
import { claudeFamily } from './claude-family.ts';
import { cline } from './cline.ts';
import { codex } from './codex.ts';
import { copilot } from './copilot.ts';
import { cursor } from './cursor.ts';
import { gemini } from './gemini.ts';
import { kiro } from './kiro.ts';
import type { HostModule } from './module.ts';
import { opencode } from './opencode.ts';
import { amp } from './plugin-hosts.ts';
import { qwen } from './qwen.ts';
import type { HostName } from './types.ts';
import { vscode } from './vscode.ts';
import { windsurf } from './windsurf.ts';

export const MODULES: Readonly<Record<HostName, HostModule>> = {
  codex,
  cursor,
  gemini,
  antigravity: claudeFamily,
  copilot,
  vscode,
  windsurf,
  kiro,
  cline,
  qwen,
  factory: claudeFamily,
  opencode,
  amp,
};
