import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReadOnlyChecks } from '../../src/edo/read-only-checks.js';
import { makeEdoRig, type EdoRig } from './edo-fixtures.js';

let rig: EdoRig;
beforeAll(async () => (rig = await makeEdoRig()));
afterAll(async () => rig.close());

describe('the read-only checks of npm run edo:live, against the simulator', () => {
  it('all pass on the seeded box, and nothing is written', async () => {
    const before = JSON.stringify({
      docs: rig.sim.state.documents.length,
      events: rig.sim.state.events.length,
      employees: rig.sim.state.employees.length,
    });
    const results = await runReadOnlyChecks(rig.operator);
    expect(results.filter((r) => r.outcome !== 'pass')).toEqual([]);
    // The route schemas take the simulator's cursors, which have Diadoc's length and shape.
    expect(results.find((r) => r.name.startsWith("the gateway's query schemas"))!.detail).toContain('document IndexKey (214 chars)');
    expect(results).toHaveLength(11);
    expect(rig.sim.requests.every((r) => r.startsWith('GET ') || r === 'POST /V3/SearchDocflows')).toBe(true);
    expect(
      JSON.stringify({ docs: rig.sim.state.documents.length, events: rig.sim.state.events.length, employees: rig.sim.state.employees.length }),
    ).toBe(before);
  });

  it('reports a failing operator as fail, per check, without stopping', async () => {
    rig.sim.faults.add({ kind: 'subscription-required' });
    const results = await runReadOnlyChecks(rig.operator);
    rig.sim.faults.clear();
    expect(results.map((r) => r.outcome)).toEqual(['fail', 'fail', 'fail', 'skip', 'fail', 'skip', 'fail', 'fail', 'fail', 'fail', 'fail']);
    expect(results.filter((r) => r.outcome === 'fail').every((r) => r.detail.startsWith('EDO_SUBSCRIPTION_REQUIRED'))).toBe(true);
  });
});
