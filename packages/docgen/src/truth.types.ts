/**
 * Ground-truth shapes. They mirror `RecognizedData` of `@app/recognition-api` (engine.port.ts, Spec: Recognised
 * data) field for field, so a truth object is assignable to it; docgen keeps its own copy to avoid a package cycle
 * (the recognition tests depend on docgen). Amounts are roubles with kopecks as decimals, as printed.
 */
export type DocType = 'upd' | 'torg12' | 'invoice';
/**
 * `scan`: clean 300 DPI; `photo`: phone-like (tilt, shear, blur, uneven light, JPEG), the sheet fills the frame;
 * `photo-table`: the sheet lying on a desk, 55–85 % of a ~2000 px frame, rotated, keystoned, shadowed, JPEG;
 * `screenshot`: ~144 DPI PNG.
 */
export type Tier = 'scan' | 'photo' | 'photo-table' | 'photo-phone' | 'screenshot';

export interface TruthParty {
  name: string | null;
  inn: string | null;
  kpp: string | null;
  address?: string | null;
}

export interface TruthItem {
  number: number;
  name: string;
  product_code?: string | null;
  unit: { code: string | null; name: string | null };
  quantity: number | null;
  price: number | null;
  amount_without_nds: number | null;
  /** Percent (10, 20, 22) or null for "без НДС". */
  nds_rate: number | null;
  nds_exempt?: boolean;
  /** Null on "без НДС" lines (the form prints "без НДС" in the VAT column). */
  nds_amount: number | null;
  amount_with_nds: number | null;
}

export interface TruthData {
  document: { number: string | null; date: string | null };
  seller: TruthParty;
  buyer: TruthParty;
  items: TruthItem[];
  totals: { amount_without_nds: number | null; nds_amount: number | null; amount_with_nds: number | null };
}
