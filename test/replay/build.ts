// Transcripts in the format of Claude Code's session files, built by the tests: one JSON object per line,
// assistant lines with tool_use blocks, user lines with tool_result blocks and toolUseResult.
import { randomUUID } from 'node:crypto';

export interface Call {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Omitted: the call has no result in the transcript (the session ended, or it was interrupted). */
  result?: { content: unknown; isError?: boolean; structured?: unknown };
}

export function transcriptLines(
  cwd: string,
  turns: Array<Call[] | string>,
  sessionId: string = randomUUID(),
): string[] {
  const lines: string[] = [];
  let parent: string | null = null;
  let clock = Date.parse('2026-01-20T11:57:17.716Z');
  const base = () => {
    const uuid = randomUUID();
    const fields = {
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId,
      version: '2.1.332',
      gitBranch: 'main',
      uuid,
      timestamp: new Date((clock += 1000)).toISOString(),
    };
    parent = uuid;
    return fields;
  };
  lines.push(
    JSON.stringify({
      type: 'user',
      ...base(),
      permissionMode: 'acceptEdits',
      message: { role: 'user', content: 'please tidy up' },
    }),
  );
  for (const turn of turns) {
    if (typeof turn === 'string') {
      lines.push(turn);
      continue;
    }
    lines.push(
      JSON.stringify({
        type: 'assistant',
        ...base(),
        requestId: 'req_1',
        message: {
          model: 'claude',
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          content: [
            { type: 'text', text: 'ok' },
            ...turn.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input })),
          ],
          stop_reason: 'tool_use',
        },
      }),
    );
    for (const call of turn) {
      if (!call.result) continue;
      lines.push(
        JSON.stringify({
          type: 'user',
          ...base(),
          permissionMode: 'acceptEdits',
          message: {
            role: 'user',
            content: [
              {
                tool_use_id: call.id,
                type: 'tool_result',
                content: call.result.content,
                ...(call.result.isError ? { is_error: true } : {}),
              },
            ],
          },
          ...(call.result.structured !== undefined ? { toolUseResult: call.result.structured } : {}),
        }),
      );
    }
  }
  return lines;
}
