import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ticksToIso, isoToTicks, parseDiadocJson } from '../../src/edo/diadoc/diadoc-json.js';
import { stringifyJson } from '../../src/edo/operator-json.js';
import { mapOperatorError, operatorText, parseRetryAfter } from '../../src/edo/diadoc/diadoc-errors.js';
import { toEmployeeToUpdate, toMessageToPost } from '../../src/edo/diadoc/diadoc-translate.js';
import { SecretBox, SecretBoxError } from '@app/shared';
import { contentDisposition } from '../../src/edo/edo.routes.js';

describe('edo units', () => {
  it("ticks ↔ ISO: the known-answer vectors of Diadoc's docs", () => {
    expect(ticksToIso(638585445988979088n)).toBe('2024-08-06T12:36:38.8979088Z');
    expect(ticksToIso(636766476176953926n)).toBe('2018-11-01T05:40:17.6953926Z');
    expect(isoToTicks(new Date('2024-08-06T12:36:38.897Z'))).toBe(638585445988970000n);
    expect(stringifyJson(parseDiadocJson('{"T":638585445988979088,"N":1.25}'))).toBe('{"T":638585445988979088,"N":1.25}');
  });

  it('MessageToPost: TypeNamedId string + Version, FromBoxId, no draft/delay flag when signed', () => {
    const m = toMessageToPost('box@diadoc.ru', {
      ToBoxId: 'to',
      operationId: 'x',
      mode: 'signed',
      DocumentAttachments: [{ TypeNamedId: { Name: 'Invoice', Version: 'invoice_05_03_01' }, SignedContent: { Content: 'AA==', Signature: 'AQ==' } }],
    });
    expect(m).toEqual({
      FromBoxId: 'box@diadoc.ru',
      ToBoxId: 'to',
      DocumentAttachments: [{ TypeNamedId: 'Invoice', Version: 'invoice_05_03_01', SignedContent: { Content: 'AA==', Signature: 'AQ==' } }],
    });
  });

  it('EmployeeToUpdate wraps every field and sends nothing for absent ones', () => {
    expect(
      toEmployeeToUpdate({
        Position: 'P',
        Permissions: { UserDepartmentId: 'd', SelectedDepartmentIds: ['a'], DocumentAccessLevel: 'SelectedDepartments' },
      }),
    ).toEqual({
      Position: { Position: 'P' },
      Permissions: {
        Department: { DepartmentId: 'd' },
        DocumentAccessLevel: { DocumentAccessLevel: 'SelectedDepartments' },
        SelectedDepartments: { SelectedDepartmentIds: ['a'] },
      },
    });
    expect(toEmployeeToUpdate({ CanBeInvitedForChat: false })).toEqual({ CanBeInvitedForChat: { CanBeInvitedForChat: false } });
  });

  it('SecretBox: round trip, bound to its column, refuses another key', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('секрет', 'client_secret');
    expect(box.open(sealed, 'client_secret')).toBe('секрет');
    expect(() => box.open(sealed, 'refresh_token')).toThrow(SecretBoxError);
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'client_secret')).toThrow(SecretBoxError);
  });

  it('error mapping keeps status, X-Diadoc-ErrorCode and text; Retry-After in seconds or as a date', () => {
    const e = mapOperatorError(402, 'PaymentRequired', 'no subscription');
    expect([e.code, e.status, e.message]).toEqual([
      'EDO_SUBSCRIPTION_REQUIRED',
      402,
      'the box has no active Diadoc API subscription. Diadoc answered 402 PaymentRequired: no subscription',
    ]);
    expect(mapOperatorError(410, undefined, 'gone').code).toBe('EDO_UNAVAILABLE');
    expect(mapOperatorError(429, undefined, 'x').retryAfter).toBe(30);
    expect(parseRetryAfter('12', new Date())).toBe(12);
    expect(parseRetryAfter('Mon, 23 Nov 2026 09:01:00 GMT', new Date('2026-11-23T09:00:00Z'))).toBe(60);
    expect(operatorText('<html><head><title>502 Bad Gateway</title></head></html>', 'text/html')).toBe('HTML page from a proxy: 502 Bad Gateway');
  });

  it('Content-Disposition: ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('счёт "1".xml')).toBe(`attachment; filename="____ _1_.xml"; filename*=UTF-8''${encodeURIComponent('счёт "1".xml')}`);
  });
});
