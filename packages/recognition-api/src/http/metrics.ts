import { installMetricsEndpoint } from '@app/shared';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Outcome of one recognition run: `completed`, `failed` (engine refused the pages) or `timeout`. */
export type RecognitionOutcome = 'completed' | 'failed' | 'timeout';
/** Outcome of one callback attempt: `delivered` (2xx), `retry` (failed, another attempt scheduled) or `dead` (no attempts left). */
export type CallbackOutcome = 'delivered' | 'retry' | 'dead';

/**
 * What the recognition service reports at `/metrics` (Prometheus text format, prom-client):
 * - `recognition_http_request_duration_seconds{method,route,status}`: every HTTP request, by route pattern;
 * - `recognition_queue_depth{priority}`: documents queued and not yet claimed, read from the queue at scrape time;
 * - `recognition_documents_total{outcome}` and `recognition_pages_total`: pages per second is `rate(pages_total)`;
 * - `recognition_ocr_duration_seconds{outcome}`: engine time per document (all its pages), seconds;
 * - `recognition_callback_deliveries_total{outcome}`: callback attempts by outcome.
 * docs/recognition.md "Metrics".
 */
export interface RecognitionMetrics {
  readonly registry: Registry;
  /** One document through the engine: its outcome, its page count and the engine's wall time in seconds. */
  recognized(outcome: RecognitionOutcome, pages: number, seconds: number): void;
  callback(outcome: CallbackOutcome): void;
}

/**
 * Registers the recognition metrics on `registry` (a new one by default). `queueDepth` is called at each scrape
 * and answers the number of queued documents per priority (`high`, `normal`, `batch`: label values, so this layer
 * need not import the documents feature's types).
 */
export function createRecognitionMetrics(queueDepth: () => Promise<Partial<Record<string, number>>>, registry = new Registry()): RecognitionMetrics {
  new Gauge({
    name: 'recognition_queue_depth',
    help: 'Documents queued and not yet claimed, by priority',
    labelNames: ['priority'],
    registers: [registry],
    async collect() {
      const depth = await queueDepth();
      for (const p of ['high', 'normal', 'batch'] as const) this.set({ priority: p }, depth[p] ?? 0);
    },
  });
  const documents = new Counter({
    name: 'recognition_documents_total',
    help: 'Documents through the engine by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const pages = new Counter({ name: 'recognition_pages_total', help: 'Pages through the engine (rate() = pages per second)', registers: [registry] });
  const ocr = new Histogram({
    name: 'recognition_ocr_duration_seconds',
    help: 'Engine time per document (all pages), by outcome',
    labelNames: ['outcome'],
    buckets: [0.5, 1, 2, 4, 8, 15, 30, 60, 120],
    registers: [registry],
  });
  const callbacks = new Counter({
    name: 'recognition_callback_deliveries_total',
    help: 'Callback attempts by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return {
    registry,
    recognized(outcome, n, seconds) {
      documents.inc({ outcome });
      pages.inc(n);
      ocr.observe({ outcome }, seconds);
    },
    callback(outcome) {
      callbacks.inc({ outcome });
    },
  };
}

/** The request duration histogram (by route pattern, never the raw URL) and `GET /metrics`, unauthenticated like health. */
export function installMetrics(app: FastifyInstance, metrics: RecognitionMetrics): void {
  const duration = new Histogram({
    name: 'recognition_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [metrics.registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  installMetricsEndpoint(app, metrics.registry);
}
