import { ManualClock } from '@app/shared';
import { startEdoSimulator, type RunningEdoSimulator } from '@app/edo-simulator';
import { DiadocOperator } from '../../src/edo/diadoc/diadoc.http.js';
import { OidcTokenSource } from '../../src/edo/diadoc/oidc-tokens.js';

/** A simulator and a Diadoc adapter connected to it, sharing one ManualClock; sleeps are recorded, never waited. */
export interface EdoRig {
  sim: RunningEdoSimulator;
  clock: ManualClock;
  operator: DiadocOperator;
  /** Back-off waits the adapter asked for, ms. */
  sleeps: number[];
  /** Refresh tokens the adapter asked to persist (rotation). */
  rotated: string[];
  /** A second adapter over the same simulator with other options (closed by close()). */
  makeOperator(over?: { timeoutMs?: number; refreshToken?: string; clientSecret?: string; apiUrl?: string }): DiadocOperator;
  close(): Promise<void>;
}

export async function makeEdoRig(): Promise<EdoRig> {
  const clock = new ManualClock('2026-11-23T09:00:00Z');
  const sim = await startEdoSimulator({ clock });
  const sleeps: number[] = [];
  const rotated: string[] = [];
  const made: DiadocOperator[] = [];
  const makeOperator: EdoRig['makeOperator'] = (over = {}) => {
    const tokens = new OidcTokenSource({
      issuerUrl: sim.issuerUrl,
      clientId: sim.clientId,
      clientSecret: over.clientSecret ?? sim.clientSecret,
      refreshToken: over.refreshToken ?? sim.refreshToken,
      scope: 'Diadoc.PublicAPI',
      clock,
      timeoutMs: over.timeoutMs ?? 5000,
      onRotated: async (t) => void rotated.push(t),
    });
    const op = new DiadocOperator(sim.boxId, {
      baseUrl: over.apiUrl ?? sim.apiUrl,
      tokens,
      clock,
      timeoutMs: over.timeoutMs ?? 5000,
      sleep: async (ms) => void sleeps.push(ms),
      random: () => 0,
    });
    made.push(op);
    return op;
  };
  const operator = makeOperator();
  return {
    sim,
    clock,
    operator,
    sleeps,
    rotated,
    makeOperator,
    async close() {
      await Promise.all(made.map((o) => o.close()));
      await sim.close();
    },
  };
}

/** The rejection of `p` (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<{ code: string; status: number; message: string; retryAfter?: number }> {
  try {
    await p;
  } catch (err) {
    return err as never;
  }
  throw new Error('expected a rejection');
}
