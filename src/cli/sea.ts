// Entry point of the single executable: a loader, so that the SEA's main script stays small. The bundle (bin.ts's,
// with zod, jsonc-parser, undici, redis and the MCP client as assets of their own) and the code caches are SEA assets.
import { assetModule, BUNDLE_ASSET } from './sea-script.ts';

assetModule(BUNDLE_ASSET, require);
