/**
 * What a POS plugin pushes for its terminal group, as stored: the push shapes come from the POS protocol in the
 * delivery contract (`MenuPush`, `StopListEntry`, ...). Prices in kopecks; ids of items are POS product UUIDs.
 * Spec: Resources, Menu / Stop-list; POS protocol (docs/pos-protocol.md).
 */
import type { NutritionSchema, MenuPush, ProductMapping, StopListEntry, Street } from '@app/delivery-contract';
import type { Static } from 'typebox';

export type { PosCategory, PosMenuItem, ProductMapping, StopListEntry, Street } from '@app/delivery-contract';

/** Nutrition values of a menu item (per 100 g and per portion). */
export type Nutrition = Static<typeof NutritionSchema>;

/** A pushed menu: categories and items. */
export type PosMenu = MenuPush;

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
