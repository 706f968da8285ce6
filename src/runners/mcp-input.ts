// `${dot.path}` placeholders in an mcp_tool hook's `input`, as Claude Code 2.1.332 fills them (spec §20.4 item 5):
// in every string at any depth (keys stay), each placeholder replaced by the value at that path of the
// hook input as text (objects as compact JSON, missing or null as ""); other values are kept.
const PLACEHOLDER = /\$\{([^\s{}.]+(?:\.[^\s{}.]+)*)\}/g;

function valueAt(input: Record<string, unknown>, dotPath: string): unknown {
  let value: unknown = input;
  for (const key of dotPath.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function fill(text: string, input: Record<string, unknown>): string {
  return text.replace(PLACEHOLDER, (_whole, dotPath: string) => asText(valueAt(input, dotPath)));
}

export function substituteInput(value: unknown, input: Record<string, unknown>): unknown {
  if (typeof value === 'string') return fill(value, input);
  if (Array.isArray(value)) return value.map((item) => substituteInput(item, input));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteInput(item, input)]));
  return value;
}
