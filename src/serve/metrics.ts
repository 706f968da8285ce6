// Prometheus metrics of the resident servers (serve's `GET /metrics`, mcp's `--metrics` listener): firings by
// event and decision, firing and hook durations, hooks that failed, firings that could not run, policy that did
// not load. prom-client is loaded when a server starts counting: `fire` never loads it.
import { createServer, type Server } from 'node:http';
import { decisionOf } from '../audit/entry.ts';
import { unenforcedLines } from '../config/codes.ts';
import type { FireReport } from '../report/types.ts';

/** Seconds: hooks run from a millisecond (a `true`) to minutes (a model call, the 10 min default timeout). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 600];

export interface Metrics {
  /** One firing that ran, from its report. */
  fired(report: FireReport, durationMs: number): void;
  /** A firing that could not run: the client's input, the server's failure, or an overload. */
  failed(event: string, reason: 'input' | 'internal' | 'overload'): void;
  /** The Prometheus text exposition. */
  scrape(): Promise<{ contentType: string; text: string }>;
}

export async function createMetrics(): Promise<Metrics> {
  const prom = await import('prom-client');
  const registers = [new prom.Registry()];
  const [registry] = registers as [InstanceType<typeof prom.Registry>];
  prom.collectDefaultMetrics({ register: registry, prefix: 'peri_hooks_' });
  const firings = new prom.Counter({
    name: 'peri_hooks_firings_total',
    help: 'Firings that ran, by hook event and decision (block, deny, ask, allow, none)',
    labelNames: ['event', 'decision'] as const,
    registers,
  });
  const firingSeconds = new prom.Histogram({
    name: 'peri_hooks_firing_duration_seconds',
    help: 'Time of a firing, from its input to its decision, by hook event',
    labelNames: ['event'] as const,
    buckets: BUCKETS,
    registers,
  });
  const hookSeconds = new prom.Histogram({
    name: 'peri_hooks_hook_duration_seconds',
    help: 'Time of each hook that ran, by hook event, hook type and outcome',
    labelNames: ['event', 'type', 'outcome'] as const,
    buckets: BUCKETS,
    registers,
  });
  const hookErrors = new prom.Counter({
    name: 'peri_hooks_hook_errors_total',
    help: 'Hooks that failed (a non-blocking error, a timeout, a command that could not start), by hook event and type',
    labelNames: ['event', 'type'] as const,
    registers,
  });
  const failures = new prom.Counter({
    name: 'peri_hooks_firing_errors_total',
    help: "Firings that could not run, by hook event and reason: input (the client's), internal, overload",
    labelNames: ['event', 'reason'] as const,
    registers,
  });
  const unenforced = new prom.Counter({
    name: 'peri_hooks_policy_not_enforced_total',
    help: 'Firings where part of the policy did not load (and so was not enforced), by hook event',
    labelNames: ['event'] as const,
    registers,
  });
  return {
    fired(report, durationMs) {
      const event = report.event;
      firings.inc({ event, decision: decisionOf(report) });
      firingSeconds.observe({ event }, durationMs / 1000);
      for (const hook of report.hooks) {
        if (hook.status !== 'ran') continue;
        const outcome = hook.timedOut ? 'timeout' : (hook.outcome ?? 'unknown');
        hookSeconds.observe({ event, type: hook.type, outcome }, (hook.durationMs ?? 0) / 1000);
        if (hook.error !== undefined || hook.timedOut || hook.outcome === 'non_blocking_error')
          hookErrors.inc({ event, type: hook.type });
      }
      if (unenforcedLines(event, report.warnings).length > 0) unenforced.inc({ event });
    },
    failed(event, reason) {
      failures.inc({ event, reason });
    },
    async scrape() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}

/** `mcp --metrics <host:port>`: GET /metrics on a loopback address, nothing else. Resolves with its URL. */
export function listenMetrics(metrics: Metrics, host: string, port: number): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://peri-hooks').pathname;
    if (path !== '/metrics' || request.method !== 'GET') {
      response.writeHead(path === '/metrics' ? 405 : 404, path === '/metrics' ? { allow: 'GET' } : {});
      response.end();
      return;
    }
    void metrics.scrape().then(({ contentType, text }) => {
      response.writeHead(200, { 'content-type': contentType });
      response.end(text);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const bound = server.address();
      const actual = typeof bound === 'object' && bound ? bound.port : port;
      server.unref();
      resolve({ url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}/metrics`, server });
    });
  });
}
