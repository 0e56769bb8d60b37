/**
 * What a POS plugin pushes for its terminal group (iiko "nomenclature", stop-lists, streets).
 * Prices in kopecks; ids of items are POS product UUIDs. Spec: Resources, Menu / Stop-list; POS protocol (docs/pos-protocol.md).
 */
export interface PosCategory {
  id: string;
  name: string;
  sort: number;
  parentId: string | null;
}

export interface Nutrition {
  kcalPer100g: number;
  proteinPer100g: number;
  fatPer100g: number;
  carbsPer100g: number;
  kcalPortion: number;
  proteinPortion: number;
  fatPortion: number;
  carbsPortion: number;
}

export interface PosMenuItem {
  id: string;
  categoryId: string;
  name: string;
  description: string;
  /** Price in kopecks. */
  priceMinor: number;
  weightGrams: number;
  nutrition?: Nutrition;
  /** Not shown to guests and not orderable directly (packaging, modifiers). */
  hidden: boolean;
  /** A zero-price gift/promo product granted by the loyalty program, never ordered directly. */
  gift: boolean;
}

export interface PosMenu {
  categories: PosCategory[];
  items: PosMenuItem[];
}

export interface StopListEntry {
  id: string;
  /** Remaining quantity at the POS; 0 or less means the item is out. */
  balance: number;
}

export interface Street {
  name: string;
  city: string;
}

export interface ProductMapping {
  externalProductId: string;
  productId: string;
  kind: string;
}

/** One terminal group's pushed state; null fields were never pushed. Times are UTC. */
export interface TerminalGroupState {
  organizationId: string;
  terminalGroupId: string;
  tenantId: string;
  lastHeartbeatAt: Date | null;
  menu: PosMenu | null;
  menuRevision: string | null;
  menuSyncedAt: Date | null;
  stopList: StopListEntry[] | null;
  stopListRevision: string | null;
  stopListSyncedAt: Date | null;
  streets: Street[] | null;
  streetsSyncedAt: Date | null;
  productMappings: ProductMapping[] | null;
  productMappingsSyncedAt: Date | null;
}

/** The four pushable documents and their columns. */
export type PushKind = 'menu' | 'stop_list' | 'streets' | 'product_mappings';
