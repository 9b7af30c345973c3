import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { StatementObserver } from '../db/statement-observers.js';

/** Span attribute values as OpenTelemetry takes them. */
export type TraceAttributes = Record<string, string | number | boolean>;

/**
 * A tracer provider the caller made (tests: an in-memory exporter behind a SimpleSpanProcessor),
 * structurally: OpenTelemetry's `NodeTracerProvider` or `BasicTracerProvider`. Typed here so that
 * nothing outside the lazily imported SDK file names an OpenTelemetry package.
 */
export interface InjectedTracerProvider {
  getTracer(name: string, version?: string): unknown;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** The OTLP/HTTP collector (`OTEL_EXPORTER_OTLP_ENDPOINT`): spans go to `<endpoint>/v1/traces` in batches. */
  otlpEndpoint?: string;
  /** A provider of the caller's instead of the OTLP one (its processors, its resource); shut down with the app all the same. */
  tracerProvider?: InjectedTracerProvider;
}

/** What the app and the job worker are given when tracing is on (server/platform/observability/tracing-sdk.ts). */
export interface Tracing {
  /**
   * @fastify/otel's plugin, registered before the routes: one SERVER span per request (a W3C
   * `traceparent` it carries is its parent), named by the route's operationId, with a child span per
   * route hook and for the handler.
   */
  fastifyPlugin: FastifyPluginCallback;
  /** Adds attributes to the span of `request` (tenant, actor), if it has one still open. */
  annotate(request: FastifyRequest, attributes: TraceAttributes): void;
  /** Runs `work` in a new root span `name` (a background job): the statements it sends are its children. */
  inRootSpan<T>(name: string, attributes: TraceAttributes, work: () => Promise<T>): Promise<T>;
  /** Makes each statement sent within a span a child span of it (`observeStatements`). */
  statementObserver: StatementObserver;
  /** Sends the spans still buffered, then stops: no span is made or sent after it. */
  shutdown(): Promise<void>;
}
