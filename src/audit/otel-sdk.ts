// The OpenTelemetry packages peri-hooks uses, in one module: the single executable embeds it as one asset
// (scripts/build-sea.ts), so that they share one copy of the API; the npm bundle requires them from its
// dependencies (scripts/build.ts), so that no firing without OpenTelemetry parses them.
export { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
export { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
export { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
export { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
export { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
