import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.js';

// a NUL, or a UTF-16 surrogate without its partner: PostgreSQL refuses both in text and jsonb
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is this guard's purpose
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The path of the first string (value or object key) in `value` that PostgreSQL cannot store, or null. Walks
 * iteratively, so a deeply nested body cannot overflow the stack.
 */
export function findUnstorableText(value: unknown, root: string): string | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (BAD_TEXT.test(v)) return path;
    } else if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) stack.push([x, `${path}[${i}]`]);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (BAD_TEXT.test(k)) return `${path} (a key)`;
        stack.push([x, `${path}.${k}`]);
      }
    }
  }
  return null;
}

/**
 * Refuses text that PostgreSQL cannot store (NUL, lone surrogates) in the body, the query and the path with
 * 400 invalid_request before any handler runs, so no hold is taken and nothing is stored for such a request.
 * Spec: Errors (invalid_request), "bad input changes nothing".
 */
export function installTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const bad =
      findUnstorableText(request.params, 'path') ??
      findUnstorableText(request.query, 'query') ??
      (Buffer.isBuffer(request.body) ? null : findUnstorableText(request.body, 'body'));
    if (bad) throw invalid(`${bad} contains a NUL or an unpaired UTF-16 surrogate`);
  });
}
