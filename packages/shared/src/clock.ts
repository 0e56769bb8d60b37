import { randomUUID } from 'node:crypto';

/** Source of the current time. Injected everywhere so tests of the 30-minute, 15-minute and 60-second rules are instant. */
export interface Clock {
  /** Current instant (UTC). */
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private t: number;
  constructor(start: Date | string = '2026-11-23T09:00:00Z') {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.t += ms;
  }
  set(at: Date | string): void {
    this.t = new Date(at).getTime();
  }
}

/** Source of random identifiers. */
export interface IdSource {
  /** A new RFC 4122 v4 UUID, lowercase. */
  uuid(): string;
}

export const randomIds: IdSource = { uuid: () => randomUUID() };

/** Deterministic ids for tests: 00000000-0000-4000-8000-000000000001, ...0002, ... */
export class SequentialIds implements IdSource {
  private n = 0;
  uuid(): string {
    this.n += 1;
    return `00000000-0000-4000-8000-${this.n.toString(16).padStart(12, '0')}`;
  }
}

/** 8-4-4-4-12 hex groups, any case (the spec asks for a UUID of 36 characters). */
export const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function isUuid(s: unknown): s is string {
  return typeof s === 'string' && UUID_RE.test(s);
}
