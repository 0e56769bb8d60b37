import { describe, expect, it } from 'vitest';
import { ApiError, defineErrorTable } from '../src/api-error.js';

describe('error table and ApiError', () => {
  const errors = defineErrorTable({ NOT_FOUND: 404, BUSY: 503 });

  it('answers the status of a code from the table, which cannot be changed afterwards', () => {
    expect(errors.statusOf('BUSY')).toBe(503);
    expect(Object.isFrozen(errors.table)).toBe(true);
  });

  it('carries code, status, message, headers and extra fields; Retry-After in seconds', () => {
    const e = new ApiError('BUSY', errors.statusOf('BUSY'), 'try later', { 'retry-after': '5' }, { slot: 1 });
    expect([e.code, e.status, e.message, e.extra, e.retryAfter]).toEqual(['BUSY', 503, 'try later', { slot: 1 }, 5]);
    expect(new ApiError('NOT_FOUND', 404, 'x').retryAfter).toBeUndefined();
  });
});
