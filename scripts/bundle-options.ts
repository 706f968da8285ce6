// The esbuild options of every peri-hooks bundle: the npm bin's and the SEA's differ only in entry and output.
import type { BuildOptions } from 'esbuild';

export function bundleOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node22',
    // CommonJS: Node 24 runs only a CommonJS main in a SEA.
    format: 'cjs',
    // jsonc-parser's default (UMD) entry leaves a require() that esbuild cannot follow.
    mainFields: ['module', 'main'],
    minify: true,
    legalComments: 'none',
    outfile,
    logLevel: 'warning',
  };
}

/** What src/audit/otel-sdk.ts imports: required from the package's dependencies, an asset in the SEA. */
export const OTEL_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-trace-otlp-proto',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace',
];
