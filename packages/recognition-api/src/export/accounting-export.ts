import type { AccountingExport, AccountingItem, LineItem } from '@app/recognition-contract';
import type { DocumentRecord } from '../documents/documents.types.js';

/** Version of the accounting export layout below; bumped on any change of its shape. */
export const ACCOUNTING_VERSION = '1.0';
/** `source_service` of the export: the name of this service. */
export const SOURCE_SERVICE = 'recognition-api';

/** The export's shapes are the contract's (`@app/recognition-contract`, document-record.ts). */
export type { AccountingExport, AccountingItem } from '@app/recognition-contract';

/** "без НДС" when exempt, "20%" for a rate, null when unknown. */
export function vatRateLabel(item: LineItem): string | null {
  if (item.nds_exempt) return 'без НДС';
  return item.nds_rate == null ? null : `${item.nds_rate}%`;
}

function toItem(item: LineItem): AccountingItem {
  return {
    line_number: item.number,
    name: item.name,
    product_code: item.product_code ?? null,
    unit_code: item.unit.code,
    unit_name: item.unit.name,
    quantity: item.quantity,
    price: item.price,
    amount_without_vat: item.amount_without_nds,
    vat_rate: vatRateLabel(item),
    vat_amount: item.nds_exempt ? 0 : item.nds_amount,
    amount_with_vat: item.amount_with_nds,
  };
}

/**
 * Builds the accounting export of a completed document. The counterparty is the seller: the documents this
 * service reads (UPD, TORG-12, invoice) are incoming purchase documents posted by the buyer's accountant.
 * @throws Error when the document is not completed (callers check first and answer 409 DOCUMENT_NOT_READY).
 */
export function buildAccountingExport(doc: DocumentRecord): AccountingExport {
  if (doc.status !== 'completed' || !doc.data || !doc.completedAt) throw new Error(`document ${doc.id} is not completed`);
  const data = doc.data;
  return {
    accounting_version: ACCOUNTING_VERSION,
    source_service: SOURCE_SERVICE,
    document_id: doc.id,
    recognized_at: doc.completedAt.toISOString(),
    document_type: doc.documentType,
    confidence: doc.confidence ?? 0,
    document: { number: data.document.number, date: data.document.date },
    counterparty: { inn: data.seller.inn, kpp: data.seller.kpp, name: data.seller.name, role: 'seller' },
    items: data.items.map(toItem),
    totals: {
      amount_without_vat: data.totals.amount_without_nds,
      vat_amount: data.totals.nds_amount,
      amount_with_nds: data.totals.amount_with_nds,
      currency: 'RUB',
    },
    raw_data: data,
  };
}
