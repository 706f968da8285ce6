// OpenTelemetry export of firings (the audit stage's second half): a span per firing and a child span per hook
// that ran, from the firing's audit entry (so nothing secret: src/redact.ts), over OTLP/HTTP with the official
// packages. Configured as every OpenTelemetry SDK is, from the process environment: the endpoint, headers,
// timeout, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES; OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL chooses the encoding.
// Loaded only when otel-config.ts says so. Spans are batched: a CLI firing flushes after its decision is
// written, waiting at most OTEL_FLUSH_MS; a resident server sends them in the background.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Span, Tracer } from '@opentelemetry/api';
import type { TracerProvider as Provider } from '@opentelemetry/sdk-trace';
import { createLocator, type Position } from '../config/locate.ts';
import { VERSION } from '../platform/version.ts';
import type { AuditEntry, AuditHook } from './entry.ts';
import { OTEL_FLUSH_MS } from './otel-config.ts';
import * as sdk from './otel-sdk.ts';

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

export interface FiringTimes {
  /** Epoch milliseconds. */
  start: number;
  end: number;
  /** When each hook started, by `<file>#<pointer>`. */
  hookStarts: ReadonlyMap<string, number>;
}

interface Exporting {
  provider: Provider;
  tracer: Tracer;
}

let exporting: Exporting | { problem: string } | undefined;

/** The process's one provider; a protocol it cannot speak is a problem said on every firing, never a crash. */
function provider(env: Record<string, string | undefined>, oneShot: boolean): Exporting | { problem: string } {
  if (exporting) return exporting;
  const protocol = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    'http/protobuf'
  ).trim();
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    exporting = {
      problem: `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported: no spans are exported (use http/protobuf or http/json)`,
    };
    return exporting;
  }
  // A one-shot firing must not outlive its flush: the request is abandoned at the deadline.
  const options = oneShot ? { timeoutMillis: OTEL_FLUSH_MS } : {};
  const exporter =
    protocol === 'http/json' ? new sdk.JsonTraceExporter(options) : new sdk.ProtobufTraceExporter(options);
  // peri-hooks names itself unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
  const resource = sdk
    .defaultResource()
    .merge(sdk.resourceFromAttributes({ 'service.name': 'peri-hooks', 'service.version': VERSION }))
    .merge(sdk.detectResources({ detectors: [sdk.envDetector] }));
  const created = new sdk.TracerProvider({ resource, spanProcessors: [new sdk.BatchSpanProcessor({ exporter })] });
  exporting = { provider: created, tracer: created.getTracer('peri-hooks', VERSION) };
  return exporting;
}

/** Records the firing's spans (sent later); a problem that stops the export comes back as text. */
export async function recordFiring(
  entry: AuditEntry,
  times: FiringTimes,
  options: { env: Record<string, string | undefined>; oneShot: boolean },
): Promise<string | undefined> {
  const ready = provider(options.env, options.oneShot);
  if ('problem' in ready) return ready.problem;
  const common = {
    'peri_hooks.event': entry.event,
    ...(entry.tool !== undefined ? { 'gen_ai.tool.name': entry.tool } : {}),
  };
  const firing = ready.tracer.startSpan(
    [entry.event, entry.tool].filter(Boolean).join(' '),
    {
      kind: sdk.SpanKind.INTERNAL,
      startTime: times.start,
      attributes: {
        ...common,
        'peri_hooks.host': entry.host,
        'session.id': entry.session,
        'peri_hooks.decision': entry.decision,
        ...(entry.reason !== undefined ? { 'peri_hooks.reason': entry.reason } : {}),
        ...(entry.summary !== undefined ? { 'peri_hooks.call': entry.summary } : {}),
        ...(entry.failClosed ? { 'peri_hooks.fail_closed': true } : {}),
        'peri_hooks.version': entry.version,
      },
    },
    sdk.ROOT_CONTEXT,
  );
  const parent = sdk.trace.setSpan(sdk.ROOT_CONTEXT, firing);
  for (const hook of entry.hooks.filter((candidate) => candidate.status === 'ran')) {
    const start = times.hookStarts.get(`${hook.file}#${hook.pointer}`) ?? times.start;
    const line = (await lineOf(hook.file, hook.pointer))?.line;
    const span = ready.tracer.startSpan(
      `hook ${hook.file === '--settings' ? 'inline' : path.basename(hook.file)}:${line ?? hook.pointer}`,
      {
        kind: sdk.SpanKind.INTERNAL,
        startTime: start,
        attributes: { ...common, ...hookAttributes(hook, line, entry) },
      },
      parent,
    );
    failed(span, hook);
    span.end(start + (hook.durationMs ?? 0));
  }
  firing.end(times.end);
  return undefined;
}

function hookAttributes(hook: AuditHook, line: number | undefined, entry: AuditEntry) {
  return {
    'code.file.path': hook.file,
    ...(line !== undefined ? { 'code.line.number': line } : {}),
    'peri_hooks.hook.pointer': hook.pointer,
    'peri_hooks.hook.layer': hook.layer,
    'peri_hooks.hook.type': hook.type,
    'peri_hooks.hook.command': hook.label,
    ...(hook.matcher !== undefined ? { 'peri_hooks.hook.matcher': hook.matcher } : {}),
    ...(hook.if !== undefined ? { 'peri_hooks.hook.if': hook.if } : {}),
    ...(hook.outcome !== undefined ? { 'peri_hooks.hook.outcome': hook.outcome } : {}),
    ...(typeof hook.exitCode === 'number' ? { 'process.exit.code': hook.exitCode } : {}),
    ...(hook.decided ? { 'peri_hooks.hook.decided': true, 'peri_hooks.decision': entry.decision } : {}),
  };
}

/** A hook that failed or timed out is an error span; a block is the hook doing its job. */
function failed(span: Span, hook: AuditHook): void {
  if (hook.timedOut) {
    span.setAttribute('error.type', 'timeout');
    span.setStatus({ code: sdk.SpanStatusCode.ERROR, message: 'timed out' });
  } else if (hook.outcome === 'non_blocking_error' || hook.outcome === 'cancelled') {
    span.setAttribute('error.type', hook.outcome);
    span.setStatus({ code: sdk.SpanStatusCode.ERROR, message: hook.outcome });
  }
}

const locators = new Map<string, Promise<((pointer: string) => Position) | undefined>>();

/** The line of a hook in its settings file, as it reads now (inline --settings has none). */
function lineOf(file: string, pointer: string): Promise<Position | undefined> {
  let locator = locators.get(file);
  if (!locator) {
    locator = Promise.resolve()
      .then(() => createLocator(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')))
      .catch(() => undefined);
    locators.set(file, locator);
  }
  return locator.then((locate) => locate?.(pointer));
}

/** Sends what is recorded, waiting at most `deadlineMs`; true when it was all sent in time. */
export async function flushTelemetry(deadlineMs = OTEL_FLUSH_MS): Promise<boolean> {
  if (!exporting || 'problem' in exporting) return true;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), deadlineMs);
    timer.unref();
  });
  try {
    return await Promise.race([exporting.provider.forceFlush().then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
