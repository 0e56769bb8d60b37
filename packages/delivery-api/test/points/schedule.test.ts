import { describe, expect, it } from 'vitest';
import { isOpenAt } from '../../src/points/schedule.js';

// Moscow is UTC+3 all year.
const msk = (iso: string) => new Date(`${iso}+03:00`);

describe('isOpenAt (spec: Point.schedule, Europe/Moscow, windows crossing midnight)', () => {
  const daytime = [{ weekday: 1, open: '10:00', close: '22:00' }]; // Monday
  it('open inside the window, closed at the close minute and before open', () => {
    expect(isOpenAt(daytime, msk('2026-11-23T10:00:00'))).toBe(true);
    expect(isOpenAt(daytime, msk('2026-11-23T21:59:00'))).toBe(true);
    expect(isOpenAt(daytime, msk('2026-11-23T22:00:00'))).toBe(false);
    expect(isOpenAt(daytime, msk('2026-11-23T09:59:00'))).toBe(false);
  });
  it('uses Moscow time, not UTC: 21:30 UTC Monday is 00:30 Tuesday in Moscow', () => {
    expect(isOpenAt(daytime, new Date('2026-11-23T18:30:00Z'))).toBe(true);
    expect(isOpenAt(daytime, new Date('2026-11-23T21:30:00Z'))).toBe(false);
  });
  it('a window with close <= open crosses midnight into the next weekday', () => {
    const night = [{ weekday: 6, open: '18:00', close: '03:00' }]; // Saturday night
    expect(isOpenAt(night, msk('2026-11-28T23:00:00'))).toBe(true);
    expect(isOpenAt(night, msk('2026-11-29T02:59:00'))).toBe(true); // Sunday early morning
    expect(isOpenAt(night, msk('2026-11-29T03:00:00'))).toBe(false);
    expect(isOpenAt(night, msk('2026-11-28T17:59:00'))).toBe(false);
    expect(isOpenAt(night, msk('2026-11-28T02:00:00'))).toBe(false); // Saturday early morning: Friday has no window
  });
  it('Saturday night into Sunday wraps weekday 6 → 0', () => {
    const sat = [{ weekday: 6, open: '20:00', close: '02:00' }];
    expect(isOpenAt(sat, msk('2026-11-29T01:00:00'))).toBe(true);
    const sun = [{ weekday: 0, open: '20:00', close: '02:00' }];
    expect(isOpenAt(sun, msk('2026-11-30T01:00:00'))).toBe(true); // Monday 01:00 from the Sunday window
  });
  it('00:00-00:00 is open the whole day', () => {
    const allDay = [{ weekday: 1, open: '00:00', close: '00:00' }];
    expect(isOpenAt(allDay, msk('2026-11-23T00:00:00'))).toBe(true);
    expect(isOpenAt(allDay, msk('2026-11-23T23:59:00'))).toBe(true);
    expect(isOpenAt(allDay, msk('2026-11-24T00:00:00'))).toBe(false);
  });
  it('no schedule means open; an empty schedule means closed', () => {
    expect(isOpenAt(null, msk('2026-11-23T04:00:00'))).toBe(true);
    expect(isOpenAt([], msk('2026-11-23T12:00:00'))).toBe(false);
  });
});
