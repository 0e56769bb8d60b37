import { describe, expect, it } from 'vitest';
import { canMoveLeg, LEG_TRANSITIONS, legSources, RESERVING_LEG_STATES, type LegCause, type LegState } from '../../src/holds/leg-states.js';

const STATES: LegState[] = ['holding', 'held', 'releasing', 'confirmed', 'released', 'failed', 'settle_failed'];
const CAUSES: LegCause[] = ['hold_ok', 'hold_failed', 'read_back', 'retry', 'claim_release', 'confirm', 'release', 'give_up', 'support'];

/**
 * Every allowed leg move, with where it comes from: the spec's "Loyalty hold legs" (States and transitions) and
 * the holds rows of the transitions table, plus our recovery states (docs/loyalty.md "Recovery points").
 */
const EXPECTED: [LegState, LegState, LegCause, string][] = [
  ['holding', 'held', 'hold_ok', 'the hold call answered'],
  ['holding', 'held', 'read_back', 'a crashed hold call is read back as held'],
  ['holding', 'failed', 'hold_failed', 'the hold call was refused or its outcome is unknown'],
  ['holding', 'failed', 'read_back', 'a crashed hold call was never recorded'],
  ['holding', 'confirmed', 'read_back', 'a crashed hold call was already spent'],
  ['holding', 'confirmed', 'hold_ok', 'the hold call answered the key’s hold as spent (flagged for a person)'],
  ['holding', 'released', 'hold_ok', 'the hold call answered the key’s hold as released (retry with a new key)'],
  ['holding', 'released', 'read_back', 'a crashed hold call is read back as released elsewhere'],
  ['failed', 'holding', 'retry', 'spec: on a retry a failed leg is retried'],
  ['released', 'holding', 'retry', 'a retry holds a released leg again'],
  ['held', 'releasing', 'claim_release', 'an unlinked leg is claimed for release'],
  ['held', 'confirmed', 'confirm', 'spec: created_verified confirms (spends) holds'],
  ['held', 'confirmed', 'support', 'support retries settlement'],
  ['held', 'released', 'release', 'spec: rejected_final/cancelled release holds'],
  ['releasing', 'released', 'release', 'a claimed release completes'],
  ['failed', 'released', 'release', 'spec: 30 minutes elapsed, the hold is released directly'],
  ['held', 'settle_failed', 'give_up', 'settlement failed too often'],
  ['releasing', 'settle_failed', 'give_up', 'release failed too often'],
  ['settle_failed', 'held', 'support', 'support retries settlement'],
  ['settle_failed', 'released', 'support', 'support releases by hand (spec: POST /v1/orders rule 10)'],
  ['held', 'released', 'support', 'support releases by hand'],
];

const key = (from: LegState, to: LegState, cause: LegCause) => `${from} → ${to} by ${cause}`;

describe('LEG_TRANSITIONS (spec: Loyalty hold legs)', () => {
  it.each(EXPECTED)('allows %s → %s by %s (%s)', (from, to, cause) => {
    expect(canMoveLeg(from, to, cause)).toBe(true);
  });

  it('refuses every move that is not a row (all states × states × causes)', () => {
    const allowed = new Set(EXPECTED.map(([f, t, c]) => key(f, t, c)));
    for (const from of STATES)
      for (const to of STATES)
        for (const cause of CAUSES) {
          expect(canMoveLeg(from, to, cause), key(from, to, cause)).toBe(allowed.has(key(from, to, cause)));
        }
    const rows = LEG_TRANSITIONS.flatMap((r) => r.from.flatMap((f) => r.causes.map((c) => key(f, r.to, c))));
    expect(new Set(rows)).toEqual(allowed);
  });

  it('spec: on a retry a held leg is reused, a failed one retried, a holding one is in progress', () => {
    expect(legSources('holding', 'retry').sort()).toEqual(['failed', 'released']);
    expect(canMoveLeg('held', 'holding', 'retry')).toBe(false);
    expect(canMoveLeg('holding', 'holding', 'retry')).toBe(false);
  });

  it('nothing leaves confirmed; legs that still reserve the guest’s means are exactly the unsettled ones', () => {
    for (const to of STATES) for (const cause of CAUSES) expect(canMoveLeg('confirmed', to, cause)).toBe(false);
    expect([...RESERVING_LEG_STATES].sort()).toEqual(['held', 'holding', 'releasing', 'settle_failed']);
  });
});
