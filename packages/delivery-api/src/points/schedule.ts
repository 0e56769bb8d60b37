import { DateTime } from 'luxon';
import type { ScheduleWindow } from './points.repo.js';

/** The business time zone. Spec: General rule 4. */
export const BUSINESS_ZONE = 'Europe/Moscow';

function minutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/**
 * Whether `now` falls in one of the weekly windows, evaluated in the point's zone (Moscow).
 * weekday 0 = Sunday … 6 = Saturday; a window with close <= open runs past midnight into the next day
 * (00:00–00:00 is a full day). `null` schedule means no schedule is set: open. Spec: Point.schedule, isOpenNow.
 */
export function isOpenAt(schedule: ScheduleWindow[] | null, now: Date, zone = BUSINESS_ZONE): boolean {
  if (schedule === null) return true;
  const local = DateTime.fromJSDate(now, { zone });
  const today = local.weekday % 7; // luxon: 1 = Monday … 7 = Sunday
  const yesterday = (today + 6) % 7;
  const t = local.hour * 60 + local.minute;
  return schedule.some((w) => {
    const open = minutes(w.open);
    const close = minutes(w.close);
    const crosses = close <= open;
    if (w.weekday === today) return crosses ? t >= open : t >= open && t < close;
    if (w.weekday === yesterday && crosses) return t < close;
    return false;
  });
}

/** HH:MM with hours 00–23 (24:00 is written 00:00 with close <= open). */
export const HHMM_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
