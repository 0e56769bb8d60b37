import type { Static } from 'typebox';
import type { OrderBody } from './orders.schemas.js';

/**
 * Spec: Order request — the body of POST /v1/orders after schema validation, typed from its one schema
 * (`OrderBody`). Money in kopecks; quantities as decimal strings (up to 3 decimals).
 */
export type OrderRequest = Static<typeof OrderBody>;
