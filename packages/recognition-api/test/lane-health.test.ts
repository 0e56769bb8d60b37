import { ManualClock } from '@app/shared';
import { describe, expect, it } from 'vitest';
import { loadRecognitionConfig } from '../src/config.js';
import { cachedProbe } from '../src/engine/pool/pooled-engine.js';
import type { ApiError } from '../src/errors.js';
import { Lane } from '../src/jobs/lane.js';

describe('high lane slots', () => {
  it('refuses the slot after the last with HIGH_PRIORITY_BUSY and a Retry-After bounded by the deadline', () => {
    const clock = new ManualClock();
    const lane = new Lane('priority=high', 2, clock);
    const deadline = new Date(clock.now().getTime() + 35_000);
    const r1 = lane.enter(deadline);
    lane.enter(deadline);
    let err: ApiError | undefined;
    try {
      lane.enter(deadline);
    } catch (e) {
      err = e as ApiError;
    }
    expect(err).toMatchObject({ code: 'HIGH_PRIORITY_BUSY', status: 503, headers: { 'retry-after': '5' } });
    clock.advance(4_000);
    r1();
    r1(); // idempotent
    expect(lane.busy).toBe(1);
    expect(() => lane.enter(deadline)).not.toThrow();
  });
});

describe('health probe cache', () => {
  it('runs the engine probe at most once per 30 s, one probe in flight for concurrent callers', async () => {
    const clock = new ManualClock();
    let probes = 0;
    const probe = cachedProbe(async () => {
      probes++;
      return 'ok';
    }, clock);
    expect(await Promise.all([probe(), probe(), probe()])).toEqual(['ok', 'ok', 'ok']);
    expect(probes).toBe(1);
    clock.advance(29_999);
    await probe();
    expect(probes).toBe(1);
    clock.advance(1);
    await probe();
    expect(probes).toBe(2);
  });
  it('a probe that throws is reported unavailable', async () => {
    const probe = cachedProbe(async () => {
      throw new Error('spawn ENOENT');
    }, new ManualClock());
    expect(await probe()).toBe('unavailable');
  });
});

describe('configuration', () => {
  it('reads the lane, memory and loopback settings once, naming a bad variable', () => {
    const c = loadRecognitionConfig({ RECOGNITION_HIGH_SLOTS: '3', RECOGNITION_TASK_MEMORY_MB: '512', RECOGNITION_ALLOW_PRIVATE_CALLBACKS: '1' });
    expect(c).toMatchObject({ highSlots: 3, taskMemoryMb: 512, allowLoopbackCallbacks: true });
    expect(loadRecognitionConfig({})).toMatchObject({ highSlots: 2, taskMemoryMb: 768, allowLoopbackCallbacks: false });
    expect(() => loadRecognitionConfig({ RECOGNITION_HIGH_SLOTS: '0' })).toThrow(/RECOGNITION_HIGH_SLOTS/);
    expect(() => loadRecognitionConfig({ AI_BASE_URL: 'https://ai.example/v1', AI_MODEL: 'm', AI_COST_INPUT_PER_MTOK: 'cheap' })).toThrow(
      /AI_COST_INPUT_PER_MTOK/,
    );
  });

  it('reads RECOGNITION_OCR_LANGUAGES: rus by default, rus/eng joined by +, anything else refused by name', () => {
    expect(loadRecognitionConfig({}).ocrLanguages).toBe('rus');
    expect(loadRecognitionConfig({ RECOGNITION_OCR_LANGUAGES: 'rus+eng' }).ocrLanguages).toBe('rus+eng');
    expect(loadRecognitionConfig({ RECOGNITION_OCR_LANGUAGES: 'eng' }).ocrLanguages).toBe('eng');
    for (const bad of ['deu', 'rus+rus', 'rus,eng', 'rus+', '../x'])
      expect(() => loadRecognitionConfig({ RECOGNITION_OCR_LANGUAGES: bad })).toThrow(/RECOGNITION_OCR_LANGUAGES/);
  });
});
