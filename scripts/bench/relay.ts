// The floors of the spawner helper (src/platform/spawner.ts) itself, for rows 5 and 8: what `test` and `serve`
// would cost if they did nothing but hand their hooks to the helpers, as they do, and wait for their ends.
//   node scripts/bench/relay.ts suite <script> <input file> <runs> <helpers> <at once>
//     starts <helpers> helpers and runs the script <runs> times through them, <at once> at a time;
//   node scripts/bench/relay.ts server
//     a bare HTTP server that runs `sh -c true` through one helper per POST (its body on stdin), then answers `{}`.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { type SpawnRequest, spawnHook, useSpawner } from '../../src/platform/spawner.ts';

/** Runs one hook through the helpers to its end, its output read and dropped, as a firing reads it. */
async function runThrough(request: SpawnRequest): Promise<void> {
  const hook = await spawnHook(request);
  if ('spawnError' in hook) throw new Error(`bench relay: ${hook.spawnError}`);
  hook.stdout.resume();
  hook.stderr.resume();
  await hook.finished;
}

const [mode, ...args] = process.argv.slice(2);
const env = { ...process.env };
if (mode === 'suite') {
  const [script, inputFile, runs, helpers, atOnce] = args;
  const stdin = readFileSync(inputFile!);
  await useSpawner(Number(helpers));
  let left = Number(runs);
  const lane = async () => {
    while (left-- > 0) await runThrough({ file: script!, args: [], cwd: process.cwd(), env, stdin });
  };
  await Promise.all(Array.from({ length: Number(atOnce) }, lane));
  process.exit(0);
} else if (mode === 'server') {
  await useSpawner(1);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const stdin = Buffer.concat(chunks);
      void runThrough({ file: 'sh', args: ['-c', 'true'], cwd: process.cwd(), env, stdin }).then(() =>
        response.end('{}'),
      );
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  console.error('usage: node scripts/bench/relay.ts suite <script> <input> <runs> <helpers> <at once> | server');
  process.exit(1);
}
