import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * The recognition service's one logger (Fastify's request log and the background events): pino, JSON lines on
 * stdout by default (`destination` for the demo's pretty printer or a test sink). The API key header and page
 * bytes never reach it: Fastify's request serializer logs method, URL and ids only, and uploads are not logged.
 */
export function createServiceLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'recognition-api' },
    redact: { paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * The background-events port (`log(msg, extra)`: failed recognitions, callback attempts, AI retries) onto pino.
 * They are events an operator may act on, so they are logged at warn.
 */
export const backgroundLog = (logger: Logger) => (msg: string, extra: object) => logger.warn(extra, msg);
