// The subset of the Anthropic Messages API wire format (POST /v1/messages) that the evaluators use.

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** Blocks we do not use (thinking, server tools…) are kept as they came, so they can be sent back verbatim. */
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | { type: string; [key: string]: unknown };

export interface Message {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export type ToolChoice = { type: 'auto' } | { type: 'any' } | { type: 'tool'; name: string };

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  system: string;
  messages: Message[];
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
}

export interface MessagesResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ContentBlock[];
  stop_reason: string | null;
}

/** `{"type":"error","error":{"type":"rate_limit_error","message":"…"},"request_id":"…"}` */
export interface ErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id?: string;
}

export function isToolUse(block: ContentBlock): block is ToolUseBlock {
  return block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string';
}

export function textOf(content: readonly ContentBlock[]): string {
  return content
    .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
    .join('\n');
}
