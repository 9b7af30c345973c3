import type { Tracing, TracingOptions } from './tracing-types.js';

export type { InjectedTracerProvider, TraceAttributes, Tracing, TracingOptions } from './tracing-types.js';

/**
 * Traces, when asked for: an OTLP endpoint is configured (`OTEL_EXPORTER_OTLP_ENDPOINT`) or a
 * tracer provider is given. Otherwise `undefined`, and no OpenTelemetry package is loaded at all:
 * the SDK and its instrumentation live in `tracing-sdk.ts`, imported here only when tracing is on
 * (test/static/tracing-imports.test.ts keeps every other file off them).
 */
export async function startTracing(options: TracingOptions): Promise<Tracing | undefined> {
  if (!options.otlpEndpoint && !options.tracerProvider) return undefined;
  const { createTracing } = await import('./tracing-sdk.js');
  return createTracing(options);
}
