import type { Clock, Db, IdSource } from '@app/shared';
import { ApiError, invalid, notFound } from '../errors.js';
import type { OperatorJson } from '../edo/edo.port.js';
import type { SendRequest } from '../edo/edo.service.js';
import { MANUAL_CHECK_BELOW } from './document-view.js';
import { DocumentsRepo } from './documents.repo.js';
import { DOCUMENT_ID_RE } from './documents.types.js';
import { sellerOptions, sellerTitleType, writeSellerTitle, type UpdSellerInput } from './upd-export.js';

/** The gateway calls a draft needs (EdoService in production). */
export interface EdoDraftGateway {
  currentOrganization(): Promise<OperatorJson>;
  searchOrganizations(inn: string, kpp?: string): Promise<OperatorJson>;
  send(body: SendRequest, operationId: string): Promise<OperatorJson>;
}

/** Dependencies of {@link EdoDraftService}. */
export interface EdoDraftDeps {
  db: Db;
  clock: Clock;
  ids: IdSource;
  edo: EdoDraftGateway;
  /** RECOGNITION_UPD_XSD: the draft is validated against it when set. */
  updXsd?: string;
}

/** Body of POST /api/v1/documents/{id}/edo-draft. */
export interface EdoDraftBody extends UpdSellerInput {
  /** The caller confirms the data was checked by a person: needed when confidence is below 0.80. */
  checked?: boolean;
  /** `draft` (default): a Diadoc draft; `delaySend`: stored outbound, «Требуется подписать и отправить». */
  mode?: 'draft' | 'delaySend';
}

/** The answer: where the draft is at the operator. */
export interface EdoDraftResult {
  document_id: string;
  message_id: string;
  entity_id: string;
  to_box_id: string;
  mode: 'draft' | 'delaySend';
  file_id: string;
  schema_validated: boolean;
}

type Org = { Inn?: string; Kpp?: string; FnsParticipantId?: string; FullName?: string; Boxes?: { BoxIdGuid?: string; BoxId?: string }[] };

/**
 * A completed document posted through the gateway as the seller's formalized UPD/invoice draft
 * (docs/formalized-upload.md): the recipient is the operator organization with the buyer's INN (and KPP when the
 * document has one); the sender must be the configured box's organization (it is the seller's title). Refuses a
 * document below 0.80 confidence unless `checked: true`. The operation id is derived from the document id, so a
 * repeated request returns the draft already posted instead of a second one.
 */
export class EdoDraftService {
  constructor(private readonly deps: EdoDraftDeps) {}

  /**
   * @throws ApiError NOT_FOUND, DOCUMENT_NOT_READY, MANUAL_CHECK_REQUIRED (422), VALIDATION_ERROR (body fields; the
   *   seller is not our organization; no operator organization for the buyer; data the format needs is missing;
   *   XSD findings), EDO_* from the operator.
   */
  async post(apiKeyId: string, id: string, body: EdoDraftBody): Promise<EdoDraftResult> {
    if (!DOCUMENT_ID_RE.test(id)) throw notFound();
    const doc = await new DocumentsRepo(this.deps.db).get(id, apiKeyId);
    if (!doc) throw notFound();
    if (doc.status !== 'completed') throw new ApiError('DOCUMENT_NOT_READY', `document is ${doc.status}; a draft needs completed`);
    if (doc.confidence! < MANUAL_CHECK_BELOW && body.checked !== true)
      throw new ApiError(
        'MANUAL_CHECK_REQUIRED',
        `confidence is ${doc.confidence!.toFixed(2)}, below ${MANUAL_CHECK_BELOW.toFixed(2)}: check the data against the paper, then send "checked": true`,
      );
    const type = sellerTitleType(doc);
    const options = sellerOptions(body, type);
    const data = doc.data!;
    const ours = (await this.deps.edo.currentOrganization()) as Org;
    if (!data.seller.inn || data.seller.inn !== ours.Inn)
      throw invalid(
        'data.seller.inn',
        `is ${data.seller.inn ?? 'empty'}, not the INN of the configured box's organization (${ours.Inn}): only the seller can post its title`,
      );
    if (!data.buyer.inn) throw invalid('data.buyer.inn', "is empty: the recipient is found by the buyer's INN/KPP");
    const found = ((await this.deps.edo.searchOrganizations(data.buyer.inn, data.buyer.kpp ?? undefined)).Organizations ?? []) as Org[];
    const to = found.find((o) => o.Inn === data.buyer.inn && (!data.buyer.kpp || o.Kpp === data.buyer.kpp));
    const box = to?.Boxes?.[0]?.BoxIdGuid ?? to?.Boxes?.[0]?.BoxId;
    if (!to || !box || !to.FnsParticipantId)
      throw invalid('data.buyer', `no organization with INN ${data.buyer.inn}${data.buyer.kpp ? ` and KPP ${data.buyer.kpp}` : ''} at the operator`);
    const written = await writeSellerTitle(
      doc,
      {
        ...options,
        senderId: ours.FnsParticipantId ?? '',
        recipientId: to.FnsParticipantId,
        now: () => this.deps.clock.now(),
        uuid: () => this.deps.ids.uuid(),
      },
      this.deps.updXsd,
    );
    const mode = body.mode ?? 'draft';
    const message = await this.deps.edo.send(
      {
        ToBoxId: box,
        Mode: mode,
        DocumentAttachments: [
          {
            TypeNamedId: { Name: 'UniversalTransferDocument', Version: 'utd970_05_03_01' },
            Function: type === 'upd' ? 'СЧФДОП' : 'СЧФ',
            SignedContent: { Content: written.xml.toString('base64') },
            CustomDocumentId: doc.id,
          },
        ],
      },
      `edo-draft.${doc.id}`,
    );
    const entity = ((message.Entities ?? []) as { EntityId?: string; EntityType?: string }[]).find((e) => e.EntityType === 'Attachment');
    return {
      document_id: doc.id,
      message_id: String(message.MessageId ?? ''),
      entity_id: String(entity?.EntityId ?? ''),
      to_box_id: box,
      mode,
      file_id: written.fileId,
      schema_validated: written.validated,
    };
  }
}
