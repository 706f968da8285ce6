// The short name of a hook in every message and report: its command (with args), URL, server/tool or prompt.

import { shownUrl } from './text.ts';
import type { LoadedHook } from './types.ts';

export function labelOf(hook: LoadedHook): string {
  const handler = hook.handler;
  switch (handler.type) {
    case 'command':
      return handler.args ? [handler.command, ...handler.args].join(' ') : handler.command;
    case 'http':
      return shownUrl(handler.url);
    case 'mcp_tool':
      return `${handler.server}/${handler.tool}`;
    case 'prompt':
    case 'agent':
      return handler.prompt;
  }
}
