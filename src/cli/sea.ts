// Entry point of the single executable: a loader, so that the SEA's main script stays small. The bundle (bin.ts's,
// with zod, jsonc-parser, undici, redis and the MCP client as assets of their own) and the code caches are SEA assets.
// As the hook spawner of a resident server (platform/spawner.ts) it loads no bundle: a small process forks fast.
import { SPAWNER_COMMAND, spawnerMain } from '../platform/spawner.ts';
import { assetModule, BUNDLE_ASSET } from './sea-script.ts';

if (process.argv[2] === SPAWNER_COMMAND) spawnerMain();
else assetModule(BUNDLE_ASSET, require);
