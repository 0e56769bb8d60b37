import { expect } from 'vitest';
import type { RecognizedData } from '../../src/engine/engine.port.js';
import { makeData, pngPage, recognizeForm } from '../fixtures.js';
import type { EdoHarness } from './edo-harness.js';

/** Recognised data of a paper UPD from our organization (the seller) to a counteragent of the simulator's box. */
export function paperData(e: EdoHarness, over: Partial<RecognizedData> = {}): RecognizedData {
  const ours = e.sim.state.ours;
  const cp = e.sim.state.counteragents[0]!;
  return makeData({
    seller: { name: ours.fullName, inn: ours.inn, kpp: ours.kpp, address: ours.address.text },
    buyer: { name: cp.fullName, inn: cp.inn, kpp: cp.kpp, address: cp.address.text },
    ...over,
  });
}

/** A paper UPD recognised by the (fake) engine from `data`, priority=high: completed at once; its document id. */
export async function recognisedPaper(e: EdoHarness, data: RecognizedData = paperData(e)): Promise<string> {
  e.h.engine.data = data;
  const res = await e.h.app.inject({
    method: 'POST',
    url: '/api/v1/recognize',
    headers: { 'x-api-key': e.keys.both },
    payload: recognizeForm([await pngPage()], { priority: 'high', document_type: 'upd' }),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

/** The edo-draft body's signer and transfer content (the paper carries neither). */
export const SIGNER = { signer: 'Иванов Иван Иванович', signer_position: 'Директор', operation: 'Товары переданы' };
