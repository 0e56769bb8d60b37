/**
 * Ground-truth shapes: the Recognised data of `@app/recognition-contract` (Spec: Recognised data), so a truth object
 * is what a perfect recognition returns. Amounts are roubles with kopecks as decimals, as printed; on "без НДС" lines
 * `nds_rate` and `nds_amount` are null (the form prints "без НДС" in the VAT column).
 */
import type { DocumentType, LineItem, Party, RecognizedData } from '@app/recognition-contract';

export type DocType = DocumentType;
/**
 * `scan`: clean 300 DPI; `photo`: phone-like (tilt, shear, blur, uneven light, JPEG), the sheet fills the frame;
 * `photo-table`: the sheet lying on a desk, 55–85 % of a ~2000 px frame, rotated, keystoned, shadowed, JPEG;
 * `screenshot`: ~144 DPI PNG.
 */
export type Tier = 'scan' | 'photo' | 'photo-table' | 'photo-phone' | 'screenshot';

export type TruthParty = Party;
export type TruthItem = LineItem;
export type TruthData = RecognizedData;
