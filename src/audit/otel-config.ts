// Whether a firing exports OpenTelemetry spans: the standard variables, read from the process environment as every
// OpenTelemetry SDK reads them. Nothing else of OpenTelemetry is loaded unless they say so (otel.ts).

/** How long a CLI firing waits, after its decision is written, for its spans to be sent. */
export const OTEL_FLUSH_MS = 1000;

export function otelConfigured(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}
