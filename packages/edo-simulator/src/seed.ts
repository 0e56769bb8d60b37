import { createHash } from 'node:crypto';
import { generateTruth, type TruthParty } from '@app/docgen';
import { HEAD_DEPARTMENT, stableUuid } from './box-ids.js';
import type { DocState, SimDocument, SimEmployee, SimEvent, SimOrg, SimState } from './model.js';
import { ticksOf } from './ticks.js';
import { documentXml, fileId, type FormalizedWriter } from './xml.js';

/** Seeds of docgen documents whose sellers become our organization and the three counteragents. */
const PARTY_SEEDS = [3, 11, 29, 47, 61, 83, 97, 131, 151, 173, 199, 211];
/** Number of seeded documents: half inbound, half outbound, UPD and invoice alternating. */
export const SEEDED_DOCUMENTS = 24;

function legalParties(): TruthParty[] {
  const seen = new Set<string>();
  const out: TruthParty[] = [];
  for (const seed of PARTY_SEEDS) {
    const p = generateTruth({ seed, type: 'upd', tier: 'scan', lines: 1 }).truth.seller;
    if (p.kpp && p.inn && !seen.has(p.inn)) {
      out.push(p);
      seen.add(p.inn);
    }
  }
  return out;
}

function org(p: TruthParty, i: number): SimOrg {
  const [zip = '101000', city = 'г. Москва'] = (p.address ?? '').split(', ');
  const guid = stableUuid(`box:${p.inn}`);
  return {
    orgId: stableUuid(`org:${p.inn}`),
    boxGuid: guid,
    inn: p.inn!,
    kpp: p.kpp!,
    fullName: p.name!,
    shortName: p.name!,
    ogrn: `10${p.inn!.slice(0, 4)}${String(1000000 + i * 7919).slice(0, 7)}`,
    fnsParticipantId: `2BM-${p.inn}-${p.kpp}`,
    address: { zipCode: zip, region: p.inn!.slice(0, 2), city, text: p.address ?? '' },
  };
}

const STATES: DocState[] = ['Finished', 'Finished', 'WaitingForRecipientSignature', 'WaitingForSenderSignature'];

function seededDocument(i: number, ours: SimOrg, cps: SimOrg[], writer?: FormalizedWriter): SimDocument {
  const kind = i % 2 === 0 ? 'upd' : 'invoice';
  const direction = i % 4 < 2 ? 'Inbound' : 'Outbound';
  const cp = cps[i % cps.length]!;
  const { truth } = generateTruth({ seed: 1000 + i, type: kind, tier: 'scan' });
  const [seller, buyer] = direction === 'Outbound' ? [ours, cp] : [cp, ours];
  const asParty = (o: SimOrg): TruthParty => ({ name: o.fullName, inn: o.inn, kpp: o.kpp, address: o.address.text });
  truth.seller = asParty(seller);
  truth.buyer = asParty(buyer);
  const [d, m, y] = truth.document.date!.split('.').map(Number);
  const sent = new Date(Date.UTC(y!, m! - 1, d!, 6 + (i % 9), (i * 7) % 60, (i * 13) % 60, (i * 37) % 1000));
  const sendTicks = ticksOf(sent, (i * 7919) % 10000);
  const deliveryTicks = sendTicks + 15_000_000n + BigInt(i) * 1_234_567n;
  const messageId = stableUuid(`message:${i}`);
  const entityId = stableUuid(`entity:${i}`);
  let id = fileId(kind, seller.boxGuid.replace(/-/g, ''), buyer.boxGuid.replace(/-/g, ''), truth.document.date!, entityId);
  let content: Buffer = Buffer.from(documentXml(kind, id, truth), 'utf8');
  if (writer) {
    const written = writer(kind, truth, { senderId: seller.fnsParticipantId, recipientId: buyer.fnsParticipantId, uuid: entityId, at: sent });
    [id, content] = [written.fileId, written.xml];
  }
  const state = STATES[i % STATES.length]!;
  return {
    messageId,
    entityId,
    signatureEntityId: stableUuid(`signature:${i}`),
    direction,
    counteragent: cp,
    typeNamedId: kind === 'upd' ? 'UniversalTransferDocument' : 'Invoice',
    func: kind === 'upd' ? 'СЧФДОП' : 'default',
    version: kind === 'upd' ? 'utd970_05_03_01' : 'invoice_05_03_01',
    fileName: `${id}.xml`,
    content,
    signature: createHash('sha512').update(content).digest(),
    number: truth.document.number!,
    date: truth.document.date!,
    title: `${kind === 'upd' ? 'УПД' : 'Счет-фактура'} № ${truth.document.number} от ${truth.document.date}`,
    sendTicks,
    deliveryTicks,
    lastModificationTicks: deliveryTicks,
    isRead: i % 3 !== 0,
    isDeleted: false,
    isDraft: false,
    state,
    customDocumentId: '',
    comment: '',
    metadata: [
      { Key: 'FileName', Value: `${id}.xml` },
      { Key: 'DocumentNumber', Value: truth.document.number! },
      { Key: 'DocumentDate', Value: truth.document.date! },
      { Key: 'TotalSum', Value: String(truth.totals.amount_with_nds) },
      { Key: 'TotalVat', Value: String(truth.totals.nds_amount ?? 0) },
    ],
  };
}

const PEOPLE: [string, string, string, string, string, boolean][] = [
  ['director@sim.example', 'Соколов', 'Андрей', 'Петрович', 'Генеральный директор', true],
  ['buh@sim.example', 'Кузнецова', 'Марина', 'Олеговна', 'Главный бухгалтер', false],
  ['sklad@sim.example', 'Попов', 'Игорь', 'Николаевич', 'Заведующий складом', false],
  ['ivanova@sim.example', 'Иванова', 'Елена', 'Сергеевна', 'Бухгалтер', false],
];

function employee(p: (typeof PEOPLE)[number], i: number, base: Date): SimEmployee {
  const [login, last, first, middle, position, admin] = p;
  return {
    userId: stableUuid(`user:${login}`),
    login,
    fullName: { LastName: last, FirstName: first, MiddleName: middle },
    isRegistered: i < 3,
    position,
    canBeInvitedForChat: true,
    departmentId: HEAD_DEPARTMENT,
    isAdministrator: admin,
    accessLevel: admin ? 'AllDocuments' : 'DepartmentOnly',
    selectedDepartmentIds: [],
    actions: ['CreateDocuments', 'DeleteRestoreDocuments', 'SignDocuments', 'AddResolutions', 'RequestResolutions', 'ManageCounteragents'].map(
      (Name, k) => ({ Name, IsAllowed: admin || k < 3 }),
    ),
    authorization: { IsBlocked: false, Comment: '' },
    creationTicks: ticksOf(new Date(base.getTime() + i * 86_400_000), i * 1111),
    deleted: false,
  };
}

/**
 * The seeded box: our organization and three counteragents (docgen companies: valid INN check digits, KPP),
 * {@link SEEDED_DOCUMENTS} UPD/invoice documents with XML content, four employees (the first, the token's user,
 * is an administrator) and one event per message, ordered by time.
 */
/** The seeded box; with `writer` its UPDs and invoices are the real 5.03 seller title (else the simulator's own sketch). */
export function seedState(writer?: FormalizedWriter): SimState {
  const parties = legalParties().slice(0, 4).map(org);
  const [ours, ...counteragents] = parties as [SimOrg, ...SimOrg[]];
  const statuses = ['IsMyCounteragent', 'IsMyCounteragent', 'InvitesMe'] as const;
  counteragents.forEach((c, i) => {
    c.counteragentStatus = statuses[i];
    c.counteragentSinceTicks = ticksOf(new Date(Date.UTC(2024, 2 + i, 10, 9, 30)), i * 4321);
  });
  const documents = Array.from({ length: SEEDED_DOCUMENTS }, (_, i) => seededDocument(i, ours, counteragents, writer));
  const events: SimEvent[] = [...documents]
    .sort((a, b) => (a.sendTicks < b.sendTicks ? -1 : 1))
    .map((d, i) => ({ eventId: stableUuid(`event:${d.messageId}`), seq: i + 1, kind: 'message', messageId: d.messageId, ticks: d.deliveryTicks }));
  const employees = PEOPLE.map((p, i) => employee(p, i, new Date(Date.UTC(2024, 0, 15, 8))));
  return { ours, counteragents, documents, events, employees, meUserId: employees[0]!.userId, operations: new Map() };
}
