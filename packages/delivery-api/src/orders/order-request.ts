/**
 * Spec: Order request — the body of POST /v1/orders after schema validation, typed from its one schema
 * (`OrderBody` in the contract). Money in kopecks; quantities as decimal strings (up to 3 decimals).
 */
export type { OrderRequest } from '@app/delivery-contract';
