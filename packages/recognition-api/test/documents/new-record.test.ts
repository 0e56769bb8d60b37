import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formalizedRecord } from '../../src/documents/formalized-intake.js';
import { newRecord, type RecordRequest } from '../../src/documents/new-record.js';
import { readFormalizedUpd } from '../../src/formalized/index.js';

const now = new Date('2026-11-28T10:07:00Z');
const request = (over: Partial<RecordRequest> = {}): RecordRequest => ({
  documentType: 'auto',
  imageQuality: 'scan',
  outputFormat: 'json',
  priority: 'normal',
  callbackUrl: null,
  clientRef: 'ref-1',
  ...over,
});
const edo = { kind: 'edo' as const, content: 'pages' as const, messageId: 'm1', entityId: 'e1', boxId: 'b1' };

describe('newRecord: the one constructor of a new document record', () => {
  it('an upload or an import of pages is queued, due now, unclaimed, with no result and its source', () => {
    const doc = newRecord({ id: 'doc_a', apiKeyId: 'key_1', request: request(), files: ['doc_a/page-1.png'], source: edo, now });
    expect(doc).toEqual({
      id: 'doc_a',
      apiKeyId: 'key_1',
      requestedType: 'auto',
      documentType: 'auto',
      imageQuality: 'scan',
      outputFormat: 'json',
      priority: 'normal',
      callbackUrl: null,
      clientRef: 'ref-1',
      files: ['doc_a/page-1.png'],
      createdAt: now,
      availableAt: now,
      status: 'queued',
      leaseUntil: null,
      attempts: 0,
      leaseToken: 0,
      completedAt: null,
      data: null,
      confidence: null,
      warnings: null,
      processingTimeMs: null,
      errorCode: null,
      errorMessage: null,
      source: edo,
    });
  });

  it('a batch record waits for the next quarter hour', () => {
    const doc = newRecord({ id: 'doc_b', apiKeyId: 'k', request: request({ priority: 'batch' }), files: [], source: edo, now });
    expect(doc.availableAt).toEqual(new Date('2026-11-28T10:15:00Z'));
    expect(doc.status).toBe('queued');
  });

  it('a high upload is held by its request as claim 1 until the lease ends', () => {
    const until = new Date('2026-11-28T10:09:00Z');
    const doc = newRecord({
      id: 'doc_c',
      apiKeyId: 'k',
      request: request({ priority: 'high' }),
      files: ['doc_c/page-1.png'],
      source: { kind: 'upload', content: 'pages' },
      now,
      heldUntil: until,
    });
    expect([doc.status, doc.leaseUntil, doc.attempts, doc.leaseToken]).toEqual(['processing', until, 1, 1]);
  });

  it('a formalized record has every field of a new record, completed now with the file data', () => {
    const read = readFormalizedUpd(readFileSync(new URL('../formalized/fixtures/upd-5.03-hand.cp1251.xml', import.meta.url)));
    const input = {
      id: 'doc_d',
      apiKeyId: 'k',
      request: request({ priority: 'batch' }),
      source: { ...edo, content: 'formalized_xml' as const },
      now,
    };
    const doc = formalizedRecord({ ...input, read });
    expect(Object.keys(doc).sort()).toEqual(Object.keys(newRecord({ ...input, files: [] })).sort());
    expect([doc.status, doc.documentType, doc.availableAt, doc.completedAt, doc.confidence, doc.files]).toEqual([
      'completed',
      'upd',
      now,
      now,
      1,
      [],
    ]);
  });
});
