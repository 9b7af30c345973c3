/**
 * The OpenTelemetry side of tracing, imported by `tracing.ts` only when tracing is on: the one file
 * of the server that names an OpenTelemetry package (test/static/tracing-imports.test.ts).
 */
import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { FastifyRequest } from 'fastify';
import type { ObservedStatement } from '../db/statement-observers.js';
import type { InjectedTracerProvider, TraceAttributes, Tracing, TracingOptions } from './tracing-types.js';

/** The service's name in traces unless OTEL_SERVICE_NAME (or `service.name` in OTEL_RESOURCE_ATTRIBUTES) says otherwise. */
export const DEFAULT_SERVICE_NAME = 'coverline-api';
const TRACER_NAME = 'coverline-api';

/**
 * The context manager (AsyncLocalStorage) and the W3C `traceparent` propagator are process-wide in
 * OpenTelemetry's API: set by the first traced app, removed when the last one shuts down.
 */
let registered = 0;
function registerGlobals() {
  if (registered++ > 0) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}
function unregisterGlobals() {
  if (--registered > 0) return;
  context.disable();
  propagation.disable();
}

/** The OTLP/HTTP provider: spans batched to `<endpoint>/v1/traces` (OTEL_EXPORTER_OTLP_HEADERS and OTEL_BSP_* honoured by the SDK). */
function otlpProvider(endpoint: string): NodeTracerProvider {
  const resource = resourceFromAttributes({ 'service.name': DEFAULT_SERVICE_NAME }).merge(detectResources({ detectors: [envDetector] }));
  return new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint}/v1/traces` }))] });
}

/** The operationId a route of the contract carries in its config (server/app/routes.ts). */
const operationIdOf = (request: FastifyRequest) => (request.routeOptions.config as { operationId?: string } | undefined)?.operationId;

const QUOTED_OR_WORD = /^(?:"((?:[^"]|"")+)"|([a-z_][\w$]*))(?:\.(?:"((?:[^"]|"")+)"|([a-z_][\w$]*)))?/i;

/** The table a statement's top level names (`insert into`, `update`, `delete from`, a select's first `from`), if it is that plain. */
function collectionOf(sql: string, operation: string): string | undefined {
  const lead = { INSERT: /^\s*insert\s+into\s+/i, UPDATE: /^\s*update\s+/i, DELETE: /^\s*delete\s+from\s+/i }[operation];
  let rest: string | undefined;
  if (lead) rest = sql.replace(lead, '');
  else if (operation === 'SELECT') {
    // The first `from` outside parentheses and quotes: a subquery in the select list names another table.
    let depth = 0;
    let quote: string | undefined;
    for (let i = 0; i < sql.length && rest === undefined; i++) {
      const c = sql[i];
      if (quote) { if (c === quote) quote = undefined; continue; }
      if (c === '"' || c === "'") quote = c;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (depth === 0 && /\s/.test(c) && /^from\s/i.test(sql.slice(i + 1, i + 6))) rest = sql.slice(i + 6).trimStart();
    }
  }
  const match = rest === undefined ? null : QUOTED_OR_WORD.exec(rest);
  if (!match) return undefined;
  const [, quoted, word, quotedTable, wordTable] = match;
  const table = quotedTable ?? wordTable;
  return (table ?? quoted ?? word).replace(/""/g, '"');
}

/**
 * A statement as a CLIENT span under `parent` (the request's or the job's span active when it was
 * sent), timed by the observer's clock: `db.query.text` is the text with its `$n` placeholders,
 * never a value; a failure is the span's status with `error.type` (PostgreSQL's SQLSTATE), never
 * the database's message (which may quote a value).
 */
function statementSpan(tracer: Tracer, parent: Context, statement: ObservedStatement) {
  const operation = /^\s*([a-z]+)/i.exec(statement.sql)?.[1]?.toUpperCase() ?? 'SQL';
  const collection = collectionOf(statement.sql, operation);
  const attributes: TraceAttributes = { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': statement.sql };
  if (collection) attributes['db.collection.name'] = collection;
  const span = tracer.startSpan(collection ? `${operation} ${collection}` : operation,
    { kind: SpanKind.CLIENT, startTime: statement.startTime, attributes }, parent);
  if (statement.error !== undefined) {
    const code = (statement.error as { code?: unknown })?.code;
    span.setAttribute('error.type', typeof code === 'string' ? code : (statement.error as Error)?.name ?? 'Error');
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end(statement.startTime + statement.durationMs);
}

/** Tracing on: the given provider, or one exporting to the OTLP endpoint. */
export function createTracing(options: TracingOptions): Tracing {
  const provider: InjectedTracerProvider = options.tracerProvider ?? otlpProvider(options.otlpEndpoint!);
  const tracer = provider.getTracer(TRACER_NAME) as Tracer;
  registerGlobals();

  const instrumentation = new FastifyOtelInstrumentation({
    // Spans for the request and its handler only: hooks run within the request's span (the
    // security hook's statements are its children), without one span each.
    instrumentHooks: false,
    // Errors are the span's status; their messages and stacks stay in the log.
    recordExceptions: false,
    requestHook(span, request) {
      const operationId = operationIdOf(request);
      span.updateName(operationId ?? request.method);
      if (operationId) span.setAttribute('coverline.operation_id', operationId);
      span.setAttribute('coverline.request.id', request.id);
    },
  });
  instrumentation.setTracerProvider(provider as NodeTracerProvider);

  let stopped = false;
  return {
    fastifyPlugin: instrumentation.plugin(),
    annotate(request, attributes) {
      const span: Span | null | undefined = request.opentelemetry?.().span;
      if (span?.isRecording()) span.setAttributes(attributes);
    },
    inRootSpan(name, attributes, work) {
      return tracer.startActiveSpan(name, { root: true, kind: SpanKind.CONSUMER, attributes }, async (span) => {
        try {
          return await work();
        } catch (error) {
          span.setAttribute('error.type', (error as Error)?.name ?? 'Error');
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      });
    },
    statementObserver(statement) {
      if (stopped) return;
      const parent = context.active();
      // A statement sent outside any request or job (the worker's polls, start-up) makes no trace of its own.
      if (!trace.getSpan(parent)) return;
      statementSpan(tracer, parent, statement);
    },
    async shutdown() {
      if (stopped) return;
      stopped = true;
      instrumentation.disable();
      try {
        await provider.shutdown();
      } finally {
        unregisterGlobals();
      }
    },
  };
}
