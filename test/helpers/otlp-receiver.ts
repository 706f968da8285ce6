// An OTLP/HTTP trace receiver on 127.0.0.1 that decodes what it gets with the official OTLP definitions: the
// protobuf messages opentelemetry-proto defines, as compiled in @opentelemetry/otlp-transformer 0.208.0 (the
// devDependency otlp-proto-definitions). http/protobuf bodies are decoded as ExportTraceServiceRequest; http/json
// bodies are read into the same message (ids from hex, as the OTLP JSON encoding writes them) and verified
// against it. Both come back in one shape, so that a test checks what was sent, not how.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

const require = createRequire(import.meta.url);
interface Message {
  decode(buffer: Uint8Array): unknown;
  fromObject(object: unknown): unknown;
  verify(object: unknown): string | null;
  toObject(message: unknown, options: object): ExportRequest;
}
const { opentelemetry } = require('otlp-proto-definitions/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: Message } } } } };
};
const ExportTraceServiceRequest = opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

type AnyValue = { stringValue?: string; intValue?: string; boolValue?: boolean; doubleValue?: number };
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface ExportRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{
      scope?: { name?: string };
      spans?: Array<{
        name: string;
        traceId: Uint8Array;
        spanId: Uint8Array;
        parentSpanId?: Uint8Array;
        startTimeUnixNano: string;
        endTimeUnixNano: string;
        attributes?: KeyValue[];
        status?: { code?: number; message?: string };
      }>;
    }>;
  }>;
}

export type Attributes = Record<string, string | number | boolean>;

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  status: { code: number; message?: string };
  resource: Attributes;
  scope: string;
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  encoding: 'protobuf' | 'json';
  spans: ReceivedSpan[];
  /** Why the body is not an ExportTraceServiceRequest. */
  problem?: string;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Resolves when `count` requests have come in (answered or not). */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

/** `answer: 'hang'` takes each request and never answers it (a receiver that is up but stuck). */
export async function startReceiver(answer: 'ok' | 'hang' = 'ok'): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const arrived = () => {
    for (const wait of waiting.filter((candidate) => requests.length >= candidate.count)) wait.resolve();
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const json = (request.headers['content-type'] ?? '').startsWith('application/json');
      let spans: ReceivedSpan[] = [];
      let problem: string | undefined;
      try {
        spans = spansOf(json ? fromJson(body) : ExportTraceServiceRequest.decode(body));
      } catch (error) {
        problem = (error as Error).message;
      }
      requests.push({
        path: request.url ?? '',
        headers: request.headers,
        encoding: json ? 'json' : 'protobuf',
        spans,
        ...(problem === undefined ? {} : { problem }),
      });
      arrived();
      if (answer === 'hang') return;
      response.writeHead(problem === undefined ? 200 : 400, {
        'content-type': json ? 'application/json' : 'application/x-protobuf',
      });
      response.end(json ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    // Bounded, so that a firing that sent nothing fails the test instead of hanging it.
    received: (count) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${requests.length} of ${count} OTLP requests came in within 30 s`)),
          30_000,
        );
        waiting.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
        arrived();
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The OTLP JSON encoding is the protobuf JSON mapping, but for ids: hex strings, not base64. */
function fromJson(body: Buffer): unknown {
  const object = JSON.parse(body.toString('utf8'), (key, value) =>
    ['traceId', 'spanId', 'parentSpanId'].includes(key) && typeof value === 'string'
      ? Buffer.from(value, 'hex')
      : value,
  );
  const message = ExportTraceServiceRequest.fromObject(object);
  const problem = ExportTraceServiceRequest.verify(message);
  if (problem) throw new Error(`not an OTLP ExportTraceServiceRequest: ${problem}`);
  return message;
}

function spansOf(message: unknown): ReceivedSpan[] {
  const request = ExportTraceServiceRequest.toObject(message, { longs: String, defaults: false });
  const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('hex');
  return (request.resourceSpans ?? []).flatMap((resourceSpans) =>
    (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        name: span.name,
        traceId: hex(span.traceId),
        spanId: hex(span.spanId),
        parentSpanId: hex(span.parentSpanId),
        startMs: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
        endMs: Number(BigInt(span.endTimeUnixNano) / 1_000_000n),
        attributes: attributes(span.attributes),
        status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
        resource: attributes(resourceSpans.resource?.attributes),
        scope: scopeSpans.scope?.name ?? '',
      })),
    ),
  );
}

function attributes(list: KeyValue[] | undefined): Attributes {
  return Object.fromEntries(
    (list ?? []).map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue ?? '')),
    ]),
  );
}
