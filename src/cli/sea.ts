// Entry point of the single executable: a loader, so that the SEA's main script stays small. The bundle (bin.ts's,
// with undici, redis and the MCP client as assets of their own) and its code cache are SEA assets.
import { getAsset } from 'node:sea';
import { BUNDLE_ASSET, CACHE_ASSET, bundleScript, runBundle } from './sea-script.ts';

runBundle(bundleScript(getAsset(BUNDLE_ASSET, 'utf8'), Buffer.from(getAsset(CACHE_ASSET))), require);
