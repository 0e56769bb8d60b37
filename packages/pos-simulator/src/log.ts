import { pino } from 'pino';

/**
 * What the simulator logs through: pino-compatible (`logger.info({pointId}, 'menu pushed')`), so a pino logger
 * can be passed as is. `fields` always carries `pointId` for per-terminal events and `err` (code, status) on failures.
 */
export interface SimLogger {
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
}

/** A logger, or a plain line sink (`(line) => app.log.debug(line)`) that gets both levels as `msg {json fields}`. */
export type SimLog = SimLogger | ((line: string) => void);

/** Default logger: pino, failures to stderr as one JSON line each; routine pushes (info) are not printed. */
export const consoleLogger: SimLogger = pino({ level: 'warn', base: { service: 'pos-simulator' } }, pino.destination(2));

/** The SimLogger behind either form of {@link SimLog}. */
export function toLogger(log: SimLog | undefined): SimLogger {
  if (log === undefined) return consoleLogger;
  if (typeof log !== 'function') return log;
  const line = (level: string) => (fields: Record<string, unknown>, msg: string) => log(`[pos-simulator] ${level} ${msg} ${JSON.stringify(fields)}`);
  return { info: line('info'), warn: line('warn') };
}

/** Loggable form of an error (PosRequestError has status and code; anything else keeps its message). */
export function errFields(err: unknown): Record<string, unknown> {
  const e = err as { name?: string; status?: number; code?: string; message?: string };
  return { name: e?.name, status: e?.status, code: e?.code, message: e?.message ?? String(err) };
}
