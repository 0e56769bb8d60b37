import { describe, expect, it } from 'vitest';
import { RecognitionFailedError } from '../../src/engine/engine.port.js';
import { createUnavailableEngine } from '../../src/engine/unavailable-engine.js';

describe('createUnavailableEngine (stand-in while the local OCR engine is missing)', () => {
  it('reports unavailable and fails every recognition with engine_unavailable', async () => {
    const e = createUnavailableEngine('module not found');
    expect(await e.health()).toBe('unavailable');
    const err = await e.recognize({ images: [], documentType: 'upd', imageQuality: 'scan' }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(RecognitionFailedError);
    expect(err).toMatchObject({ reason: 'engine_unavailable' });
  });
});
