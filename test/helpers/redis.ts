// A real redis-server for tests, on a free 127.0.0.1 port, without persistence; stopped and awaited after.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** The redis-server on PATH, or undefined. */
export function redisServerPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

export interface RedisServer {
  url: string;
  /** The redis-server process (SIGSTOP it for a store that hangs). */
  pid: number;
  stop(): Promise<void>;
}

export async function startRedis(binary: string): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) resolve();
    });
    void exited.then(() => reject(new Error(`redis-server exited before it was ready: ${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A port that was free a moment ago (the kernel's pick for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
