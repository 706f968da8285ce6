// `npm run test:hosts [agent …]`: installs the pinned agents (scripts/install-agent.ts), then runs
// test/hosts/real/<agent>.real.ts inside a network namespace that has only loopback, where `unshare -n` is
// allowed, so that no agent reaches beyond 127.0.0.1 whatever it tries. Without unshare it says so and runs as is.
import { spawnSync } from 'node:child_process';
import { AGENTS, type AgentName, installAgent } from './install-agent.ts';

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in AGENTS));
if (unknown.length > 0) {
  console.error(`test:hosts: unknown agent ${unknown.join(', ')}; known: ${Object.keys(AGENTS).join(', ')}`);
  process.exit(1);
}
const agents = (asked.length > 0 ? asked : Object.keys(AGENTS)) as AgentName[];
for (const name of agents) installAgent(name, (text) => console.error(`test:hosts: ${text}`));

const files = agents.map((name) => `test/hosts/real/${name}.real.ts`);
// The trust recipe (docs/guide/trust.md) runs with Gemini.
if (agents.includes('gemini')) files.push('test/hosts/real/trust.real.ts');
const test = [process.execPath, '--test', '--test-concurrency=2', ...files];
const isolated = spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
if (!isolated) console.error('test:hosts: unshare -n is not allowed here; the agents run with the network as it is');
const command = isolated ? ['unshare', '-n', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', ...test] : test;
const run = spawnSync(command[0] as string, command.slice(1), { stdio: 'inherit' });
process.exit(run.status ?? 1);
