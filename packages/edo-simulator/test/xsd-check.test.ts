import { fileURLToPath } from 'node:url';
import { ManualClock, SequentialIds } from '@app/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEdoSimulator, updXsdFromEnv, type RunningEdoSimulator } from '../src/index.js';

// The simulator's XSD check of posted formalized UPD/invoice 5.03 (issue 24), against a small schema of our own
// (fixtures/upd-mini.xsd): the official FNS schema is not in the repository.
const MINI = fileURLToPath(new URL('fixtures/upd-mini.xsd', import.meta.url));

let sim: RunningEdoSimulator;
let bearer: string;
const ids = new SequentialIds();
beforeAll(async () => {
  sim = await startEdoSimulator({ clock: new ManualClock('2026-11-23T09:00:00Z'), ids, updXsd: MINI });
  const form = { grant_type: 'refresh_token', refresh_token: sim.refreshToken, client_id: sim.clientId, client_secret: sim.clientSecret };
  bearer = (
    (await (await fetch(`${sim.issuerUrl}/connect/token`, { method: 'POST', body: new URLSearchParams(form) })).json()) as { access_token: string }
  ).access_token;
});
afterAll(async () => sim.close());

/** A UPD/invoice file in the 5.03 layout the mini schema fixes; `edit` changes its text. */
function upd(edit: (xml: string) => string = (x) => x): string {
  const xml = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<Файл ИдФайл="ON_NSCHFDOPPR_test" ВерсФорм="5.03" ВерсПрог="test">',
    '  <Документ КНД="1115131" Функция="СЧФДОП" ДатаИнфПр="23.11.2026">',
    '    <СвСчФакт НомерДок="УПД-7" ДатаДок="23.11.2026"><ДенИзм КодОКВ="643"/></СвСчФакт>',
    '    <ТаблСчФакт><СведТов НомСтр="1"/></ТаблСчФакт>',
    '  </Документ>',
    '</Файл>',
    '',
  ].join('\n');
  return Buffer.from(edit(xml), 'utf8').toString('base64');
}

function post(content: string, typeNamedId = 'UniversalTransferDocument', version = 'utd970_05_03_01') {
  const body = {
    FromBoxId: sim.boxId,
    ToBoxId: sim.state.counteragents[0]!.boxGuid,
    IsDraft: true,
    DocumentAttachments: [{ TypeNamedId: typeNamedId, Version: version, SignedContent: { Content: content } }],
  };
  return fetch(`${sim.apiUrl}/V3/PostMessage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('edo-simulator: the XSD check of posted UPD/invoice 5.03', () => {
  it('refuses a draft that violates the schema with 400 InvalidXml and the validator’s finding, storing nothing', async () => {
    const before = { docs: sim.state.documents.length, events: sim.state.events.length, ops: sim.state.operations.size, id: ids.uuid() };
    const res = await post(upd((x) => x.replace('ДатаДок="23.11.2026">', 'ДатаДок="23.11.2026" Лишний="1">')));
    expect(res.status).toBe(400);
    expect(res.headers.get('x-diadoc-errorcode')).toBe('InvalidXml');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text).toMatch(/^DocumentAttachments\[0\]\.SignedContent\.Content is not valid against the format's XSD: line 4: /);
    expect(text).toMatch(/attribute 'Лишний' is not allowed/);
    // Nothing stored and no id drawn: the next id follows the one taken above.
    expect(sim.state.documents.length).toBe(before.docs);
    expect(sim.state.events.length).toBe(before.events);
    expect(sim.state.operations.size).toBe(before.ops);
    const next = ids.uuid();
    expect(Number.parseInt(next.slice(-12), 16)).toBe(Number.parseInt(before.id.slice(-12), 16) + 1);
  });

  it('refuses a missing required attribute and an invoice that violates it too', async () => {
    const res = await post(upd((x) => x.replace(' Функция="СЧФДОП"', '')));
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/attribute 'Функция' is required/);
    const inv = await post(
      upd((x) => x.replace('<ТаблСчФакт>', '<Лишний/><ТаблСчФакт>')),
      'Invoice',
      'invoice_05_03_01',
    );
    expect(inv.status).toBe(400);
    expect(await inv.text()).toMatch(/Лишний/);
  });

  it('accepts a valid draft and stores it', async () => {
    const count = sim.state.documents.length;
    const res = await post(upd());
    expect(res.status, await res.clone().text()).toBe(200);
    expect(sim.state.documents.length).toBe(count + 1);
    expect(sim.state.documents.at(-1)).toMatchObject({ isDraft: true, number: 'УПД-7', typeNamedId: 'UniversalTransferDocument' });
  });

  it('does not check other format versions or non-formalized documents against the 5.03 schema', async () => {
    const v501 = await post(
      upd((x) => x.replace('ВерсФорм="5.03"', 'ВерсФорм="5.01"').replace(' Функция="СЧФДОП"', '')),
      'UniversalTransferDocument',
      'utd820_05_01_02_hyphen',
    );
    expect(v501.status, await v501.clone().text()).toBe(200);
  });

  it('refuses to start with a schema path that is not an absolute path of a file', async () => {
    await expect(startEdoSimulator({ updXsd: '/nonexistent/upd.xsd' })).rejects.toThrow(
      /"\/nonexistent\/upd\.xsd" is not an absolute path of a file/,
    );
    await expect(startEdoSimulator({ updXsd: 'fixtures/upd-mini.xsd' })).rejects.toThrow(/EDO_SIMULATOR_UPD_XSD/);
  });
});

describe('updXsdFromEnv', () => {
  it('takes EDO_SIMULATOR_UPD_XSD, else RECOGNITION_UPD_XSD, else none', () => {
    expect(updXsdFromEnv({ EDO_SIMULATOR_UPD_XSD: '/a.xsd', RECOGNITION_UPD_XSD: '/b.xsd' })).toBe('/a.xsd');
    expect(updXsdFromEnv({ EDO_SIMULATOR_UPD_XSD: ' ', RECOGNITION_UPD_XSD: '/b.xsd' })).toBe('/b.xsd');
    expect(updXsdFromEnv({})).toBeUndefined();
  });
});
