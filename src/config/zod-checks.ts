// The settings walk's checks as zod's schemas: loaded only when a generated check defers (config/load.ts).

import { hookHandlerSchema, matcherGroupSchema, settingsSchema } from './schema.ts';
import type { Checks } from './walk.ts';

export const ZOD_CHECKS: Checks = {
  scalar: (key, value) => settingsSchema.shape[key].safeParse(value),
  matcher: (value) => matcherGroupSchema.shape.matcher.safeParse(value),
  sequential: (value) => matcherGroupSchema.shape.sequential.safeParse(value),
  handler: (value) => hookHandlerSchema.safeParse(value),
};
