import { pino, stdSerializers, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

/**
 * Fields of a database driver's error that may quote the statement's values: the guest's name, phone and address
 * of an order body (PostgreSQL puts the refused JSON text in `where`/`detail`).
 */
const VALUE_FIELDS = ['detail', 'where', 'hint', 'internalQuery', 'query', 'parameters', 'params', 'body', 'payload'];

/** pino's error serializer without anything that can carry personal data; the message and SQLSTATE code stay. */
export function redactedErr(err: Error): Record<string, unknown> {
  const out = { ...stdSerializers.err(err) } as Record<string, unknown>;
  for (const f of VALUE_FIELDS) delete out[f];
  if (out.cause && typeof out.cause === 'object') {
    const c = { ...(out.cause as Record<string, unknown>) };
    for (const f of VALUE_FIELDS) delete c[f];
    out.cause = c;
  }
  return out;
}

/**
 * The service's one logger (also Fastify's): pino with errors redacted and request bodies never logged.
 * `false`/undefined → silent (tests). `destination` defaults to stdout.
 */
export function createLogger(opt: boolean | LoggerOptions | undefined, destination?: DestinationStream): Logger {
  if (!opt) return pino({ level: 'silent' });
  const base: LoggerOptions = opt === true ? {} : opt;
  const options: LoggerOptions = {
    ...base,
    serializers: { ...base.serializers, err: redactedErr },
    redact: { paths: ['req.body', 'body', 'guest', 'phone', 'address', '*.guest', '*.phone', '*.guestPhone'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
