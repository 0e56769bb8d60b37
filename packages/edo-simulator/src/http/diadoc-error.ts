import type { FastifyReply } from 'fastify';

/**
 * An error as Diadoc answers it: a status, a plain-text UTF-8 body and a machine code in `X-Diadoc-ErrorCode`
 * (there is no JSON envelope; the SDK reads exactly these two things).
 */
export class DiadocError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    text: string,
  ) {
    super(text);
  }
}

export const badRequest = (text: string, code = 'InvalidParameter') => new DiadocError(400, code, text);
export const notFound = (text: string, code = 'NotFound') => new DiadocError(404, code, text);

export function sendDiadocError(reply: FastifyReply, err: DiadocError): FastifyReply {
  return reply.status(err.status).header('X-Diadoc-ErrorCode', err.code).type('text/plain; charset=utf-8').send(err.message);
}

/** nginx's 429 page in front of Diadoc: HTML, no X-Diadoc-ErrorCode. */
export function sendRateLimited(reply: FastifyReply, retryAfter: number): FastifyReply {
  const html =
    '<html>\r\n<head><title>429 Too Many Requests</title></head>\r\n<body>\r\n<center><h1>429 Too Many Requests</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
  return reply.status(429).header('Retry-After', String(retryAfter)).type('text/html').send(html);
}
