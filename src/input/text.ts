// Hook input text -> the checked input, without zod: the JSON checks, then the generated checker of the event's
// schema (src/generated/checks.ts). Only an input that checker does not accept loads zod (parse.ts), whose
// parse then accepts it or words the problems exactly as before.
import type { EventName } from '../events.ts';
import { DEFER, inputChecks } from '../generated/checks.ts';
import { inputObject } from './json.ts';
import type { HookInput } from './parse.ts';

/** Parse and validate stdin for an event. `source` names where the text came from, for messages. */
export async function checkInput(event: EventName, text: string, source = 'stdin'): Promise<HookInput> {
  const value = inputObject(event, text, source);
  if (inputChecks[event](value) !== DEFER) return value as HookInput;
  return (await import('./parse.ts')).validInput(event, value, source);
}
