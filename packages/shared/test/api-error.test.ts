import { describe, expect, it } from 'vitest';
import { ApiError, defineErrorTable, errorClass } from '../src/api-error.js';

describe('error table and ApiError', () => {
  const table = defineErrorTable({ NOT_FOUND: 404, BUSY: 503 });
  const ServiceError = errorClass(table);

  it('freezes the table', () => {
    expect(Object.isFrozen(table)).toBe(true);
  });

  it('takes the status from the table; carries message, headers, extra fields and Retry-After in seconds', () => {
    const e = new ServiceError('BUSY', 'try later', { 'retry-after': '5' }, { slot: 1 });
    expect(e).toBeInstanceOf(ApiError);
    expect([e.code, e.status, e.message, e.extra, e.retryAfter]).toEqual(['BUSY', 503, 'try later', { slot: 1 }, 5]);
    expect(new ServiceError('NOT_FOUND', 'x').retryAfter).toBeUndefined();
    expect(new ServiceError('NOT_FOUND', 'x').status).toBe(404);
  });
});
