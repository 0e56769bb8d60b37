import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';

const envelope = (code: ErrorCode, message: string) => JSON.stringify({ error: { code, message } });

/**
 * Errors Fastify answers before any route or hook runs, rendered in the spec's `{error: {code, message}}`
 * envelope instead of Fastify's own body (docs/decisions.md "Fuzz findings"):
 * - `frameworkErrors`: a path parameter longer than `maxParamLength` → 414 URI_TOO_LONG; a malformed
 *   percent-encoding in the path → 404 NOT_FOUND (no such resource can exist).
 * - `clientErrorHandler`: the HTTP parser gave up → 431 HEADERS_TOO_LARGE (request line + headers over
 *   Node's 16 KB), 408 REQUEST_TIMEOUT, anything else 400 BAD_REQUEST. Written straight to the socket, which
 *   is then closed (the parser state is lost).
 */
export const frameworkErrorOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> = {
  frameworkErrors(error: Error & { code?: string }, _request: FastifyRequest, reply: FastifyReply) {
    const [code, message]: [ErrorCode, string] =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? ['URI_TOO_LONG', 'the request path is too long']
        : error.code === 'FST_ERR_BAD_URL'
          ? ['NOT_FOUND', 'no such resource (malformed path)']
          : ['BAD_REQUEST', 'the request is malformed'];
    void reply.status(ERROR_STATUS[code]).type('application/json; charset=utf-8').send(envelope(code, message));
  },
  clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
    if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
    const [code, message]: [ErrorCode, string] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? ['HEADERS_TOO_LARGE', 'request line and headers together exceed 16 KB']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ['REQUEST_TIMEOUT', 'the request was not received in time']
          : ['BAD_REQUEST', 'the request is not valid HTTP'];
    const status = ERROR_STATUS[code];
    const body = envelope(code, message);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  },
};
