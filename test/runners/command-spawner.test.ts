// The command runner's own tests again, with its hooks started by the spawner helper as serve, mcp and test's
// workers start them (platform/spawner.ts): interruption, group kills and the script paths behave the same.
import assert from 'node:assert/strict';
import { useSpawner } from '../../src/platform/spawner.ts';

assert.ok(await useSpawner());
await import('./command.test.ts');
